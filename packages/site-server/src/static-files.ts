import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * A URL path as a path relative to a served folder (`static/js/main.js`): percent-decoded,
 * backslashes read as slashes, `.`, `..` and empty segments resolved, never above the folder.
 * Null when it cannot be decoded or holds a NUL.
 */
export function normalisedPath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  return path.posix.normalize('/' + decoded.replace(/\\/g, '/')).replace(/^\/+|\/+$/g, '');
}

/** Build outputs carry an 8-hex content hash: they never change, so browsers keep them a year. */
const HASHED_ASSET = /\.[0-9a-f]{8}\.[a-z0-9]+$/;

interface CachedFile {
  mtimeMs: number;
  size: number;
  etag: string;
  body: Buffer;
  br: Buffer | null;
  gz: Buffer | null;
}

/**
 * Serves files of one directory with precompressed .br/.gz siblings (made at build time), ETags,
 * immutable caching of hashed assets and no-cache revalidation of everything else. Files are kept
 * in memory once read and re-read when their mtime changes (operators may replace remotes.json).
 *
 * Only files really inside the directory are served: the URL path is percent-decoded and
 * normalised (`//`, `/./`, `..`, backslashes) before it is looked up, a symbolic link is followed
 * only when its target lies inside the directory's own real path, and the folders named in
 * `hidden` (the builds' `server/` renderers) are never served, however the path is spelled.
 */
export class StaticDirectory {
  private readonly cache = new Map<string, CachedFile>();
  private readonly hidden: string[];
  private readonly immutable: boolean;

  /** `immutable`: every file never changes (a release's), so browsers keep each a year. */
  constructor(
    readonly root: string,
    { hidden = [], immutable = false }: { hidden?: string[]; immutable?: boolean } = {},
  ) {
    this.hidden = hidden;
    this.immutable = immutable;
  }

  /** The directory's real path (symbolic links resolved), or null when it does not exist. */
  private realRoot(): string | null {
    try {
      return fs.realpathSync(this.root);
    } catch {
      return null;
    }
  }

  /** Resolves a URL path inside the root, or null when it escapes it or is not a file. */
  resolve(urlPath: string): string | null {
    const relative = normalisedPath(urlPath);
    if (relative === null || relative === '') return null;
    if (this.hidden.some((folder) => relative === folder || relative.startsWith(`${folder}/`))) {
      return null;
    }
    const file = path.join(this.root, relative);
    const realRoot = this.realRoot();
    if (!realRoot) return null;
    try {
      const real = fs.realpathSync(file);
      if (!real.startsWith(realRoot + path.sep)) return null;
      const inside = path.relative(realRoot, real).split(path.sep).join('/');
      if (this.hidden.some((folder) => inside === folder || inside.startsWith(`${folder}/`))) {
        return null;
      }
      return fs.statSync(real).isFile() ? file : null;
    } catch {
      return null;
    }
  }

  private load(file: string): CachedFile {
    const stat = fs.statSync(file);
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    const read = (name: string) => {
      try {
        const sibling = fs.statSync(name);
        return sibling.mtimeMs >= stat.mtimeMs ? fs.readFileSync(name) : null;
      } catch {
        return null;
      }
    };
    const entry: CachedFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      body: fs.readFileSync(file),
      br: read(`${file}.br`),
      gz: read(`${file}.gz`),
    };
    this.cache.set(file, entry);
    return entry;
  }

  send(req: IncomingMessage, res: ServerResponse, file: string, status = 200): void {
    const entry = this.load(file);
    const ext = path.extname(file);
    res.setHeader('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    res.setHeader(
      'Cache-Control',
      this.immutable || HASHED_ASSET.test(path.basename(file))
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    );
    res.setHeader('ETag', entry.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    if (status === 200 && req.headers['if-none-match'] === entry.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const accepts = String(req.headers['accept-encoding'] ?? '');
    let body = entry.body;
    if (entry.br && /\bbr\b/.test(accepts)) {
      body = entry.br;
      res.setHeader('Content-Encoding', 'br');
    } else if (entry.gz && /\bgzip\b/.test(accepts)) {
      body = entry.gz;
      res.setHeader('Content-Encoding', 'gzip');
    }
    res.statusCode = status;
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
