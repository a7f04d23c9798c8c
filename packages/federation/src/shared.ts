import fs from 'node:fs';
import path from 'node:path';

/**
 * The one list of shared singletons, used by all five apps. Every subpath that is imported must
 * be listed, or it is downloaded a second time. antd is deliberately NOT shared: shared, it ships
 * whole (436 KB gzip); unshared, each remote tree-shakes it to the few components it uses.
 */
export const sharedSingletons = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-router',
  'react-router-dom',
  'jotai',
  'jotai/utils',
  '@tanstack/react-query',
  '@yield/platform',
  'highcharts',
  'highcharts-react-official',
] as const;

export interface SharedSingletonConfig {
  singleton: true;
  /** `^<version the app is built with>`, or false for a package the app does not install. */
  requiredVersion: string | false;
  /** A requirement the page's copy does not meet is an error, not a warning. */
  strictVersion: boolean;
}

export type SharedConfig = Record<string, SharedSingletonConfig>;

/** `react-dom/client` → `react-dom`, `@yield/platform` → `@yield/platform`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * The version of `name` an app at `root` is built with: the `package.json` Node's resolution
 * finds first from the app folder (workspace packages and pnpm's links included).
 */
export function installedVersion(root: string, name: string): string | null {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    try {
      const json = JSON.parse(
        fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { version?: unknown };
      return typeof json.version === 'string' ? json.version : null;
    } catch {
      // not installed at this level
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * The shared singletons of the app at `root`, each requiring the major version it is built with
 * (`^x.y.z` from the package's own package.json). The page runs one copy of each; a remote whose
 * requirement that copy does not meet fails to load with a version error, which the shell
 * contains (its slot shows the fallback with Retry) instead of running it on an incompatible
 * library. Bump a workspace package's version (major for a breaking change) when its contract
 * changes.
 */
export function sharedConfig(root: string): SharedConfig {
  return Object.fromEntries(
    sharedSingletons.map((specifier) => {
      const version = installedVersion(root, packageOf(specifier));
      return [
        specifier,
        {
          singleton: true,
          requiredVersion: version ? `^${version}` : false,
          strictVersion: version !== null,
        },
      ];
    }),
  );
}
