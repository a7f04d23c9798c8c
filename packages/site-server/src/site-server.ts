import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import {
  REMOTES_MANIFEST_FILE,
  remoteNames,
  remoteRegistry,
  type RemotesManifest,
} from '@yield/federation/registry';
import zlib from 'node:zlib';
import { matchPageRoute, pageDataUrls } from '@yield/federation/routes';
import { ResourceHints } from './resource-hints.ts';
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
}

const PAGE_PATH = /^\/[^.]*$/; // no dot: a page path, answered with the shell (SPA fallback)
const MAX_CACHED_PAGES = 256;

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

export function securityHeaders(remoteOrigins: string[]): Record<string, string> {
  const extra = remoteOrigins.length ? ' ' + remoteOrigins.join(' ') : '';
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src 'self'${extra}`,
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
  const pages = new Map<
    string,
    { signature: string; html: Buffer; br: Buffer; gz: Buffer; etag: string }
  >();
  const sendPage = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const signature = watchedBuildFiles
      .map((file) => {
        try {
          return fs.statSync(file).mtimeMs;
        } catch {
          return 0;
        }
      })
      .join(':');
    const route = matchPageRoute(pathname);
    const key = `${route.path}|${pageDataUrls(route).join(',')}`;
    let page = pages.get(key);
    if (page?.signature !== signature) {
      const template = fs.readFileSync(path.join(shell.root, 'index.html'), 'utf8');
      const tags = options.resourceHints === false ? '' : hints.linkTags(pathname);
      const html = Buffer.from(template.replace('</head>', `${tags}</head>`));
      page = {
        signature,
        html,
        br: zlib.brotliCompressSync(html),
        gz: zlib.gzipSync(html),
        etag: `"${route.path.length.toString(16)}-${Buffer.from(signature).toString('base64url').slice(-16)}"`,
      };
      // Paths with parameters vary the page; a bounded cache keeps odd URLs from growing it.
      if (pages.size >= MAX_CACHED_PAGES) pages.clear();
      pages.set(key, page);
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', page.etag);
    if (req.headers['if-none-match'] === page.etag) {
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
      const remoteMatch = /^\/remotes\/([^/]+)(\/.*)$/.exec(url.pathname);
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
      if (PAGE_PATH.test(url.pathname)) {
        return shell.resolve('/index.html') ? sendPage(req, res, url.pathname) : notFound(res);
      }
      return notFound(res);
    } catch (error) {
      console.error('static file error', error);
      res.statusCode = 500;
      res.end();
    }
  });
}
