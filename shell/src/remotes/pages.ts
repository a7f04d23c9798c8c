/**
 * The route table, read at run time: every remote in `/remotes.json` and the `pages.json` beside
 * its `remoteEntry.js` (format: packages/federation/src/pages.ts). Started by the entry (index.ts)
 * together with the shared libraries, so it is there by the time the app renders. A remote whose
 * list cannot be read or is invalid only loses its own pages (logged); the table then says it is
 * incomplete, and an unknown path gets the contained fallback instead of the not-found page.
 */
import {
  buildRouteTable,
  pagesUrl,
  parsePages,
  type RemotePageList,
  type RouteTable,
} from '@yield/federation/pages';
import { fetchRemotesManifest } from './registry.ts';

let table: Promise<RouteTable> | null = null;

async function fetchPageList(remote: string, entry: string): Promise<RemotePageList> {
  try {
    const url = pagesUrl(new URL(entry, window.location.href));
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { remote, pages: parsePages(await response.json(), remote) };
  } catch (error) {
    return { remote, error: error instanceof Error ? error.message : String(error) };
  }
}

async function readRouteTable(): Promise<RouteTable> {
  let manifest: Record<string, string>;
  try {
    manifest = await fetchRemotesManifest();
  } catch (error) {
    return { pages: [], complete: false, problems: [`remotes manifest: ${String(error)}`] };
  }
  const lists = await Promise.all(
    Object.entries(manifest).map(([remote, entry]) => fetchPageList(remote, entry)),
  );
  return buildRouteTable(lists);
}

/** The route table of this page load (read once; it never rejects). */
export function loadRouteTable(): Promise<RouteTable> {
  table ??= readRouteTable().then((read) => {
    for (const problem of read.problems) console.error('[pages]', problem);
    return read;
  });
  return table;
}
