import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_ENTRY_FILE, pagesUrl, type RemotesManifest } from '@yield/federation/registry';
import { pageDataUrls, type MatchedPage } from '@yield/federation/routes';
import type { RemotesView } from './release-view.ts';

/** Shared singletons the shell provides on every page (highcharts only loads with a chart). */
const NOT_PRELOADED_SHARED = /^highcharts/;

interface FederationManifest {
  shared: { name: string; assets: { js: { sync: string[] }; css: { sync: string[] } } }[];
  exposes: { name: string; assets: { js: { sync: string[] }; css: { sync: string[] } } }[];
}

export type Hint = { href: string; as: 'script' | 'style' | 'fetch' };

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Resource hints for a page, from the build's federation manifests: the shell's bootstrap and
 * shared singletons, and for each module the page renders its remote's entry, chunks and CSS.
 * Sent with the HTML, they let the browser fetch in parallel what it would otherwise discover one
 * round trip at a time (HTML → shell → manifest → remote entry → page chunk).
 */
export class ResourceHints {
  constructor(private readonly rootDir: string) {}

  private shellHints(): Hint[] {
    const dist = path.join(this.rootDir, 'shell', 'dist');
    const hints: Hint[] = [];
    let files: string[];
    try {
      files = fs.readdirSync(dist);
    } catch {
      return hints;
    }
    for (const file of files) {
      if (/^bootstrap\.[0-9a-f]{8}\.js$/.test(file)) hints.push({ href: `/${file}`, as: 'script' });
      if (/^bootstrap\.[0-9a-f]{8}\.css$/.test(file)) hints.push({ href: `/${file}`, as: 'style' });
    }
    const manifest = readJson<FederationManifest>(path.join(dist, 'mf-manifest.json'));
    for (const shared of manifest?.shared ?? []) {
      if (NOT_PRELOADED_SHARED.test(shared.name)) continue;
      for (const file of shared.assets.js.sync) hints.push({ href: `/${file}`, as: 'script' });
    }
    return hints;
  }

  private moduleHints(remote: string, module: string, view: RemotesView): Hint[] {
    const { manifest } = view;
    const entry = Object.hasOwn(manifest, remote)
      ? manifest[remote as keyof RemotesManifest]
      : undefined;
    if (!entry) return [];
    const hints: Hint[] = [{ href: entry, as: 'script' }];
    // Chunk names are known only for a remote served from this server's builds or releases.
    const dir = view.localDir(remote);
    if (!dir || !entry.endsWith(`/${REMOTE_ENTRY_FILE}`)) return hints;
    const base = entry.slice(0, -REMOTE_ENTRY_FILE.length);
    const built = readJson<FederationManifest>(path.join(dir, 'mf-manifest.json'));
    const exposed = built?.exposes.find((expose) => expose.name === module);
    for (const file of exposed?.assets.css.sync ?? [])
      hints.push({ href: base + file, as: 'style' });
    for (const file of exposed?.assets.js.sync ?? [])
      hints.push({ href: base + file, as: 'script' });
    return hints;
  }

  /**
   * Every remote's pages.json: the shell reads them all (its route table) before its first
   * render. Without the hints they were requested after the shell's entry ran, behind its
   * preloaded scripts, and held the render back (see docs/performance.md).
   */
  private pageListHints(manifest: Partial<RemotesManifest>): Hint[] {
    const local = 'http://site.local';
    return Object.values(manifest).flatMap((entry) => {
      try {
        const url = pagesUrl(new URL(String(entry), local));
        return [{ href: url.origin === local ? url.pathname : url.href, as: 'fetch' as const }];
      } catch {
        return [];
      }
    });
  }

  /** The hints of a page for a visitor who gets the remotes of `view`. */
  hintsFor(route: MatchedPage, view: RemotesView): Hint[] {
    const { manifest } = view;
    const all: Hint[] = [
      ...pageDataUrls(route).map((href) => ({ href, as: 'fetch' as const })),
      ...this.pageListHints(manifest),
      ...this.shellHints(),
      ...route.modules.flatMap(({ remote, module }) => this.moduleHints(remote, module, view)),
    ];
    const seen = new Set<string>();
    return all.filter((hint) => (seen.has(hint.href) ? false : (seen.add(hint.href), true)));
  }

  /**
   * Stylesheets the page's first paint needs before it can be painted: the shell's and its first
   * module's (the markup of both is in the HTML when the server renders it).
   */
  firstPaintStylesheets(route: MatchedPage, view: RemotesView): string[] {
    const first = route.modules[0];
    return [
      ...this.shellHints(),
      ...(first ? this.moduleHints(first.remote, first.module, view) : []),
    ]
      .filter((hint) => hint.as === 'style')
      .map((hint) => hint.href);
  }
}

/** A `<link rel="preload">` for each hint: the tags of a page sent without a first paint. */
export function preloadTags(hints: Hint[]): string {
  return hints
    .map(({ href, as }) => {
      // fetch() reads same-origin data in CORS mode: the preload must match it to be reused.
      return `<link rel="preload" href="${attrValue(href)}" as="${as}"${as === 'fetch' ? ' crossorigin' : ''}>`;
    })
    .join('');
}

/** A render-blocking `<link rel="stylesheet">`. */
export function stylesheetTag(href: string): string {
  return `<link rel="stylesheet" href="${attrValue(href)}">`;
}

const attrValue = (href: string) => href.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
