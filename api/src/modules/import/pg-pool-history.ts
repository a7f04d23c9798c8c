/**
 * Every pool's own daily history in PostgreSQL (the table `pool_history`, migration 006), used
 * instead of the per-pool files when DATABASE_URL is set, so that every process of a fleet reads
 * the same histories, a new one included, from its first answer. Same rules as the files
 * (pool-history.ts):
 *
 * - a `/pools` import upserts each pool's row of the snapshot's UTC day (the latest snapshot of a
 *   day wins), in batches of one `INSERT … SELECT FROM unnest(…) ON CONFLICT DO UPDATE`;
 * - a backfill (`mergeRows`) inserts the days the pool does not have (`ON CONFLICT DO NOTHING`),
 *   so days held keep their row; each statement is atomic, nothing is half-written;
 * - the trailing days of every pool of a snapshot are one query (a LATERAL over the ids, each
 *   read backwards on the primary key).
 *
 * Pool ids are kept in lower case, as the files name them; a map returned is keyed by the ids as
 * the caller spelt them.
 *
 * While the database cannot be reached, `read` answers the rows it last read of the pool (kept
 * for the pools read most recently, LAST_READ_MAX_ROWS rows in all), as the published data keeps
 * its last version: a pool's page stays served through an outage.
 */
import { LRUCache } from 'lru-cache';
import type { PoolClient } from 'pg';
import type { PgConnection } from '../../platform/pg/connection.ts';
import { UserDataUnavailableError } from '../../platform/store-health.ts';
import {
  isPoolId,
  isStorableDay,
  snapshotRow,
  utcDay,
  type PoolDay,
  type PoolHistory,
  type SnapshotPool,
} from './pool-history.ts';

/** Rows written per statement. */
const BATCH = 5000;
/** Rows of the pools read last kept for an outage (~100 bytes each: ~10 MB). */
export const LAST_READ_MAX_ROWS = 100_000;

interface Row {
  pool?: string;
  date: string;
  apy: number;
  apy_base: number | null;
  apy_reward: number | null;
  tvl_usd: number;
}

const COLUMNS = `day::text AS date, apy, apy_base, apy_reward, tvl_usd`;

const toDay = (r: Row): PoolDay => ({
  date: r.date,
  apy: r.apy,
  apyBase: r.apy_base,
  apyReward: r.apy_reward,
  tvlUsd: r.tvl_usd,
});

/** One row per day, the last given of a day kept. */
function lastOfEachDay(rows: readonly PoolDay[]): PoolDay[] {
  return [...new Map(rows.filter(isStorableDay).map((r) => [r.date, r])).values()];
}

type Keyed = { pool: string; day: PoolDay };

/** `INSERT` of keyed rows from arrays (one round trip per batch). */
function insertSql(onConflict: string): string {
  return `INSERT INTO pool_history AS h (pool, day, apy, apy_base, apy_reward, tvl_usd)
    SELECT * FROM unnest($1::text[], $2::date[], $3::float8[], $4::float8[], $5::float8[], $6::float8[])
    ON CONFLICT (pool, day) ${onConflict}`;
}

function insertValues(rows: readonly Keyed[]): unknown[] {
  return [
    rows.map((r) => r.pool),
    rows.map((r) => r.day.date),
    rows.map((r) => r.day.apy),
    rows.map((r) => r.day.apyBase),
    rows.map((r) => r.day.apyReward),
    rows.map((r) => r.day.tvlUsd),
  ];
}

const UPSERT = insertSql(`DO UPDATE SET apy = EXCLUDED.apy, apy_base = EXCLUDED.apy_base,
  apy_reward = EXCLUDED.apy_reward, tvl_usd = EXCLUDED.tvl_usd`);
const ADD_MISSING = insertSql('DO NOTHING');

function checkedId(pool: string): string {
  if (!isPoolId(pool)) throw new Error(`not a DeFiLlama pool id: ${JSON.stringify(pool)}`);
  return pool.toLowerCase();
}

export class PgPoolHistoryStore implements PoolHistory {
  private readonly lastRead = new LRUCache<string, PoolDay[]>({
    maxSize: LAST_READ_MAX_ROWS,
    sizeCalculation: (rows) => rows.length + 1,
  });

  constructor(private readonly db: PgConnection) {}

  async read(pool: string): Promise<PoolDay[]> {
    const key = checkedId(pool);
    try {
      const r = await this.db.query<Row>(
        `SELECT ${COLUMNS} FROM pool_history WHERE pool = $1 ORDER BY day`,
        [key],
      );
      const days = r.rows.map(toDay);
      this.lastRead.set(key, days);
      return days;
    } catch (err) {
      const kept = err instanceof UserDataUnavailableError ? this.lastRead.get(key) : undefined;
      if (kept) return kept;
      throw err;
    }
  }

  async trailing(pool: string, days: number, until?: string): Promise<PoolDay[]> {
    return (await this.trailingOfAll([pool], days, until)).get(pool) ?? [];
  }

  async trailingOfAll(
    pools: readonly string[],
    days: number,
    until?: string,
  ): Promise<Map<string, PoolDay[]>> {
    const spelt = new Map<string, string[]>();
    for (const pool of pools) {
      if (!isPoolId(pool)) continue;
      const key = pool.toLowerCase();
      spelt.set(key, [...(spelt.get(key) ?? []), pool]);
    }
    const out = new Map<string, PoolDay[]>();
    if (spelt.size === 0 || days <= 0) return out;
    const r = await this.db.query<Row & { pool: string }>(
      `SELECT p.id AS pool, t.* FROM unnest($1::text[]) AS p(id)
       CROSS JOIN LATERAL (
         SELECT ${COLUMNS} FROM pool_history
         WHERE pool = p.id AND ($3::date IS NULL OR day <= $3::date)
         ORDER BY day DESC LIMIT $2
       ) t`,
      [[...spelt.keys()], days, until ?? null],
    );
    const byPool = new Map<string, PoolDay[]>();
    for (const row of r.rows) {
      const list = byPool.get(row.pool) ?? [];
      list.push(toDay(row));
      byPool.set(row.pool, list);
    }
    for (const [key, list] of byPool) {
      list.reverse(); // read newest first
      for (const pool of spelt.get(key) ?? []) out.set(pool, list);
    }
    return out;
  }

  async dayCount(pool: string): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pool_history WHERE pool = $1',
      [checkedId(pool)],
    );
    return r.rows[0]!.n;
  }

  async appendSnapshot(
    asOf: string,
    pools: readonly SnapshotPool[],
  ): Promise<{ day: string; pools: number }> {
    const date = utcDay(asOf);
    // One row per pool: the last of the snapshot wins, as the last line of a file does.
    const rows = new Map<string, Keyed>();
    for (const p of pools) {
      const day = snapshotRow(date, p);
      if (day) rows.set(p.pool.toLowerCase(), { pool: p.pool.toLowerCase(), day });
    }
    const list = [...rows.values()];
    await this.db.transaction(async (c) => {
      for (let i = 0; i < list.length; i += BATCH)
        await c.query(UPSERT, insertValues(list.slice(i, i + BATCH)));
    });
    return { day: date, pools: list.length };
  }

  async mergeRows(pool: string, rows: readonly PoolDay[]): Promise<number> {
    const key = checkedId(pool);
    const list = lastOfEachDay(rows).map((day) => ({ pool: key, day }));
    if (list.length === 0) return 0;
    return this.insertMissing(list);
  }

  /**
   * Adds the days of many pools that the table does not have (db:import-files), in batches, one
   * transaction: days held keep their row, so a rerun adds nothing. Returns how many were added.
   */
  async addMissing(rows: readonly { pool: string; day: PoolDay }[]): Promise<number> {
    const list = rows
      .filter((r) => isPoolId(r.pool) && isStorableDay(r.day))
      .map((r) => ({ pool: r.pool.toLowerCase(), day: r.day }));
    return this.insertMissing(list);
  }

  /** Inserts the rows the table does not have, in batches, in one transaction: how many were added. */
  private async insertMissing(list: readonly { pool: string; day: PoolDay }[]): Promise<number> {
    let added = 0;
    await this.db.transaction(async (c) => {
      for (let i = 0; i < list.length; i += BATCH) {
        const r = await c.query(ADD_MISSING, insertValues(list.slice(i, i + BATCH)));
        added += r.rowCount ?? 0;
      }
    });
    return added;
  }

  async replace(pool: string, rows: readonly PoolDay[]): Promise<void> {
    const key = checkedId(pool);
    await this.db.transaction(async (c) => {
      await c.query('DELETE FROM pool_history WHERE pool = $1', [key]);
      await insertAll(
        c,
        lastOfEachDay(rows).map((day) => ({ pool: key, day })),
      );
    });
  }

  /** Each statement resolves after its commit: nothing is queued. */
  async idle(): Promise<void> {}

  /** The ids of the pools that have rows (db:export-files). */
  async pools(): Promise<string[]> {
    const r = await this.db.query<{ pool: string }>(
      'SELECT DISTINCT pool FROM pool_history ORDER BY pool',
    );
    return r.rows.map((row) => row.pool);
  }
}

/** Inserts rows that do not collide (a pool replaced whole), in batches. */
async function insertAll(c: PoolClient, rows: readonly Keyed[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH)
    await c.query(ADD_MISSING, insertValues(rows.slice(i, i + BATCH)));
}
