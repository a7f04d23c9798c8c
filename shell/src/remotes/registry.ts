/**
 * The one place the shell loads remotes. Remote locations come from the runtime remotes manifest
 * (`/remotes.json`, served next to the shell and editable by operators), so a remote redeployed
 * elsewhere is picked up without rebuilding the shell. A remote is registered and downloaded only
 * when a page first renders one of its modules.
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

export function fetchRemotesManifest(): Promise<RemotesManifest> {
  manifestPromise ??= fetch(`/${REMOTES_MANIFEST_FILE}`, { cache: 'no-cache' })
    .then((response) => {
      if (!response.ok) throw new Error(`remotes manifest: HTTP ${response.status}`);
      return response.json() as Promise<RemotesManifest>;
    })
    .catch((error: unknown) => {
      manifestPromise = null; // let a retry fetch it again
      throw error;
    });
  return manifestPromise;
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
