/**
 * Every pool's own daily history (the scanner's per-pool store), in `DATA_DIR/pool-history/`:
 * one append-only file per pool, `<first two characters of the id>/<pool id>.ndjson`, one line
 * per row, `["YYYY-MM-DD", apy, apyBase, apyReward, tvlUsd]` (null where DeFiLlama has no value).
 *
 * - A `/pools` import appends each pool's row of the snapshot's UTC day (`appendSnapshot`). Each
 *   append starts with a line break, so a write cut short by a crash leaves one unreadable line
 *   that readers skip (never a half row read as data, never a later row glued to it).
 * - Reading keeps one row per day: the last line of a day wins (the latest snapshot of the day).
 * - A backfill of DeFiLlama's `/chart/<pool>` (`mergeRows`) rewrites the pool's file whole
 *   (write-file-atomic: temp file + fsync + rename) with the days it did not have; days already
 *   stored keep their row.
 * - Writes of one pool are queued one after the other within the process (a backfill's rewrite
 *   never drops an append made meanwhile).
 *
 * docs/decisions.md ("Pool histories: one append-only file per pool") says why this layout and not
 * DuckDB or PostgreSQL; docs/performance.md has the measurements.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { writeFileDurably } from '../../platform/files/durable.ts';

export const POOL_HISTORY_DIR = 'pool-history';

/** One day of a pool, oldest first in every list this module returns. */
export interface PoolDay {
  date: string;
  apy: number;
  apyBase: number | null;
  apyReward: number | null;
  tvlUsd: number;
}

/** What a snapshot row needs of a pool (a `Pool` of pools.json fits). */
export interface SnapshotPool {
  pool: string;
  apy: number;
  apyBase?: number | null | undefined;
  apyReward?: number | null | undefined;
  tvlUsd: number;
}

const POOL_ID = /^[0-9a-fA-F-]{8,64}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Bytes read from a file's end for a trailing window (about 90 bytes a row). */
const TAIL_BYTES_PER_DAY = 160;

export function isPoolId(id: string): boolean {
  return POOL_ID.test(id);
}

/** The UTC day of an instant: `2026-11-25T23:59:00Z` → `2026-11-25`. */
export function utcDay(at: Date | string): string {
  return new Date(at).toISOString().slice(0, 10);
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function encodeRow(day: PoolDay): string {
  return JSON.stringify([day.date, day.apy, day.apyBase, day.apyReward, day.tvlUsd]);
}

function decodeLine(line: string): PoolDay | null {
  if (line.length < 14 || line[0] !== '[') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null; // a line cut short by a crash
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || !DAY.test(parsed[0])) return null;
  const apy = num(parsed[1]);
  const tvlUsd = num(parsed[4]);
  if (apy === null || tvlUsd === null) return null;
  return { date: parsed[0], apy, apyBase: num(parsed[2]), apyReward: num(parsed[3]), tvlUsd };
}

/** A history file's text for these rows (one per day, oldest first). */
export function formatHistory(rows: readonly PoolDay[]): string {
  return `${parseHistory(rows.map(encodeRow).join('\n')).map(encodeRow).join('\n')}\n`;
}

/** The rows of a file's text: one per day (the last line of a day wins), oldest first. */
export function parseHistory(text: string): PoolDay[] {
  const byDay = new Map<string, PoolDay>();
  for (const line of text.split('\n')) {
    const day = decodeLine(line);
    if (day) byDay.set(day.date, day);
  }
  return [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/**
 * What the scanner, its track record, the /pools import and the backfill use of a pool history
 * store: the files of this module (the default), or the PostgreSQL table `pool_history` with
 * DATABASE_URL (pg-pool-history.ts). Both keep one row per pool per day with the same rules.
 */
export interface PoolHistory {
  /** The pool's whole history, oldest first; [] when it has none. */
  read(pool: string): Promise<PoolDay[]>;
  /** The pool's last `days` days up to `until` (inclusive, default: its newest row). */
  trailing(pool: string, days: number, until?: string): Promise<PoolDay[]>;
  /** The trailing `days` days of many pools, keyed by pool id as given (pools without rows left out). */
  trailingOfAll(
    pools: readonly string[],
    days: number,
    until?: string,
  ): Promise<Map<string, PoolDay[]>>;
  /** How many days the pool has. */
  dayCount(pool: string): Promise<number>;
  /** Each pool's row of the UTC day of `asOf`; a later snapshot of the same day wins. */
  appendSnapshot(
    asOf: string,
    pools: readonly SnapshotPool[],
  ): Promise<{ day: string; pools: number }>;
  /** Adds the days the pool does not have yet (a backfill); days held keep their row. */
  mergeRows(pool: string, rows: readonly PoolDay[]): Promise<number>;
  /** Replaces the pool's history whole (the sample generator, db:export-files). */
  replace(pool: string, rows: readonly PoolDay[]): Promise<void>;
  /** Waits for every queued write. */
  idle(): Promise<void>;
}

/** Whether a row can be stored: a day, a finite APY and TVL. */
export function isStorableDay(day: PoolDay): boolean {
  return DAY.test(day.date) && Number.isFinite(day.apy) && Number.isFinite(day.tvlUsd);
}

/** A snapshot pool's row of `date`, or null when it has no finite APY or TVL or a bad id. */
export function snapshotRow(date: string, p: SnapshotPool): PoolDay | null {
  if (!isPoolId(p.pool) || !Number.isFinite(p.apy) || !Number.isFinite(p.tvlUsd)) return null;
  return {
    date,
    apy: p.apy,
    apyBase: num(p.apyBase),
    apyReward: num(p.apyReward),
    tvlUsd: p.tvlUsd,
  };
}

export interface PoolHistoryStoreOptions {
  /** Files read or appended at once by the whole-store operations. Default 32. */
  ioConcurrency?: number;
}

export class PoolHistoryStore implements PoolHistory {
  readonly dir: string;
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly ioConcurrency: number;

  constructor(dataDir: string, options: PoolHistoryStoreOptions = {}) {
    this.dir = path.join(dataDir, POOL_HISTORY_DIR);
    this.ioConcurrency = options.ioConcurrency ?? 32;
  }

  fileOf(pool: string): string {
    if (!isPoolId(pool)) throw new Error(`not a DeFiLlama pool id: ${JSON.stringify(pool)}`);
    const id = pool.toLowerCase();
    return path.join(this.dir, id.slice(0, 2), `${id}.ndjson`);
  }

  /** Runs writes of one pool one after the other. */
  private serial<T>(pool: string, task: () => Promise<T>): Promise<T> {
    const key = pool.toLowerCase();
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  /** The pool's whole history, oldest first; [] when it has none. */
  async read(pool: string): Promise<PoolDay[]> {
    try {
      return parseHistory(await fs.readFile(this.fileOf(pool), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /**
   * The pool's last `days` days up to `until` (inclusive, default: its newest row), read from the
   * end of its file only.
   */
  async trailing(pool: string, days: number, until?: string): Promise<PoolDay[]> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.fileOf(pool), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    try {
      const { size } = await handle.stat();
      // Appends of one day may repeat (several snapshots a day): read generously, then widen.
      let want = Math.min(size, (days + 8) * TAIL_BYTES_PER_DAY);
      for (;;) {
        const buffer = Buffer.alloc(want);
        await handle.read(buffer, 0, want, size - want);
        let text = buffer.toString('utf8');
        // Drop the first (maybe partial) line unless the read started at the file's start.
        if (want < size) text = text.slice(text.indexOf('\n') + 1);
        let rows = parseHistory(text);
        if (until !== undefined) rows = rows.filter((r) => r.date <= until);
        if (rows.length >= days || want >= size) return rows.slice(-days);
        want = Math.min(size, want * 4);
      }
    } finally {
      await handle.close();
    }
  }

  /** The trailing `days` days of many pools (bounded concurrency), keyed by pool id. */
  async trailingOfAll(
    pools: readonly string[],
    days: number,
    until?: string,
  ): Promise<Map<string, PoolDay[]>> {
    const limit = pLimit(this.ioConcurrency);
    const out = new Map<string, PoolDay[]>();
    await Promise.all(
      pools.map((pool) =>
        limit(async () => {
          if (!isPoolId(pool)) return;
          const rows = await this.trailing(pool, days, until);
          if (rows.length > 0) out.set(pool, rows);
        }),
      ),
    );
    return out;
  }

  /** How many days the pool has. */
  async dayCount(pool: string): Promise<number> {
    return (await this.read(pool)).length;
  }

  /**
   * Appends each pool's row for the UTC day of `asOf` (a later snapshot of the same day wins when
   * read). Directories are created as needed.
   */
  async appendSnapshot(
    asOf: string,
    pools: readonly SnapshotPool[],
  ): Promise<{ day: string; pools: number }> {
    const date = utcDay(asOf);
    const limit = pLimit(this.ioConcurrency);
    const made = new Set<string>();
    let written = 0;
    await Promise.all(
      pools.map((p) =>
        limit(async () => {
          const row = snapshotRow(date, p);
          if (!row) return;
          const file = this.fileOf(p.pool);
          const dir = path.dirname(file);
          if (!made.has(dir)) {
            await fs.mkdir(dir, { recursive: true });
            made.add(dir);
          }
          const line = encodeRow(row);
          await this.serial(p.pool, () => fs.appendFile(file, `\n${line}`));
          written++;
        }),
      ),
    );
    return { day: date, pools: written };
  }

  /**
   * Adds the days the pool does not have yet (a backfill), rewriting its file whole and
   * atomically. Returns how many days were added.
   */
  async mergeRows(pool: string, rows: readonly PoolDay[]): Promise<number> {
    const file = this.fileOf(pool);
    return this.serial(pool, async () => {
      const current = await this.read(pool);
      const have = new Set(current.map((r) => r.date));
      const added = rows.filter((r) => DAY.test(r.date) && !have.has(r.date));
      if (added.length === 0) return 0;
      const merged = parseHistory(
        [...added, ...current].map(encodeRow).join('\n'), // sorts and keeps one row per day
      );
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileDurably(file, `${merged.map(encodeRow).join('\n')}\n`);
      return added.length;
    });
  }

  /** Replaces the pool's history whole (the sample generator). */
  async replace(pool: string, rows: readonly PoolDay[]): Promise<void> {
    const file = this.fileOf(pool);
    await this.serial(pool, async () => {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileDurably(file, formatHistory(rows));
    });
  }

  /** Waits for every queued write. */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()]);
  }

  /** The ids of the pools that have a file (db:import-files), in no particular order. */
  async pools(): Promise<string[]> {
    let shards: string[];
    try {
      shards = await fs.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: string[] = [];
    for (const shard of shards) {
      if (shard.length !== 2) continue;
      for (const name of await fs.readdir(path.join(this.dir, shard)).catch(() => [])) {
        const id = name.endsWith('.ndjson') ? name.slice(0, -'.ndjson'.length) : '';
        if (isPoolId(id)) out.push(id);
      }
    }
    return out;
  }
}

/**
 * DeFiLlama's `/chart/<pool>` answer (`{status, data: [{timestamp, tvlUsd, apy, apyBase,
 * apyReward, il7d, apyBase7d}]}`) as daily rows: the last point of each UTC day; points without
 * an APY or a TVL, or with an unreadable timestamp, are left out. Throws when the answer is not
 * `{status: "success", data: [...]}`.
 */
export function chartToDays(raw: unknown): PoolDay[] {
  const body = raw as { status?: unknown; data?: unknown } | null;
  if (!body || typeof body !== 'object' || body.status !== 'success' || !Array.isArray(body.data)) {
    throw new Error('the /chart answer is not {status: "success", data: [...]}');
  }
  const byDay = new Map<string, { at: number; day: PoolDay }>();
  for (const point of body.data as Record<string, unknown>[]) {
    if (!point || typeof point !== 'object') continue;
    const at = Date.parse(String(point.timestamp));
    const apy = num(point.apy);
    const tvlUsd = num(point.tvlUsd);
    if (!Number.isFinite(at) || apy === null || tvlUsd === null) continue;
    const date = utcDay(new Date(at));
    const prev = byDay.get(date);
    if (prev && prev.at > at) continue;
    byDay.set(date, {
      at,
      day: { date, apy, apyBase: num(point.apyBase), apyReward: num(point.apyReward), tvlUsd },
    });
  }
  return [...byDay.values()]
    .map((v) => v.day)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
