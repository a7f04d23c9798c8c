/**
 * Every remote's page list, read at run time: each remote of `/remotes.json` and the `pages.json`
 * beside its `remoteEntry.js` (format: packages/federation/src/pages.ts). Started by the entry
 * (index.ts) together with the shared libraries, so it is there by the time the app renders; read
 * into the route table by app/route-table.tsx (the checks stay out of the entry's bytes).
 */
import { pagesUrl } from '@yield/federation/registry';
import { fetchRemotesManifest } from './registry.ts';

/** One remote's pages.json as fetched, or why it could not be. */
export type FetchedPageList =
  { remote: string; document: unknown } | { remote: string; error: string };

let lists: Promise<FetchedPageList[] | { error: string }> | null = null;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function fetchPageList(remote: string, entry: string): Promise<FetchedPageList> {
  try {
    const response = await fetch(pagesUrl(new URL(entry, window.location.href)));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { remote, document: (await response.json()) as unknown };
  } catch (error) {
    return { remote, error: message(error) };
  }
}

async function fetchAll(): Promise<FetchedPageList[] | { error: string }> {
  let manifest: Record<string, string>;
  try {
    manifest = await fetchRemotesManifest();
  } catch (error) {
    return { error: `remotes manifest: ${message(error)}` };
  }
  return Promise.all(
    Object.entries(manifest).map(([remote, entry]) => fetchPageList(remote, entry)),
  );
}

/** The page lists of this page load, in `remotes.json` order (read once; never rejects). */
export function fetchPageLists(): Promise<FetchedPageList[] | { error: string }> {
  lists ??= fetchAll();
  return lists;
}
