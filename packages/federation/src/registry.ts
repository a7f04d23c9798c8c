/**
 * The one registry of the apps: federation names, folders, development ports and the public path
 * each remote is served under in production. Read by the build configs, the site server and the
 * e2e setup. What each remote serves is not here: each remote declares its pages in its own
 * `src/pages.ts` (see pages.ts), read at run time from the `pages.json` its build writes.
 */

export const SITE_PORT = 8080;
export const API_DEV_PORT = 8787;
export const SHELL_DEV_PORT = 3000;

export const remoteRegistry = {
  mfe_leaderboard: { dir: 'mfe-leaderboard', devPort: 3001 },
  mfe_strategy: { dir: 'mfe-strategy', devPort: 3002 },
  mfe_premium: { dir: 'mfe-premium', devPort: 3003 },
  mfe_content: { dir: 'mfe-content', devPort: 3004 },
} as const;

export type RemoteName = keyof typeof remoteRegistry;
export type AppDir = 'shell' | (typeof remoteRegistry)[RemoteName]['dir'];

export const remoteNames = Object.keys(remoteRegistry) as RemoteName[];

export function isRemoteName(name: string): name is RemoteName {
  return Object.hasOwn(remoteRegistry, name);
}

/** Where a remote is served in production, relative to the site origin. */
export function remotePublicPath(name: RemoteName): string {
  return `/remotes/${remoteRegistry[name].dir}/`;
}

export const REMOTE_ENTRY_FILE = 'remoteEntry.js';
/** The remotes manifest the shell reads at runtime, served next to the shell's index.html. */
export const REMOTES_MANIFEST_FILE = 'remotes.json';
/** A remote's page list (see pages.ts), written by its build beside its remoteEntry.js. */
export const PAGES_FILE = 'pages.json';

/** Where a remote's `pages.json` is: beside its `remoteEntry.js` (any query string dropped). */
export function pagesUrl(entry: string | URL): URL {
  return new URL(PAGES_FILE, entry);
}

/**
 * `remotes.json`: each remote's federation name mapped to its `remoteEntry.js`. Read at run time,
 * so its keys are whatever the operator lists (the registry's remotes by default).
 */
export type RemotesManifest = Record<string, string>;

/** Default manifest: every remote from the same origin as the shell. */
export function productionRemotesManifest(): RemotesManifest {
  return Object.fromEntries(
    remoteNames.map((name) => [name, `${remotePublicPath(name)}${REMOTE_ENTRY_FILE}`]),
  ) as RemotesManifest;
}

/** Development manifest: every remote from its own dev server (hot reload). */
export function developmentRemotesManifest(host = 'localhost'): RemotesManifest {
  return Object.fromEntries(
    remoteNames.map((name) => [
      name,
      `http://${host}:${remoteRegistry[name].devPort}/${REMOTE_ENTRY_FILE}`,
    ]),
  ) as RemotesManifest;
}

export function remoteByDir(dir: string): RemoteName | undefined {
  return remoteNames.find((name) => remoteRegistry[name].dir === dir);
}
