/**
 * The checks a build passes before it becomes a release: its page list, the shared singletons it
 * requires against the live shell's, its pages' server render, and its pages' API reads against
 * the API's contract. Each problem found is one line naming what failed.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import semver from 'semver';
import { endpoints } from '@yield/contract';
import { parsePages, type PageRoute } from '@yield/federation/pages';
import { PAGES_FILE, type RemoteName } from '@yield/federation/registry';

/** The shared singletons whose version a remote must agree on with the shell. */
export const CHECKED_SINGLETONS = [
  'react',
  'react-dom',
  'react-router',
  'react-router-dom',
  'jotai',
  '@tanstack/react-query',
  '@yield/platform',
];

export interface CheckInput {
  remote: RemoteName;
  /** The build folder about to be released. */
  dir: string;
  /** The repository root (the live shell is `<rootDir>/shell/dist`). */
  rootDir: string;
  /** The settings the server renders pages with; null: no render check. */
  settings: Record<string, unknown> | null;
}

interface Manifest {
  exposes?: { name?: unknown }[];
  shared?: { name?: unknown; version?: unknown; requiredVersion?: unknown }[];
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** Every problem of the build; empty when it may be released. */
export function checkRelease(input: CheckInput): string[] {
  let pages: PageRoute[];
  try {
    pages = parsePages(readJson(path.join(input.dir, PAGES_FILE)), input.remote);
  } catch (error) {
    return [`${PAGES_FILE} is invalid: ${(error as Error).message}`];
  }
  let manifest: Manifest;
  try {
    manifest = readJson(path.join(input.dir, 'mf-manifest.json')) as Manifest;
  } catch (error) {
    return [`mf-manifest.json cannot be read: ${(error as Error).message}`];
  }
  const problems = [
    ...checkExposes(pages, manifest, input.remote),
    ...checkShared(manifest, input.rootDir),
    ...checkData(pages),
  ];
  // Rendering code whose page list or modules are wrong proves nothing more.
  return problems.length > 0 ? problems : checkRender(pages, input);
}

export function checkExposes(pages: PageRoute[], manifest: Manifest, remote: string): string[] {
  const exposed = new Set((manifest.exposes ?? []).map((e) => String(e.name).replace(/^\.\//, '')));
  return pages.flatMap((page) =>
    page.modules
      .filter((ref) => ref.remote === remote && !exposed.has(ref.module))
      .map(
        (ref) =>
          `${PAGES_FILE}: page ${page.path} names ./${ref.module}, which the build does not expose`,
      ),
  );
}

/** The shell's version of each shared package (its live build's mf-manifest.json). */
function shellVersions(rootDir: string): Map<string, string> | string {
  const file = path.join(rootDir, 'shell', 'dist', 'mf-manifest.json');
  try {
    const shared = (readJson(file) as Manifest).shared ?? [];
    return new Map(shared.map((s) => [String(s.name), String(s.version)]));
  } catch (error) {
    return `the live shell's ${file} cannot be read: ${(error as Error).message}`;
  }
}

export function checkShared(manifest: Manifest, rootDir: string): string[] {
  const required = (manifest.shared ?? []).filter(
    (s) => CHECKED_SINGLETONS.includes(String(s.name)) && typeof s.requiredVersion === 'string',
  );
  if (required.length === 0) return [];
  const shell = shellVersions(rootDir);
  if (typeof shell === 'string') return [shell];
  return required.flatMap(({ name, requiredVersion }) => {
    const have = shell.get(String(name));
    const range = String(requiredVersion);
    if (have === undefined)
      return [`shared ${String(name)} ${range}: the live shell does not share it`];
    if (!semver.validRange(range) || !semver.satisfies(have, range)) {
      return [`shared ${String(name)}: the build requires ${range}, the live shell has ${have}`];
    }
    return [];
  });
}

/** `/api/strategy-content/:id` and `/api/strategy-content/{slug}` both become `/api/strategy-content/*`. */
const pattern = (apiPath: string) =>
  apiPath
    .split('?')[0]!
    .split('/')
    .map((segment) => (/^(:\w+\??|\{\w+\})$/.test(segment) ? '*' : segment))
    .join('/');

export function checkData(pages: PageRoute[]): string[] {
  const known = new Set(
    Object.values(endpoints)
      .filter((e) => e.method === 'get')
      .map((e) => pattern(e.path)),
  );
  return pages.flatMap((page) =>
    page.data
      .filter((url) => !known.has(pattern(url)))
      .map((url) => `page ${page.path} reads ${url}, which is not a GET of the API's contract`),
  );
}

/** A path the pattern matches (each parameter filled with `x`), for the render check. */
const samplePath = (routePath: string) => routePath.replace(/:\w+\??/g, 'x').replace(/\*$/, 'x');

export function checkRender(pages: PageRoute[], input: CheckInput): string[] {
  const file = path.join(input.dir, 'server', 'render.cjs');
  if (!input.settings || !fs.existsSync(file)) return [];
  const requireCjs = createRequire(file);
  let render: unknown;
  try {
    delete requireCjs.cache[file];
    render = (requireCjs(file) as Record<string, unknown>).render;
  } catch (error) {
    return [`server/render.cjs cannot be loaded: ${(error as Error).message}`];
  }
  if (typeof render !== 'function') return ['server/render.cjs exports no render function'];
  return pages.flatMap((page) => {
    const first = page.modules[0];
    if (!first || first.remote !== input.remote) return [];
    const context = { path: samplePath(page.path), pattern: page.path, settings: input.settings };
    try {
      (render as (module: string, context: unknown) => unknown)(first.module, context);
      return [];
    } catch (error) {
      return [
        `page ${page.path}: ./${first.module} fails to render on the server: ${(error as Error).message}`,
      ];
    }
  });
}
