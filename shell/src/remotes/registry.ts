/**
 * The one place the shell loads remotes. Remote locations come from the runtime remotes manifest
 * (`/remotes.json`, served next to the shell and editable by operators), so a remote redeployed
 * elsewhere is picked up without rebuilding the shell. A remote is registered and downloaded only
 * when a page first renders one of its modules. The manifest is read again on each navigation
 * (releases.ts): a remote released since then is loaded from its new entry.
 */
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { REMOTES_MANIFEST_FILE, type RemotesManifest } from '@yield/federation/registry';
import type { RemotePageModule } from '@yield/platform';

export class RemoteLoadError extends Error {
  constructor(
    readonly remote: string,
    readonly module: string,
    cause: unknown,
  ) {
    super(`Could not load ${remote}/${module}`, { cause });
    this.name = 'RemoteLoadError';
  }
}

let manifestPromise: Promise<RemotesManifest> | null = null;
const registered = new Map<string, string>();
const attempts = new Map<string, number>();

/** Reads `/remotes.json` anew (a conditional request: the browser revalidates its copy). */
export async function readRemotesManifest(): Promise<RemotesManifest> {
  const response = await fetch(`/${REMOTES_MANIFEST_FILE}`, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`remotes manifest: HTTP ${response.status}`);
  return (await response.json()) as RemotesManifest;
}

/** The remotes manifest of this tab: read once per page load, replaced by adoptRemotesManifest. */
export function fetchRemotesManifest(): Promise<RemotesManifest> {
  manifestPromise ??= readRemotesManifest().catch((error: unknown) => {
    manifestPromise = null; // let a retry fetch it again
    throw error;
  });
  return manifestPromise;
}

/** From now on, remotes load from this manifest's entries (a remote released since the last). */
export function adoptRemotesManifest(manifest: RemotesManifest): void {
  manifestPromise = Promise.resolve(manifest);
}

/** The entry this tab registered a remote from, or undefined when it never loaded the remote. */
export function loadedEntry(remote: string): string | undefined {
  return registered.get(remote);
}

/** A release's id from its entry URL (`/remotes/<dir>/<12 hex>/remoteEntry.js` here), else null. */
export function releaseOf(entry: string | undefined): string | null {
  if (!entry) return null;
  const url = new URL(entry, window.location.href);
  if (url.origin !== window.location.origin) return null; // a remote served from elsewhere
  return /^\/remotes\/[^/]+\/([0-9a-f]{12})\/remoteEntry\.js$/.exec(url.pathname)?.[1] ?? null;
}

/**
 * Before a remote's new release is registered: the chunks its old release put in the remote's
 * chunk list (Rspack's `rspackChunk<uniqueName>`, the uniqueName being the remote's name, see
 * packages/federation/src/create-config.ts) would be taken by the new runtime as its own chunks of
 * the same ids, old code. A fresh list: the old runtime keeps its own reference.
 */
function forgetOldChunks(remote: string): void {
  delete (window as unknown as Record<string, unknown>)[`rspackChunk${remote}`];
}

/**
 * Whether the page's own preload hints (sent with the HTML by the site server) covered this remote.
 * When the remote was down, the browser hands those failed preloads to any later load of the same
 * files, so only a fresh page load can retry it.
 */
export async function retryNeedsReload(remote: string): Promise<boolean> {
  const entry = (await fetchRemotesManifest().catch(() => null))?.[remote];
  if (!entry) return false;
  const base = new URL(entry, window.location.href).href.replace(/[^/]*$/, '');
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].some((link) =>
    link.href.startsWith(base),
  );
}

/**
 * Loads one exposed module. `retry` re-registers the remote with `force`, which clears the
 * federation runtime's cache of a failed entry so a remote that came back is fetched anew.
 */
export async function loadRemoteModule(
  remote: string,
  module: string,
  { retry = false } = {},
): Promise<RemotePageModule> {
  try {
    const manifest = await fetchRemotesManifest();
    const entry = Object.hasOwn(manifest, remote) ? manifest[remote] : undefined;
    if (!entry) throw new Error(`${remote} is missing from the remotes manifest`);
    if (retry || registered.get(remote) !== entry) {
      if (!retry && registered.has(remote)) {
        // A new release of a remote this tab has loaded: its first attempt at the new entry.
        attempts.delete(remote);
        forgetOldChunks(remote);
      }
      // A failed entry script stays in the page: a retry asks for a fresh copy of it, or the
      // runtime would wait on the dead one.
      attempts.set(remote, (attempts.get(remote) ?? 0) + (retry ? 1 : 0));
      const attempt = attempts.get(remote)!;
      const url =
        attempt > 0 ? `${entry}${entry.includes('?') ? '&' : '?'}retry=${attempt}` : entry;
      registerRemotes([{ name: remote, entry: url }], { force: registered.has(remote) });
      registered.set(remote, entry);
    }
    const loaded = await loadRemote<RemotePageModule>(`${remote}/${module}`);
    if (!loaded?.default) {
      throw new Error(`${remote}/${module} has no default export`);
    }
    return loaded;
  } catch (error) {
    throw error instanceof RemoteLoadError ? error : new RemoteLoadError(remote, module, error);
  }
}
