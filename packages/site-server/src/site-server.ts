import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import {
  REMOTE_ENTRY_FILE,
  REMOTES_MANIFEST_FILE,
  isRemoteName,
  remoteNames,
  remotePublicPath,
  remoteRegistry,
  type RemotesManifest,
} from '@yield/federation/registry';
import zlib from 'node:zlib';
import { NOT_FOUND_PATH, matchPageRoute, pageDataUrls } from '@yield/federation/routes';
import {
  AFTER_PAINT_ATTR,
  AFTER_PAINT_SCRIPT,
  FIRST_PAINT_HEAD_ATTR,
} from '@yield/platform/first-paint';
import { FirstPaintRenderer } from './first-paint.ts';
import { PageTable } from './page-table.ts';
import { ResourceHints, preloadTags, stylesheetTag } from './resource-hints.ts';
import { StaticDirectory } from './static-files.ts';

export interface SiteServerOptions {
  /** Workspace root holding shell/dist and each mfe-x/dist. */
  rootDir: string;
  /** Handles every /api request (the Koa app's callback). */
  apiHandler: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Remotes manifest served as /remotes.json. Defaults to shell/dist/remotes.json; an operator
   * can point REMOTES_MANIFEST at another file to move a remote without rebuilding the shell.
   */
  remotesManifestPath?: string;
  /** Send `<link rel="preload">` hints for each page's modules with the HTML (default true). */
  resourceHints?: boolean;
  /**
   * The body `GET /api/settings` answers with now. With it, pages carry their first paint: the
   * shell's and the first module's markup rendered on the server (see first-paint.ts).
   */
  settings?: () => { body: Buffer; etag: string } | undefined;
  /**
   * The body a plain GET of the API answers with now (`/api/sources`, `/api/strategy-content/lido`).
   * With it, a page whose first module paints with its data carries those answers (first-paint.ts).
   */
  data?: (path: string) => { body: Buffer; etag: string } | undefined;
  /** How long a remote's pages.json read over HTTP is trusted before it is revalidated. */
  pagesRefreshMs?: number;
}

const MAX_CACHED_PAGES = 256;
const SERVER_ONLY = /^\/server(\/|$)/;
/** `/remotes/<app folder>/<path in its dist>`: a file of a remote's build. */
const REMOTE_PATH = /^\/remotes\/([^/]+)(\/.*)$/;

function originsOf(manifest: Partial<RemotesManifest>): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(manifest)) {
    try {
      const parsed = new URL(String(url));
      origins.add(parsed.origin);
    } catch {
      // relative URL: same origin
    }
  }
  return [...origins];
}

/** The one inline script a page may run: the start of the app after the first paint. */
const AFTER_PAINT_HASH = `'sha256-${createHash('sha256').update(AFTER_PAINT_SCRIPT).digest('base64')}'`;

/** The template's preloaded reads (`as="fetch"`) and its deferred entry script. */
const TEMPLATE_FETCH =
  /<link rel="preload" href="([^"]+)" as="fetch" crossorigin(?:="[^"]*")?\s*\/?>/g;
const TEMPLATE_ENTRY = /<script defer(?:="")? src="([^"]+)"><\/script>/;

/**
 * A painted page's HTML: nothing is fetched and no script runs ahead of its paint. The template's
 * reads and the page's hints are listed in the paint's data and the entry script is replaced by
 * the after-paint start (AFTER_PAINT_SCRIPT), which preloads them and adds the entry once the
 * paint is on screen; the stylesheets the paint needs are inlined, so the first frame waits for
 * nothing but the HTML.
 */
function paintedTemplate(template: string): {
  text: string;
  fetch: string[];
  entry: string | null;
} {
  const fetch: string[] = [];
  let text = template.replace(TEMPLATE_FETCH, (_, href: string) => {
    fetch.push(href);
    return '';
  });
  const entry = TEMPLATE_ENTRY.exec(text)?.[1] ?? null;
  if (entry) {
    text = text
      .replace(TEMPLATE_ENTRY, '')
      .replace(
        '</body>',
        `<script ${AFTER_PAINT_ATTR}="" data-src="${escapeHtml(entry)}">${AFTER_PAINT_SCRIPT}</script></body>`,
      );
  }
  return { text, fetch, entry };
}

export function securityHeaders(remoteOrigins: string[]): Record<string, string> {
  const extra = remoteOrigins.length ? ' ' + remoteOrigins.join(' ') : '';
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src 'self'${extra} ${AFTER_PAINT_HASH}`,
      // antd injects its component styles at runtime
      `style-src 'self' 'unsafe-inline'${extra}`,
      "img-src 'self' data: https:",
      "font-src 'self' data:",
      `connect-src 'self'${extra}`,
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The `<title>` of a page sent without server markup: the title its remote declares, as its own
 * PageMeta will render it (`page | site title`). Marked like a first paint's head tags, so the
 * app removes it when it renders its own.
 */
function titleTag(title: string | null, siteTitle: string | null): string {
  if (!title) return '';
  const text = siteTitle ? `${title} | ${siteTitle}` : title;
  return `<title ${FIRST_PAINT_HEAD_ATTR}="">${escapeHtml(text)}</title>`;
}

export function createSiteServer(options: SiteServerOptions): http.Server {
  const shell = new StaticDirectory(path.join(options.rootDir, 'shell', 'dist'));
  const remotes = new Map<string, StaticDirectory>(
    remoteNames.map((name) => {
      const dir = remoteRegistry[name].dir;
      return [dir, new StaticDirectory(path.join(options.rootDir, dir, 'dist'))];
    }),
  );
  const manifestPath = options.remotesManifestPath ?? path.join(shell.root, REMOTES_MANIFEST_FILE);
  const manifestDir = new StaticDirectory(path.dirname(manifestPath));

  let manifestCache: {
    mtimeMs: number;
    manifest: Partial<RemotesManifest>;
    origins: string[];
  } | null = null;
  const remotesManifest = () => {
    try {
      const { mtimeMs } = fs.statSync(manifestPath);
      if (manifestCache?.mtimeMs !== mtimeMs) {
        const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as RemotesManifest;
        manifestCache = { mtimeMs, manifest, origins: originsOf(manifest) };
      }
      return manifestCache;
    } catch {
      return { mtimeMs: 0, manifest: {}, origins: [] };
    }
  };
  const remoteOrigins = () => remotesManifest().origins;
  // Which remote serves which path: read at run time from each remote's pages.json.
  const pageTable = new PageTable({
    rootDir: options.rootDir,
    manifest: () => remotesManifest().manifest,
    refreshMs: options.pagesRefreshMs,
  });

  // The shell's index.html with the page's resource hints, per route, rebuilt when a build or the
  // remotes manifest changes.
  const hints = new ResourceHints(options.rootDir, () => remotesManifest().manifest);
  const watchedBuildFiles = [
    path.join(shell.root, 'index.html'),
    path.join(shell.root, 'mf-manifest.json'),
    manifestPath,
    ...remoteNames.map((name) =>
      path.join(options.rootDir, remoteRegistry[name].dir, 'dist', 'mf-manifest.json'),
    ),
  ];
  const firstPaint = options.settings
    ? new FirstPaintRenderer({
        rootDir: options.rootDir,
        settings: options.settings,
        data: options.data,
        // Only a remote served from its build folder here has a renderer this server can run.
        localRemoteDir: (name) => {
          if (!isRemoteName(name)) return null;
          const entry = remotesManifest().manifest[name];
          return entry === `${remotePublicPath(name)}${REMOTE_ENTRY_FILE}`
            ? path.join(options.rootDir, remoteRegistry[name].dir, 'dist')
            : null;
        },
      })
    : null;
  /**
   * A stylesheet of this server's builds as the text of a `<style>` element, or null (a remote
   * served elsewhere, a missing file, or text that could close the element).
   */
  const stylesheetText = (href: string): string | null => {
    const remoteMatch = REMOTE_PATH.exec(href);
    const file = remoteMatch
      ? remotes.get(remoteMatch[1]!)?.resolve(remoteMatch[2]!)
      : shell.resolve(href);
    if (!file?.endsWith('.css')) return null;
    try {
      const text = fs.readFileSync(file, 'utf8');
      return /<\/style/i.test(text) ? null : text;
    } catch {
      return null;
    }
  };
  const pages = new Map<
    string,
    { signature: string; html: Buffer; br: Buffer; gz: Buffer; etag: string }
  >();
  const sendPage = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    search = '',
  ) => {
    const { table, signature: pagesSignature } = await pageTable.current();
    const route = matchPageRoute(table, pathname);
    // An unknown path may be a page of a remote whose list could not be read: the browser shows
    // it as contained, so the server neither paints a not-found page for it nor calls it missing.
    const paintable = route.path !== NOT_FOUND_PATH || table.complete;
    // No page of the (complete) route table matches: the shell's not-found page, with a real 404
    // so that search engines and monitors see it. A known page with an unknown id is answered by
    // its page, which redirects as each such page of the product does (docs/architecture.md).
    const missing = route.path === NOT_FOUND_PATH && table.complete;
    const signature = watchedBuildFiles
      .map((file) => {
        try {
          return String(fs.statSync(file).mtimeMs);
        } catch {
          return '0';
        }
      })
      .concat(pagesSignature, firstPaint ? firstPaint.signature(route) : '')
      .join(':');
    // With a first paint the markup depends on the exact path (links marked current, ids) and
    // query (the sources /compare shows).
    const key = firstPaint ? pathname + search : `${route.path}|${pageDataUrls(route).join(',')}`;
    let page = pages.get(key);
    if (page?.signature !== signature) {
      const template = fs.readFileSync(path.join(shell.root, 'index.html'), 'utf8');
      const pageHints = options.resourceHints === false ? [] : hints.hintsFor(route);
      // With a first paint, scripts, reads and stylesheets are preloaded by the page itself once
      // it has painted.
      const scripts = pageHints.filter((hint) => hint.as === 'script').map((hint) => hint.href);
      const reads = pageHints.filter((hint) => hint.as === 'fetch').map((hint) => hint.href);
      const styles = pageHints.filter((hint) => hint.as === 'style').map((hint) => hint.href);
      const after = paintedTemplate(template);
      const painted =
        (paintable &&
          after.entry &&
          firstPaint?.render(
            pathname + search,
            route,
            scripts,
            [...after.fetch, ...reads],
            styles,
          )) ||
        null;
      let text: string;
      if (painted) {
        const inline = hints.firstPaintStylesheets(route).map((href) => {
          const css = stylesheetText(href);
          return css === null
            ? stylesheetTag(href)
            : `<style data-href="${escapeHtml(href)}">${css}</style>`;
        });
        const head = `${inline.join('')}${painted.head}`;
        text = after.text
          .replace('</head>', `${head}</head>`)
          .replace('<div id="root"></div>', `<div id="root">${painted.root}</div>`);
      } else {
        const tags = preloadTags(pageHints);
        text = template.replace('</head>', `${tags}${titleTag(route.title, siteTitle())}</head>`);
      }
      const html = Buffer.from(text);
      page = {
        signature,
        html,
        br: zlib.brotliCompressSync(html),
        gz: zlib.gzipSync(html),
        etag: `"${createHash('sha1').update(html).digest('base64url')}"`,
      };
      // Paths with parameters vary the page; a bounded cache keeps odd URLs from growing it.
      if (pages.size >= MAX_CACHED_PAGES) pages.clear();
      pages.set(key, page);
    }
    res.statusCode = missing ? 404 : 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    if (!missing) res.setHeader('ETag', page.etag);
    if (!missing && req.headers['if-none-match'] === page.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const accepts = String(req.headers['accept-encoding'] ?? '');
    let body = page.html;
    if (/\bbr\b/.test(accepts)) {
      body = page.br;
      res.setHeader('Content-Encoding', 'br');
    } else if (/\bgzip\b/.test(accepts)) {
      body = page.gz;
      res.setHeader('Content-Encoding', 'gzip');
    }
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const siteTitle = (): string | null => {
    try {
      const body = options.settings?.()?.body;
      const title = body
        ? (JSON.parse(body.toString('utf8')) as { siteTitle?: unknown }).siteTitle
        : null;
      return typeof title === 'string' ? title : null;
    } catch {
      return null;
    }
  };

  /**
   * A path inside a folder of the shell's build (`/static/js/…`) names a file: when there is none,
   * a short 404, not a page.
   */
  const inAssetFolder = (pathname: string) => {
    const folder = /^\/([^/]+)\//.exec(pathname)?.[1];
    if (!folder) return false;
    try {
      return fs.statSync(path.join(shell.root, decodeURIComponent(folder))).isDirectory();
    } catch {
      return false;
    }
  };

  const notFound = (res: ServerResponse) => {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end('Not found');
  };

  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.local');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      options.apiHandler(req, res);
      return;
    }
    for (const [name, value] of Object.entries(securityHeaders(remoteOrigins()))) {
      res.setHeader(name, value);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.end();
      return;
    }
    try {
      if (url.pathname === `/${REMOTES_MANIFEST_FILE}`) {
        const file = manifestDir.resolve(path.basename(manifestPath));
        return file ? manifestDir.send(req, res, file) : notFound(res);
      }
      const remoteMatch = REMOTE_PATH.exec(url.pathname);
      // Server renderers live in the builds but are never sent.
      if (SERVER_ONLY.test(remoteMatch ? remoteMatch[2]! : url.pathname)) return notFound(res);
      if (remoteMatch) {
        const dir = remotes.get(remoteMatch[1]!);
        const file = dir?.resolve(remoteMatch[2]!);
        if (dir && file) {
          // Remotes are fetched by the shell, possibly from other origins in a split deployment.
          res.setHeader('Access-Control-Allow-Origin', '*');
          res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
          return dir.send(req, res, file);
        }
        return notFound(res);
      }
      const file = url.pathname === '/' ? null : shell.resolve(url.pathname);
      if (file && path.basename(file) !== 'index.html') return shell.send(req, res, file);
      // Every other path is a page, dotted or not (`/options/lido.x`): the route table decides
      // whether it exists. Only a missing file of an asset folder gets a short 404.
      if (inAssetFolder(url.pathname) || !shell.resolve('/index.html')) return notFound(res);
      return sendPage(req, res, url.pathname, url.search).catch((error: unknown) => {
        console.error('page error', error);
        res.statusCode = 500;
        res.end();
      });
    } catch (error) {
      console.error('static file error', error);
      res.statusCode = 500;
      res.end();
    }
  });
}
