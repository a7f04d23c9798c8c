import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { answerClientError, methodRefusal } from '@yield/api';
import { REMOTES_MANIFEST_FILE, remoteNames, remoteRegistry } from '@yield/federation/registry';
import type { MatchedPage } from '@yield/federation/routes';
import { FirstPaintRenderer } from './first-paint.ts';
import { PageCache } from './page-cache.ts';
import { PageTable } from './page-table.ts';
import {
  HIDDEN_FOLDERS,
  ReleaseView,
  buildsView,
  newVisitor,
  visitorCookie,
  visitorOf,
  type RemotesView,
} from './release-view.ts';
import type { ReleasesSource } from './releases/types.ts';
import { RemotesManifestFile } from './remotes-manifest.ts';
import { ResourceHints } from './resource-hints.ts';
import { AFTER_PAINT_HASH, SitePages } from './site-pages.ts';
import { StaticDirectory, normalisedPath } from './static-files.ts';

export { isValidRemoteUrl } from './remotes-manifest.ts';

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
  /**
   * The remotes' releases (releases/types.ts), started. With them every remote served from this
   * server is served from its releases (`/remotes/<app folder>/<id>/…`), each visitor getting the
   * live release or a canary; without them, from each remote's build folder.
   */
  releases?: ReleasesSource;
}

/** Bytes of pages (HTML and both compressions) the page cache keeps. */
const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;
/** Pages rendered (and compressed) at once; past it a page is sent without its first paint. */
const DEFAULT_MAX_CONCURRENT_RENDERS = 4;
/** Milliseconds per second the server may spend rendering first paints. */
const DEFAULT_RENDER_BUDGET_MS = 200;
const SERVER_ONLY = /^\/server(\/|$)/;
/** Timeouts of the server's connections (see docs/deploy.md). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** `/remotes/<app folder>/<path in its dist>`: a file of a remote's build. */
const REMOTE_PATH = /^\/remotes\/([^/]+)(\/.*)$/;

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

/** The builds this server sends files from, and the remotes manifest. */
interface SiteFiles {
  rootDir: string;
  shell: StaticDirectory;
  /** Each remote's build, by its app folder (remotes served without releases). */
  remotes: Map<string, StaticDirectory>;
  /** The remotes' releases, when they are served from releases. */
  releases: ReleaseView | null;
  manifest: RemotesManifestFile;
  /** The manifest's folder, from which `/remotes.json` is sent. */
  manifestDir: StaticDirectory;
}

function siteFiles(options: SiteServerOptions): SiteFiles {
  const build = (dir: string) =>
    new StaticDirectory(path.join(options.rootDir, dir, 'dist'), { hidden: HIDDEN_FOLDERS });
  const shell = build('shell');
  const remotes = new Map<string, StaticDirectory>(
    remoteNames.map((name) => [remoteRegistry[name].dir, build(remoteRegistry[name].dir)]),
  );
  const manifestPath = options.remotesManifestPath ?? path.join(shell.root, REMOTES_MANIFEST_FILE);
  const manifest = new RemotesManifestFile(manifestPath);
  return {
    rootDir: options.rootDir,
    shell,
    remotes,
    releases: options.releases ? new ReleaseView(options.releases) : null,
    manifest,
    manifestDir: new StaticDirectory(path.dirname(manifestPath)),
  };
}

/**
 * The file `/remotes/<folder><file>` names: of the remote's build, or of its releases when it is
 * served from releases. Null when there is none.
 */
function remoteFile(
  files: SiteFiles,
  folder: string,
  file: string,
): { directory: StaticDirectory; file: string } | null {
  if (files.releases) return files.releases.fileOf(folder, file);
  const directory = files.remotes.get(folder);
  const resolved = directory?.resolve(file);
  return directory && resolved ? { directory, file: resolved } : null;
}

/**
 * A stylesheet of this server's builds as the text of a `<style>` element, or null (a remote
 * served elsewhere, a missing file, or text that could close the element).
 */
function stylesheetText(files: SiteFiles, href: string): string | null {
  const remoteMatch = REMOTE_PATH.exec(href);
  const file = remoteMatch
    ? remoteFile(files, remoteMatch[1]!, remoteMatch[2]!)?.file
    : files.shell.resolve(href);
  if (!file?.endsWith('.css')) return null;
  try {
    const text = fs.readFileSync(file, 'utf8');
    return /<\/style/i.test(text) ? null : text;
  } catch {
    return null;
  }
}

/**
 * The first-paint renderer when the server has the settings to paint with, else null. Only a
 * remote served from this server (its build or release) has a renderer it can run.
 */
function firstPaintRenderer(options: SiteServerOptions) {
  if (!options.settings) return null;
  return new FirstPaintRenderer({
    rootDir: options.rootDir,
    settings: options.settings,
    data: options.data,
  });
}

/** The site's title in the settings now, or null. */
function siteTitleOf(settings: SiteServerOptions['settings']): string | null {
  try {
    const body = settings?.()?.body;
    const title = body
      ? (JSON.parse(body.toString('utf8')) as { siteTitle?: unknown }).siteTitle
      : null;
    return typeof title === 'string' ? title : null;
  } catch {
    return null;
  }
}

/**
 * The site's pages: which remote serves which path is read at run time from each remote's
 * pages.json; the shell's index.html with the page's resource hints is rebuilt when a build or
 * the remotes manifest changes.
 */
function sitePages(options: SiteServerOptions, files: SiteFiles): SitePages {
  const manifest = () => files.manifest.current().manifest;
  const watchedBuildFiles = [
    path.join(files.shell.root, 'index.html'),
    path.join(files.shell.root, 'mf-manifest.json'),
    files.manifest.path,
    // Served from releases, a remote's build changes nothing until it is released (a release's
    // files never change; its id is part of the page's key).
    ...(files.releases
      ? []
      : remoteNames.map((name) =>
          path.join(options.rootDir, remoteRegistry[name].dir, 'dist', 'mf-manifest.json'),
        )),
  ];
  const cache = new PageCache({
    maxBytes: options.pageCacheBytes ?? DEFAULT_PAGE_CACHE_BYTES,
    maxRenders: options.maxConcurrentRenders ?? DEFAULT_MAX_CONCURRENT_RENDERS,
    renderBudgetMs: options.renderBudgetMs ?? DEFAULT_RENDER_BUDGET_MS,
  });
  return new SitePages({
    shellRoot: files.shell.root,
    pageTable: new PageTable({
      rootDir: options.rootDir,
      manifest,
      refreshMs: options.pagesRefreshMs,
    }),
    hints: new ResourceHints(options.rootDir),
    resourceHints: options.resourceHints !== false,
    firstPaint: firstPaintRenderer(options),
    cache,
    watchedBuildFiles,
    siteTitle: () => siteTitleOf(options.settings),
    stylesheetText: (href) => stylesheetText(files, href),
  });
}

/**
 * A path inside a folder of the shell's build (`/static/js/…`) names a file: when there is none,
 * a short 404, not a page.
 */
function inAssetFolder(shell: StaticDirectory, pathname: string): boolean {
  const folder = /^\/([^/]+)\//.exec(pathname)?.[1];
  if (!folder) return false;
  try {
    return fs.statSync(path.join(shell.root, folder)).isDirectory();
  } catch {
    return false;
  }
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.end('Not found');
}

/**
 * Sends a file of a remote's build (`/remotes/<app folder>/<path>`) or release
 * (`/remotes/<app folder>/<id>/<path>`), or a 404.
 */
function sendRemoteFile(
  req: IncomingMessage,
  res: ServerResponse,
  files: SiteFiles,
  [, folder, file]: RegExpExecArray,
): void {
  const found = remoteFile(files, folder!, file!);
  if (!found) return notFound(res);
  // Remotes are fetched by the shell, possibly from other origins in a split deployment.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  found.directory.send(req, res, found.file);
}

/**
 * The remotes as this visitor gets them. While a canary runs, a visitor without the assignment
 * cookie is given one with this answer (and this answer is already theirs).
 */
function visitorView(req: IncomingMessage, res: ServerResponse, files: SiteFiles): RemotesView {
  const operator = files.manifest.current().manifest;
  if (!files.releases) return buildsView(files.rootDir, operator);
  let visitor = visitorOf(req.headers.cookie);
  if (!visitor && files.releases.canaryRunning()) {
    visitor = newVisitor();
    res.appendHeader('Set-Cookie', visitorCookie(visitor));
  }
  return files.releases.view(operator, visitor);
}

/** `/remotes.json` as this visitor gets it (served from releases): revalidated on every use. */
function sendVisitorManifest(req: IncomingMessage, res: ServerResponse, view: RemotesView): void {
  const body = Buffer.from(JSON.stringify(view.manifest));
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Cookie');
  res.setHeader('ETag', etag);
  if (req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Counts a page served with each release whose module it renders. */
function countLoads(files: SiteFiles, route: MatchedPage, view: RemotesView): void {
  const remotes = new Set(route.modules.map(({ remote }) => remote));
  for (const remote of remotes) {
    const id = view.release(remote);
    if (id) files.releases?.countLoad(remote, id);
  }
}

/** Sends the page of a path as this visitor gets it. */
function sendPage(req: IncomingMessage, res: ServerResponse, url: URL, site: Site): void {
  const view = visitorView(req, res, site.files);
  site.pages
    .send(req, res, { pathname: url.pathname, search: url.search, view })
    .then((route) => countLoads(site.files, route, view))
    .catch((error: unknown) => {
      console.error('page error', error);
      res.statusCode = 500;
      res.end();
    });
}

interface Site {
  files: SiteFiles;
  pages: SitePages;
}

/** Answers a GET or HEAD of the site: the remotes manifest, a file of a build, or a page. */
function serveSite(req: IncomingMessage, res: ServerResponse, url: URL, site: Site): void {
  const { files } = site;
  // Files are looked up by the decoded, normalised path (`/%73erver/x`, `/a//b`, `/a/../b`,
  // `\`), so that no spelling reaches a file the plain one would not.
  const relative = normalisedPath(url.pathname);
  if (relative === null) return notFound(res);
  const clean = `/${relative}`;
  if (clean === `/${REMOTES_MANIFEST_FILE}`) {
    if (files.releases) {
      // The operator's manifest file is what lists the remotes: without it, none.
      if (files.manifest.current().mtimeMs === 0) return notFound(res);
      return sendVisitorManifest(req, res, visitorView(req, res, files));
    }
    const file = files.manifestDir.resolve(path.basename(files.manifest.path));
    return file ? files.manifestDir.send(req, res, file) : notFound(res);
  }
  const remoteMatch = REMOTE_PATH.exec(clean);
  // Server renderers live in the builds but are never sent.
  if (SERVER_ONLY.test(remoteMatch ? remoteMatch[2]! : clean)) return notFound(res);
  if (remoteMatch) return sendRemoteFile(req, res, files, remoteMatch);
  const { shell } = files;
  const file = clean === '/' ? null : shell.resolve(clean);
  if (file && path.basename(file) !== 'index.html') return shell.send(req, res, file);
  // Every other path is a page, dotted or not (`/options/lido.x`): the route table decides
  // whether it exists. Only a missing file of an asset folder gets a short 404.
  if (inAssetFolder(shell, clean) || !shell.resolve('/index.html')) return notFound(res);
  sendPage(req, res, url, site);
}

function serverOptions(options: SiteServerOptions): http.ServerOptions {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(
    options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeout,
  );
  return {
    // A request whose headers, or whose whole body, take longer is answered 408 and its
    // connection closed (node's defaults hold a trickled request for up to 300 s).
    headersTimeout,
    requestTimeout,
    // How often those timeouts are checked (node's default is every 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

export function createSiteServer(options: SiteServerOptions): http.Server {
  const files = siteFiles(options);
  const site = { files, pages: sitePages(options, files) };
  const server = http.createServer(serverOptions(options), (req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.local');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      options.apiHandler(req, res);
      return;
    }
    if (url.pathname === '/metrics' && options.metricsHandler) {
      options.metricsHandler(req, res);
      return;
    }
    for (const [name, value] of Object.entries(securityHeaders(files.manifest.current().origins))) {
      res.setHeader(name, value);
    }
    if (refuseMethod(req, res, url.pathname)) return;
    try {
      serveSite(req, res, url, site);
    } catch (error) {
      console.error('static file error', error);
      res.statusCode = 500;
      res.end();
    }
  });
  server.on('clientError', answerClientError);
  return server;
}
