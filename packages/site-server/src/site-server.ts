import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import {
  REMOTES_MANIFEST_FILE,
  remoteNames,
  remoteRegistry,
  type RemotesManifest,
} from '@yield/federation/registry';
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
}

const PAGE_PATH = /^\/[^.]*$/; // no dot: a page path, answered with the shell (SPA fallback)

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
  const remotes = new Map(
    remoteNames.map((name) => {
      const dir = remoteRegistry[name].dir;
      return [dir, new StaticDirectory(path.join(options.rootDir, dir, 'dist'))] as const;
    }),
  );
  const manifestPath =
    options.remotesManifestPath ?? path.join(shell.root, REMOTES_MANIFEST_FILE);
  const manifestDir = new StaticDirectory(path.dirname(manifestPath));

  let manifestCache: { mtimeMs: number; origins: string[] } | null = null;
  const remoteOrigins = (): string[] => {
    try {
      const { mtimeMs } = fs.statSync(manifestPath);
      if (manifestCache?.mtimeMs !== mtimeMs) {
        const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as RemotesManifest;
        manifestCache = { mtimeMs, origins: originsOf(manifest) };
      }
      return manifestCache.origins;
    } catch {
      return [];
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
        const index = shell.resolve('/index.html');
        return index ? shell.send(req, res, index) : notFound(res);
      }
      return notFound(res);
    } catch (error) {
      console.error('static file error', error);
      res.statusCode = 500;
      res.end();
    }
  });
}
