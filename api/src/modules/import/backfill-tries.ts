/**
 * The backfill's memory of the pools it fetched or tried in the last 24 hours (whatever the
 * result: success, HTTP error, timeout, unreadable body), so that neither queue fetches a pool
 * again within that time, also across a restart. Kept in the pool history store's directory,
 * `DATA_DIR/pool-history/backfill-tries.ndjson`, one JSON line per try, `{pool, triedAt, ok}`:
 *
 * - a try is appended (each line starts with a line break, like the history files, so a write cut
 *   short by a crash leaves one unreadable line that is skipped) and fdatasync'ed;
 * - the file is read once, on first use; the newest try of a pool wins;
 * - when the file holds more than twice as many lines as live tries (and at least
 *   COMPACT_MIN_LINES), it is rewritten whole and atomically with the tries of the last 24 hours
 *   only, so it stays bounded by what 24 hours of backfills can fetch.
 *
 * Behind the small `BackfillTries` interface (a PostgreSQL table can stand in for the file).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from '../../platform/files/durable.ts';

/** How long a fetched or tried pool is not fetched again. */
export const TRY_MEMORY_MS = 24 * 60 * 60 * 1000;
export const TRIES_FILE = 'backfill-tries.ndjson';
/** A file shorter than this is never compacted. */
export const COMPACT_MIN_LINES = 256;

export interface BackfillTries {
  /** Whether the pool was fetched or tried in the last 24 hours. */
  recentlyTried(pool: string): Promise<boolean>;
  /** Records a fetch or try of the pool at `at` (`ok`: its history was stored). */
  markTried(pool: string, at: Date, ok: boolean): Promise<void>;
  /**
   * A memory shared by several processes: records a try of the pool starting at `at` unless one
   * was recorded in the 24 hours before, in one step; false: another process has it.
   */
  claim?(pool: string, at: Date): Promise<boolean>;
  /** Forgets the try `claim` recorded at `at` (its fetch was cut short by the server stopping). */
  unclaim?(pool: string, at: Date): Promise<void>;
}

/** One pool's newest try. */
export interface BackfillTry {
  pool: string;
  triedAt: Date;
  ok: boolean;
}

interface Try {
  triedAt: number;
  ok: boolean;
}

function parseLine(line: string): { pool: string; at: number; ok: boolean } | null {
  if (!line.startsWith('{')) return null;
  try {
    const v = JSON.parse(line) as { pool?: unknown; triedAt?: unknown; ok?: unknown };
    const at = typeof v.triedAt === 'string' ? Date.parse(v.triedAt) : NaN;
    if (typeof v.pool !== 'string' || !Number.isFinite(at) || typeof v.ok !== 'boolean')
      return null;
    return { pool: v.pool.toLowerCase(), at, ok: v.ok };
  } catch {
    return null; // a line cut short by a crash
  }
}

const lineOf = (pool: string, t: Try) =>
  JSON.stringify({ pool, triedAt: new Date(t.triedAt).toISOString(), ok: t.ok });

/** The tries in a file of the pool history store's directory. */
export class FileBackfillTries implements BackfillTries {
  readonly file: string;
  private tries = new Map<string, Try>();
  private lines = 0;
  private loaded: Promise<void> | null = null;
  /** Writes one after the other (an append never lands in a file being replaced). */
  private writes: Promise<unknown> = Promise.resolve();

  /** `dir`: the pool history store's directory (PoolHistoryStore.dir). */
  constructor(
    dir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(dir, TRIES_FILE);
  }

  async recentlyTried(pool: string): Promise<boolean> {
    await this.load();
    const t = this.tries.get(pool.toLowerCase());
    return t !== undefined && t.triedAt > this.now() - TRY_MEMORY_MS;
  }

  async markTried(pool: string, at: Date, ok: boolean): Promise<void> {
    await this.load();
    const key = pool.toLowerCase();
    const entry = { triedAt: at.getTime(), ok };
    const previous = this.tries.get(key);
    if (!previous || previous.triedAt <= entry.triedAt) this.tries.set(key, entry);
    await this.serial(async () => {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      const handle = await fs.open(this.file, 'a');
      try {
        await handle.appendFile(`\n${lineOf(key, entry)}`);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      this.lines++;
      if (this.lines > Math.max(COMPACT_MIN_LINES, 2 * this.live())) await this.compact();
    });
  }

  /** The newest try of each pool the file holds (db:import-files). */
  async entries(): Promise<BackfillTry[]> {
    await this.load();
    return [...this.tries].map(([pool, t]) => ({ pool, triedAt: new Date(t.triedAt), ok: t.ok }));
  }

  /** Replaces the file whole with these tries (db:export-files). */
  async replaceAll(entries: readonly BackfillTry[]): Promise<void> {
    await this.load();
    await this.serial(async () => {
      this.tries = new Map(
        entries.map((e) => [e.pool.toLowerCase(), { triedAt: e.triedAt.getTime(), ok: e.ok }]),
      );
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await writeFileDurably(
        this.file,
        [...this.tries].map(([pool, t]) => `\n${lineOf(pool, t)}`).join(''),
      );
      this.lines = this.tries.size;
    });
  }

  /** Lines in the file as far as this process knows (for the tests of its bound). */
  get lineCount(): number {
    return this.lines;
  }

  /** Waits for the writes under way. */
  async idle(): Promise<void> {
    await this.writes;
  }

  private live(): number {
    const since = this.now() - TRY_MEMORY_MS;
    let n = 0;
    for (const t of this.tries.values()) if (t.triedAt > since) n++;
    return n;
  }

  /** Rewrites the file with the tries of the last 24 hours (the older ones are forgotten). */
  private async compact(): Promise<void> {
    const since = this.now() - TRY_MEMORY_MS;
    for (const [pool, t] of this.tries) if (t.triedAt <= since) this.tries.delete(pool);
    const text = [...this.tries].map(([pool, t]) => `\n${lineOf(pool, t)}`).join('');
    await writeFileDurably(this.file, text);
    this.lines = this.tries.size;
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const next = this.writes.then(task);
    this.writes = next.catch(() => undefined);
    return next;
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      let text = '';
      try {
        text = await fs.readFile(this.file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      for (const line of text.split('\n')) {
        const t = parseLine(line);
        if (!t) continue;
        this.lines++;
        const previous = this.tries.get(t.pool);
        if (!previous || previous.triedAt <= t.at)
          this.tries.set(t.pool, { triedAt: t.at, ok: t.ok });
      }
    })();
    // A failed read is tried again at the next use.
    this.loaded.catch(() => {
      this.loaded = null;
    });
    return this.loaded;
  }
}
