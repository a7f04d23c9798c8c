/**
 * The site server's route table, built at run time like the shell's: every remote of the remotes
 * manifest and the `pages.json` beside its `remoteEntry.js` (format:
 * packages/federation/src/pages.ts). A remote served from this server's build folders is read
 * from disk, again whenever the file changes; one on another origin over HTTP, revalidated in the
 * background once `refreshMs` has passed (the first read is awaited). A missing or invalid list
 * only leaves its remote's pages out, and is logged once per change.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import {
  buildRouteTable,
  parsePages,
  type RemotePageList,
  type RouteTable,
} from '@yield/federation/pages';
import {
  PAGES_FILE,
  pagesUrl,
  remoteByDir,
  type RemotesManifest,
} from '@yield/federation/registry';
import type { RemotesView } from './release-view.ts';

/** Where the lists of the remotes served here are read from. */
type LocalFiles = Pick<RemotesView, 'manifest' | 'localDir' | 'folderDir'>;

export interface PageTableOptions {
  rootDir: string;
  /** The remotes manifest as it is now. */
  manifest: () => Partial<RemotesManifest>;
  /** How long a list read over HTTP is used before it is revalidated (default 30 s). */
  refreshMs?: number;
  /** How long the first read of a list over HTTP may take (default 3 s). */
  timeoutMs?: number;
}

/** One remote's list, with what identifies its version (file time, ETag or a hash). */
interface Source {
  version: string;
  list: RemotePageList;
}

interface HttpSource {
  url: string;
  read: Source | null;
  etag: string | null;
  checkedAt: number;
  pending: Promise<void> | null;
}

function readList(remote: string, read: () => unknown): RemotePageList {
  try {
    return { remote, pages: parsePages(read(), remote) };
  } catch (error) {
    return { remote, error: error instanceof Error ? error.message : String(error) };
  }
}

export class PageTable {
  private readonly files = new Map<string, { mtimeMs: number; source: Source }>();
  private readonly http = new Map<string, HttpSource>();
  /** The tables built last (a live and a canary visitor's differ), by signature. */
  private readonly built = new LRUCache<string, { signature: string; table: RouteTable }>({
    max: 8,
  });

  constructor(private readonly options: PageTableOptions) {}

  /**
   * The build folder file of an entry served from this server (`/remotes/<dir>/…`), or null for
   * one on another origin.
   */
  private localFile(remote: string, entry: string, view: LocalFiles): string | null {
    const dir = view.localDir(remote);
    if (dir) return path.join(dir, PAGES_FILE);
    if (!entry.startsWith('/') || entry.startsWith('//')) return null;
    const match = /^\/remotes\/([^/]+)\/(.*)$/.exec(new URL(entry, 'http://site.local').pathname);
    const dist = match ? view.folderDir(match[1]!) : null;
    if (!match || !dist) return null;
    const file = path.resolve(dist, '.' + path.posix.normalize(`/${match[2]!}`), '..', PAGES_FILE);
    return file.startsWith(dist + path.sep) ? file : null;
  }

  private fromDisk(remote: string, file: string): Source {
    let mtimeMs = 0;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      // missing: read below reports it
    }
    const cached = this.files.get(`${remote}:${file}`);
    if (cached && cached.mtimeMs === mtimeMs && mtimeMs !== 0) return cached.source;
    const source = {
      version: `${file}@${mtimeMs}`,
      list: readList(remote, () => JSON.parse(fs.readFileSync(file, 'utf8'))),
    };
    this.files.set(`${remote}:${file}`, { mtimeMs, source });
    return source;
  }

  private async revalidate(remote: string, source: HttpSource): Promise<void> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (source.etag && source.read) headers['if-none-match'] = source.etag;
    try {
      const response = await fetch(source.url, {
        headers,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 3000),
      });
      if (response.status === 304 && source.read) return;
      if (!response.ok) throw new Error(`HTTP ${response.status} from ${source.url}`);
      const body = await response.text();
      source.etag = response.headers.get('etag');
      source.read = {
        version: `${source.url}@${createHash('sha1').update(body).digest('base64url')}`,
        list: readList(remote, () => JSON.parse(body)),
      };
    } catch (error) {
      // Keep the last good list; without one the remote's pages are missing.
      if (!source.read || 'error' in source.read.list) {
        const message = error instanceof Error ? error.message : String(error);
        source.read = { version: `${source.url}!${message}`, list: { remote, error: message } };
      }
    } finally {
      source.checkedAt = Date.now();
    }
  }

  private async overHttp(remote: string, url: string): Promise<Source> {
    let source = this.http.get(remote);
    if (source?.url !== url) {
      source = { url, read: null, etag: null, checkedAt: 0, pending: null };
      this.http.set(remote, source);
    }
    const stale = Date.now() - source.checkedAt >= (this.options.refreshMs ?? 30_000);
    if (stale && !source.pending) {
      const current = source;
      current.pending = this.revalidate(remote, current).finally(() => (current.pending = null));
    }
    if (!source.read) await source.pending;
    return source.read!;
  }

  private source(remote: string, entry: string, view: LocalFiles): Source | Promise<Source> {
    const file = this.localFile(remote, entry, view);
    if (file) return this.fromDisk(remote, file);
    let url: URL;
    try {
      url = pagesUrl(entry);
    } catch {
      return { version: `!${entry}`, list: { remote, error: `cannot be located from ${entry}` } };
    }
    return this.overHttp(remote, url.href);
  }

  /**
   * The route table now (for a visitor who gets the remotes of `view`, by default the manifest
   * with each remote served here from its build folder), and a signature that changes whenever
   * the table may have.
   */
  async current(view?: LocalFiles): Promise<{ table: RouteTable; signature: string }> {
    const local = view ?? this.buildFolders();
    const sources = await Promise.all(
      Object.entries(local.manifest).map(([remote, entry]) =>
        this.source(remote, String(entry), local),
      ),
    );
    const signature = sources.map((source) => source.version).join('|');
    let built = this.built.get(signature);
    if (!built) {
      const table = buildRouteTable(sources.map((source) => source.list));
      for (const problem of table.problems) console.error(`site server: ${problem}`);
      built = { signature, table };
      this.built.set(signature, built);
    }
    return built;
  }

  /** The manifest now, each remote's pages.json read from its build folder. */
  private buildFolders(): LocalFiles {
    const { rootDir } = this.options;
    return {
      manifest: this.options.manifest(),
      localDir: () => null,
      folderDir: (folder) => (remoteByDir(folder) ? path.join(rootDir, folder, 'dist') : null),
    };
  }
}
