import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import { answerClientError, methodRefusal } from '@yield/api';
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
import { pageSearch } from './page-query.ts';
import { PageTable } from './page-table.ts';
import { ResourceHints, preloadTags, stylesheetTag } from './resource-hints.ts';
import { StaticDirectory, normalisedPath } from './static-files.ts';

export interface SiteServerOptions {
  /** Workspace root holding shell/dist and each mfe-x/dist. */
  rootDir: string;
  /** Handles every /api request (the Koa app's callback). */
  apiHandler: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Answers `/metrics` (the API's metricsHandler: Prometheus text with METRICS_TOKEN as bearer
   * token, 404 without one). Without it `/metrics` is a page path like any other.
   */
  metricsHandler?: (req: IncomingMessage, res: ServerResponse) => void;
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
  /**
   * Pages rendered (first paint and compression) at once (default 4, the size of node's thread
   * pool that compresses them). A page asked for while as many are being rendered is sent
   * without its first paint, as when there is no renderer.
   */
  maxConcurrentRenders?: number;
  /**
   * Milliseconds of each second the server may spend rendering first paints (default 200). Past
   * it, pages not yet cached are sent without their first paint until the second has passed.
   */
  renderBudgetMs?: number;
  /** Bytes of pages the page cache keeps, least recently used dropped first (default 64 MB). */
  pageCacheBytes?: number;
  /** Time a client has to send a request's headers (default 10 s), then 408 and closed. */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, body included (default 30 s), then 408. */
  requestTimeoutMs?: number;
}

/** Bytes of pages (HTML and both compressions) the page cache keeps. */
const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;
/** Pages rendered (and compressed) at once; past it a page is sent without its first paint. */
const DEFAULT_MAX_CONCURRENT_RENDERS = 4;
/** Milliseconds per second the server may spend rendering first paints. */
const DEFAULT_RENDER_BUDGET_MS = 200;
/** Brotli 5 and gzip 6 compress a page in a few milliseconds (brotli 11 took hundreds). */
const PAGE_BROTLI_QUALITY = 5;
const PAGE_GZIP_LEVEL = 6;
/** Folders of the builds that are never sent: the server renderers. */
const HIDDEN_FOLDERS = ['server'];
const SERVER_ONLY = /^\/server(\/|$)/;
/** Timeouts of the server's connections (see docs/deploy.md). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

interface CachedPage {
  signature: string;
  html: Buffer;
  br: Buffer;
  gz: Buffer;
  etag: string;
}
/** `/remotes/<app folder>/<path in its dist>`: a file of a remote's build. */
const REMOTE_PATH = /^\/remotes\/([^/]+)(\/.*)$/;

/** Characters that would end or split a CSP source (`;`, `,`, quotes, whitespace). */
const CSP_BREAKING = /[;,'"\s\\]/;

/**
 * Whether a remotes-manifest entry is a URL the server may build on: an absolute http(s) URL or
 * a same-origin path (`/remotes/...`), with nothing that could split the Content-Security-Policy.
 */
export function isValidRemoteUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url === '' || CSP_BREAKING.test(url)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      !CSP_BREAKING.test(parsed.origin)
    );
  } catch {
    return false;
  }
}

/** The manifest's valid entries; each invalid one is logged and left out. */
function validManifest(manifest: unknown, file: string): Partial<RemotesManifest> {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    console.error(`remotes manifest ${file}: not an object, ignored`);
    return {};
  }
  const valid: Record<string, string> = {};
  for (const [name, url] of Object.entries(manifest)) {
    if (isValidRemoteUrl(url)) valid[name] = url;
    else
      console.error(
        `remotes manifest ${file}: entry ${JSON.stringify(name)} ignored, ${JSON.stringify(url)} is not an http(s) URL or a path of this site`,
      );
  }
  return valid as Partial<RemotesManifest>;
}

function originsOf(manifest: Partial<RemotesManifest>): string[] {
  const origins = new Set<string>();
  for (const url of Object.values(manifest)) {
    // Paths are same-origin: 'self' covers them.
    if (typeof url === 'string' && !url.startsWith('/')) origins.add(new URL(url).origin);
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

/** The methods the site's pages and files answer. */
const SITE_METHODS: readonly string[] = ['GET', 'HEAD'];

/**
 * Answers a method the site's pages and files do not serve, as the API does (methodRefusal): a
 * method no server of the site knows (PROPFIND, TRACE) is a 501, another (POST, DELETE) a 405
 * with `Allow: GET, HEAD`, both the JSON error. Returns whether it answered.
 */
function refuseMethod(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  const refusal = methodRefusal(req.method ?? '', SITE_METHODS, pathname);
  if (!refusal) return false;
  res.statusCode = refusal.status;
  for (const [name, value] of Object.entries(refusal.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
  return true;
}

export function createSiteServer(options: SiteServerOptions): http.Server {
  const shell = new StaticDirectory(path.join(options.rootDir, 'shell', 'dist'), {
    hidden: HIDDEN_FOLDERS,
  });
  const remotes = new Map<string, StaticDirectory>(
    remoteNames.map((name) => {
      const dir = remoteRegistry[name].dir;
      return [
        dir,
        new StaticDirectory(path.join(options.rootDir, dir, 'dist'), { hidden: HIDDEN_FOLDERS }),
      ];
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
        const manifest = validManifest(
          JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as unknown,
          manifestPath,
        );
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
  // Pages by URL (path and the query parameters the page reads), the least recently used dropped
  // first once their bytes pass the budget; an entry is rebuilt when its signature changes.
  const pages = new LRUCache<string, CachedPage>({
    maxSize: options.pageCacheBytes ?? DEFAULT_PAGE_CACHE_BYTES,
    sizeCalculation: (page) => page.html.length + page.br.length + page.gz.length + 200,
  });
  // Pages being built, so that concurrent requests for one URL wait for one build.
  const building = new Map<string, Promise<CachedPage>>();
  const maxRenders = options.maxConcurrentRenders ?? DEFAULT_MAX_CONCURRENT_RENDERS;
  let rendering = 0;
  // Renders run on the event loop: the time they took in the last second is capped, so that a
  // stream of never-seen URLs cannot take the API's time.
  const renderBudgetMs = options.renderBudgetMs ?? DEFAULT_RENDER_BUDGET_MS;
  const recentRenders: { at: number; ms: number }[] = [];
  const renderTimeLastSecond = () => {
    const since = performance.now() - 1000;
    while (recentRenders.length > 0 && recentRenders[0]!.at <= since) recentRenders.shift();
    return recentRenders.reduce((sum, render) => sum + render.ms, 0);
  };
  /** The cached page of `key`, built by `build` when missing or out of date. */
  const cachedPage = async (
    key: string,
    signature: string,
    build: () => Promise<CachedPage>,
  ): Promise<CachedPage> => {
    const cached = pages.get(key);
    if (cached?.signature === signature) return cached;
    const pending = building.get(key);
    if (pending) return pending;
    const promise = build().finally(() => building.delete(key));
    building.set(key, promise);
    const page = await promise;
    if (page.signature === signature) pages.set(key, page);
    return page;
  };
  /** Compressed once per page, off the event loop, at qualities that take milliseconds. */
  const compressed = async (signature: string, text: string): Promise<CachedPage> => {
    const html = Buffer.from(text);
    const [br, gz] = await Promise.all([
      brotli(html, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
        },
      }),
      gzip(html, { level: PAGE_GZIP_LEVEL }),
    ]);
    return {
      signature,
      html,
      br,
      gz,
      etag: `"${createHash('sha1').update(html).digest('base64url')}"`,
    };
  };
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
    // its page, which redirects as each such page of the product does (docs/decisions.md, "Real 404s").
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
    const pageHints = () => (options.resourceHints === false ? [] : hints.hintsFor(route));
    // Without a first paint a page depends only on its route and the API reads it preloads.
    const plainKey = `plain:${route.path}|${pageDataUrls(route).join(',')}`;
    const plainPage = () =>
      cachedPage(plainKey, signature, () => {
        const template = fs.readFileSync(path.join(shell.root, 'index.html'), 'utf8');
        const tags = preloadTags(pageHints());
        return compressed(
          signature,
          template.replace('</head>', `${tags}${titleTag(route.title, siteTitle())}</head>`),
        );
      });
    // A first paint depends on the exact path (links marked current, ids) and on the query
    // parameters its page reads (the sources /compare shows), nothing else: it is rendered and
    // cached for those only (page-query.ts).
    const location = pathname + pageSearch(route.modules[0]?.module, search);
    const paintedKey = `paint:${location}`;
    let page: CachedPage;
    if (!firstPaint || !paintable) {
      page = await plainPage();
    } else if (
      pages.get(paintedKey)?.signature !== signature &&
      !building.has(paintedKey) &&
      (rendering >= maxRenders || renderTimeLastSecond() >= renderBudgetMs)
    ) {
      // Busy rendering other pages: this one is sent without its first paint (the browser
      // renders it) rather than queueing behind them or taking the API's time.
      page = await plainPage();
    } else {
      page = await cachedPage(paintedKey, signature, async () => {
        rendering++;
        try {
          const template = fs.readFileSync(path.join(shell.root, 'index.html'), 'utf8');
          const allHints = pageHints();
          // With a first paint, scripts, reads and stylesheets are preloaded by the page itself
          // once it has painted.
          const scripts = allHints.filter((hint) => hint.as === 'script').map((hint) => hint.href);
          const reads = allHints.filter((hint) => hint.as === 'fetch').map((hint) => hint.href);
          const styles = allHints.filter((hint) => hint.as === 'style').map((hint) => hint.href);
          const after = paintedTemplate(template);
          // Loading a renderer (once per build) is not part of the render's time.
          firstPaint.load(route);
          const started = performance.now();
          const painted =
            (after.entry &&
              firstPaint.render(location, route, scripts, [...after.fetch, ...reads], styles)) ||
            null;
          const ended = performance.now();
          recentRenders.push({ at: ended, ms: ended - started });
          if (!painted) {
            return compressed(
              signature,
              template.replace(
                '</head>',
                `${preloadTags(allHints)}${titleTag(route.title, siteTitle())}</head>`,
              ),
            );
          }
          const inline = hints.firstPaintStylesheets(route).map((href) => {
            const css = stylesheetText(href);
            return css === null
              ? stylesheetTag(href)
              : `<style data-href="${escapeHtml(href)}">${css}</style>`;
          });
          const head = `${inline.join('')}${painted.head}`;
          return await compressed(
            signature,
            after.text
              .replace('</head>', `${head}</head>`)
              .replace('<div id="root"></div>', `<div id="root">${painted.root}</div>`),
          );
        } finally {
          rendering--;
        }
      });
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
      return fs.statSync(path.join(shell.root, folder)).isDirectory();
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

  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(
    options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeout,
  );
  const serverOptions: http.ServerOptions = {
    // A request whose headers, or whose whole body, take longer is answered 408 and its
    // connection closed (node's defaults hold a trickled request for up to 300 s).
    headersTimeout,
    requestTimeout,
    // How often those timeouts are checked (node's default is every 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
  const server = http.createServer(serverOptions, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.local');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      options.apiHandler(req, res);
      return;
    }
    if (url.pathname === '/metrics' && options.metricsHandler) {
      options.metricsHandler(req, res);
      return;
    }
    for (const [name, value] of Object.entries(securityHeaders(remoteOrigins()))) {
      res.setHeader(name, value);
    }
    if (refuseMethod(req, res, url.pathname)) return;
    try {
      // Files are looked up by the decoded, normalised path (`/%73erver/x`, `/a//b`, `/a/../b`,
      // `\`), so that no spelling reaches a file the plain one would not.
      const relative = normalisedPath(url.pathname);
      if (relative === null) return notFound(res);
      const clean = `/${relative}`;
      if (clean === `/${REMOTES_MANIFEST_FILE}`) {
        const file = manifestDir.resolve(path.basename(manifestPath));
        return file ? manifestDir.send(req, res, file) : notFound(res);
      }
      const remoteMatch = REMOTE_PATH.exec(clean);
      // Server renderers live in the builds but are never sent.
      if (SERVER_ONLY.test(remoteMatch ? remoteMatch[2]! : clean)) return notFound(res);
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
      const file = clean === '/' ? null : shell.resolve(clean);
      if (file && path.basename(file) !== 'index.html') return shell.send(req, res, file);
      // Every other path is a page, dotted or not (`/options/lido.x`): the route table decides
      // whether it exists. Only a missing file of an asset folder gets a short 404.
      if (inAssetFolder(clean) || !shell.resolve('/index.html')) return notFound(res);
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
  server.on('clientError', answerClientError);
  return server;
}
