/**
 * A tab open across a release (docs/decisions.md, "Open tabs follow a remote's new release"):
 * before each client-side navigation renders its page, the shell reads `/remotes.json` again (a
 * conditional request) and, when a remote's entry changed, moves to the new release in place when
 * it can run in this page, or reloads the page once when it cannot.
 *
 * In place: the new release declares the same pages (the tab's route table stays true) and, for a
 * remote the tab has loaded, requires the same shared libraries (names and required versions) as
 * the release it runs, so the new entry joins the shared scope already set up. Otherwise one quiet
 * reload to the page asked for, never twice for the same release of a remote in this tab.
 */
import { parsePages } from '@yield/federation/pages';
import { pagesUrl, type RemotesManifest } from '@yield/federation/registry';
import {
  adoptRemotesManifest,
  fetchRemotesManifest,
  loadedEntry,
  readRemotesManifest,
} from './registry.ts';
import { forgetRemoteModules } from './RemoteSlot.tsx';

/** The federation manifest a remote's build writes beside its entry (shared requirements). */
const MF_MANIFEST_FILE = 'mf-manifest.json';
/** sessionStorage key prefix: a reload already made for `<remote>@<entry>` in this tab. */
export const RELOAD_KEY = 'remote-release-reload';

async function readJson(url: URL): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  return response.json() as Promise<unknown>;
}

/** The shared libraries a build requires, by name: what the page's scope must satisfy. */
function sharedRequirements(manifest: unknown): string[] {
  const shared = (manifest as { shared?: unknown } | null)?.shared;
  if (!Array.isArray(shared)) throw new Error(`${MF_MANIFEST_FILE}: no shared list`);
  return shared
    .map((item: { name?: unknown; requiredVersion?: unknown }) =>
      JSON.stringify([item.name, item.requiredVersion ?? null]),
    )
    .sort();
}

/** What must stay the same for the tab to switch a remote's release in place. */
async function releaseShape(remote: string, entry: string, loaded: boolean): Promise<string> {
  const base = new URL(entry, window.location.href);
  const [pages, manifest] = await Promise.all([
    readJson(pagesUrl(base)),
    loaded ? readJson(new URL(MF_MANIFEST_FILE, base)) : null,
  ]);
  const shared = loaded ? sharedRequirements(manifest) : null;
  return JSON.stringify({ pages: parsePages(pages, remote), shared });
}

/** Whether the tab can run the remote's new release without a reload (false if unreadable). */
async function switchesInPlace(remote: string, from: string | undefined, to: string) {
  if (from === undefined) return false; // a remote new to the manifest: its pages are not routed
  const loaded = loadedEntry(remote) !== undefined;
  try {
    const [before, after] = await Promise.all([
      releaseShape(remote, from, loaded),
      releaseShape(remote, to, loaded),
    ]);
    return before === after;
  } catch (error) {
    console.error(`[releases] ${remote}: cannot compare ${from} with ${to}`, error);
    return false;
  }
}

/** Marks these releases as reloaded for; false when every one already was (no loop). */
function firstReloadFor(keys: string[]): boolean {
  try {
    const fresh = keys.filter((key) => sessionStorage.getItem(key) === null);
    for (const key of fresh) sessionStorage.setItem(key, '1');
    return fresh.length > 0;
  } catch {
    return false; // no storage: never reload, the tab switches in place instead
  }
}

export interface ReleaseCheckOptions {
  /** Loads the page anew (location.assign). */
  assign?: (url: string) => void;
}

async function switchReleases(current: RemotesManifest, fresh: RemotesManifest) {
  const changed = Object.keys(fresh).filter((remote) => current[remote] !== fresh[remote]);
  const inPlace = await Promise.all(
    changed.map((remote) => switchesInPlace(remote, current[remote], fresh[remote]!)),
  );
  return {
    changed,
    reloadKeys: changed
      .filter((_, index) => !inPlace[index])
      .map((remote) => `${RELOAD_KEY}:${remote}@${fresh[remote]}`),
  };
}

/**
 * Runs before each navigation's page renders (the root route's loader, app/router.tsx). Resolves
 * once the tab's remotes manifest is the current one; never rejects. When a reload is needed it
 * starts it and never resolves, so the old page stays until the new one replaces it.
 */
export async function checkReleases(
  target: string,
  { assign = (url) => window.location.assign(url) }: ReleaseCheckOptions = {},
): Promise<null> {
  const [current, fresh] = await Promise.all([
    fetchRemotesManifest().catch(() => null),
    readRemotesManifest().catch(() => null),
  ]);
  if (!fresh) return null; // not readable now: the tab keeps what it runs
  if (current) {
    const { changed, reloadKeys } = await switchReleases(current, fresh);
    if (changed.length === 0) return null;
    if (reloadKeys.length > 0 && firstReloadFor(reloadKeys)) {
      assign(target);
      return new Promise<null>(() => {});
    }
    for (const remote of changed) forgetRemoteModules(remote);
  }
  adoptRemotesManifest(fresh);
  return null;
}
