/**
 * The backfill's shared state in PostgreSQL (migration 006), used with DATABASE_URL so that the
 * processes of a fleet together behave as one backfill towards DeFiLlama:
 *
 * - `backfill_tries`: the 24-hour memory of the pools fetched or tried (the newest try of each
 *   pool), so a pool tried by one process is `recent` for every other;
 * - `backfill_budget`: the requests-per-minute budget, one row per upstream holding the send times
 *   of the last 60 s; a request is counted under that row's lock only while fewer than the budget
 *   were sent, so all processes together stay within it. A process that gets no budget waits until
 *   the oldest send leaves the window and asks again.
 *
 * Times are the backfill's clock (BackfillClock, the machine's time in production).
 */
import type { PgConnection } from '../../platform/pg/connection.ts';
import { TRY_MEMORY_MS, type BackfillTries, type BackfillTry } from './backfill-tries.ts';

/** The shared requests-per-minute budget of the backfill (pool-backfill.ts). */
export interface BackfillBudget {
  /**
   * Counts one request sent at `now` when fewer than `max` were counted in the 60 s before it:
   * resolves to 0 then, else to the milliseconds after which one more may fit.
   */
  take(now: number, max: number): Promise<number>;
  /** Takes back a request counted at `now` that was not sent after all. */
  giveBack(now: number): Promise<void>;
}

const WINDOW_MS = 60_000;
/** Rows of tries older than the memory are deleted every this many tries recorded. */
const PRUNE_EVERY = 500;

export class PgBackfillTries implements BackfillTries {
  private marks = 0;

  constructor(
    private readonly db: PgConnection,
    private readonly now: () => number = Date.now,
  ) {}

  async recentlyTried(pool: string): Promise<boolean> {
    const r = await this.db.query(
      'SELECT 1 FROM backfill_tries WHERE pool = $1 AND tried_at > $2',
      [pool.toLowerCase(), new Date(this.now() - TRY_MEMORY_MS)],
    );
    return (r.rowCount ?? 0) > 0;
  }

  /** One statement: two processes claiming a pool at once, one gets it (the other waits on the row). */
  async claim(pool: string, at: Date): Promise<boolean> {
    const r = await this.db.query(
      `INSERT INTO backfill_tries AS t (pool, tried_at, ok) VALUES ($1, $2, false)
       ON CONFLICT (pool) DO UPDATE SET tried_at = EXCLUDED.tried_at, ok = false
       WHERE t.tried_at <= $3
       RETURNING 1`,
      [pool.toLowerCase(), at, new Date(at.getTime() - TRY_MEMORY_MS)],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async unclaim(pool: string, at: Date): Promise<void> {
    await this.db.query('DELETE FROM backfill_tries WHERE pool = $1 AND tried_at = $2', [
      pool.toLowerCase(),
      at,
    ]);
  }

  /** Adds tries in one statement (db:import-files); the newest try of a pool wins. */
  async addAll(entries: readonly BackfillTry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.query(
      `INSERT INTO backfill_tries AS t (pool, tried_at, ok)
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::boolean[])
       ON CONFLICT (pool) DO UPDATE SET tried_at = EXCLUDED.tried_at, ok = EXCLUDED.ok
       WHERE t.tried_at <= EXCLUDED.tried_at`,
      [
        entries.map((e) => e.pool.toLowerCase()),
        entries.map((e) => e.triedAt),
        entries.map((e) => e.ok),
      ],
    );
  }

  /** Every try recorded (db:export-files). */
  async entries(): Promise<BackfillTry[]> {
    const r = await this.db.query<{ pool: string; tried_at: Date; ok: boolean }>(
      'SELECT pool, tried_at, ok FROM backfill_tries ORDER BY tried_at, pool',
    );
    return r.rows.map((row) => ({ pool: row.pool, triedAt: row.tried_at, ok: row.ok }));
  }

  /** The newest try of a pool wins, whichever process recorded it. */
  async markTried(pool: string, at: Date, ok: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO backfill_tries AS t (pool, tried_at, ok) VALUES ($1, $2, $3)
       ON CONFLICT (pool) DO UPDATE SET tried_at = EXCLUDED.tried_at, ok = EXCLUDED.ok
       WHERE t.tried_at <= EXCLUDED.tried_at`,
      [pool.toLowerCase(), at, ok],
    );
    if (++this.marks % PRUNE_EVERY === 0) {
      await this.db
        .query('DELETE FROM backfill_tries WHERE tried_at <= $1', [
          new Date(this.now() - TRY_MEMORY_MS),
        ])
        .catch(() => undefined);
    }
  }
}

export class PgBackfillBudget implements BackfillBudget {
  /** `upstream`: the API whose requests are counted (its base URL). */
  constructor(
    private readonly db: PgConnection,
    private readonly upstream: string,
  ) {}

  take(now: number, max: number): Promise<number> {
    return this.db.transaction(async (c) => {
      await c.query(
        'INSERT INTO backfill_budget (upstream) VALUES ($1) ON CONFLICT (upstream) DO NOTHING',
        [this.upstream],
      );
      const r = await c.query<{ sent: number[] }>(
        'SELECT sent FROM backfill_budget WHERE upstream = $1 FOR UPDATE',
        [this.upstream],
      );
      const sent = r.rows[0]!.sent.filter((at) => at > now - WINDOW_MS).sort((a, b) => a - b);
      if (sent.length >= max) return Math.max(1, sent[sent.length - max]! + WINDOW_MS - now + 1);
      await c.query('UPDATE backfill_budget SET sent = $2 WHERE upstream = $1', [
        this.upstream,
        [...sent, now],
      ]);
      return 0;
    });
  }

  async giveBack(now: number): Promise<void> {
    await this.db.transaction(async (c) => {
      const r = await c.query<{ sent: number[] }>(
        'SELECT sent FROM backfill_budget WHERE upstream = $1 FOR UPDATE',
        [this.upstream],
      );
      const sent = [...(r.rows[0]?.sent ?? [])];
      const at = sent.lastIndexOf(now);
      if (at < 0) return;
      sent.splice(at, 1);
      await c.query('UPDATE backfill_budget SET sent = $2 WHERE upstream = $1', [
        this.upstream,
        sent,
      ]);
    });
  }
}
