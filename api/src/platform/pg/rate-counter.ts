/** Rate-limit counters in PostgreSQL (the table `rate_limits`), shared by every process. */
import type { RateCount, RateCounter } from '../http/rate-limit.ts';
import type { PgConnection } from './connection.ts';

export class PgRateCounter implements RateCounter {
  private hits = 0;

  constructor(private readonly db: PgConnection) {}

  /** One upsert per hit: a window past its end starts again at 1. */
  async hit(key: string, windowMs: number): Promise<RateCount> {
    const r = await this.db.query<{ count: number; ms_left: number }>(
      `INSERT INTO rate_limits AS r (key, count, reset_at)
       VALUES ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.reset_at <= clock_timestamp() THEN 1 ELSE r.count + 1 END,
         reset_at = CASE WHEN r.reset_at <= clock_timestamp() THEN EXCLUDED.reset_at ELSE r.reset_at END
       RETURNING count, (extract(epoch FROM r.reset_at - clock_timestamp()) * 1000)::float8 AS ms_left`,
      [key, windowMs],
    );
    // Counters of windows long over are removed now and then (by whichever process).
    if (++this.hits % 1000 === 0) {
      this.db.pool
        .query(`DELETE FROM rate_limits WHERE reset_at < clock_timestamp() - interval '1 minute'`)
        .catch(() => undefined);
    }
    const row = r.rows[0]!;
    return { count: row.count, msLeft: row.ms_left };
  }
}
