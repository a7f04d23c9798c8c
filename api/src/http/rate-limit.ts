/**
 * A fixed-window rate limiter per client IP and bucket. The counts live in a RateCounter: in
 * memory for the embedded site (one process; a restart forgets the counts, which is acceptable for
 * slowing down invite-code guessing and sign-up floods), in PostgreSQL when the user data is
 * there (DATABASE_URL), so that every process counts against the same limit.
 */
import type { Middleware } from 'koa';
import { UserDataUnavailableError } from '../data/user-data.ts';
import { AppError, storeUnavailable } from './errors.ts';

export interface RateLimitOptions {
  /** Requests allowed per client per window and endpoint. */
  max: number;
  windowMs: number;
}

export interface RateCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/** Where the hits are counted. A window starts at the first hit after the previous one ended. */
export interface RateCounter {
  hit(key: string, windowMs: number): Promise<RateCount>;
}

interface Bucket {
  count: number;
  resetAt: number;
}

/** The counts of one process, in memory. */
export class MemoryRateCounter implements RateCounter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, windowMs: number): Promise<RateCount> {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      if (this.buckets.size > 10_000) this.prune(now);
      bucket = { count: 0, resetAt: now + windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count++;
    return Promise.resolve({ count: bucket.count, msLeft: bucket.resetAt - now });
  }

  get size(): number {
    return this.buckets.size;
  }

  private prune(now: number): void {
    for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
  }
}

export class RateLimiter {
  constructor(
    private readonly options: RateLimitOptions,
    private readonly counter: RateCounter = new MemoryRateCounter(),
  ) {}

  /** Counts one hit; resolves to the seconds to wait when over the limit, else 0. */
  async hit(key: string): Promise<number> {
    const { count, msLeft } = await this.counter.hit(key, this.options.windowMs);
    if (count > this.options.max) return Math.max(1, Math.ceil(msLeft / 1000));
    return 0;
  }

  middleware(bucketName: string, extra: Record<string, unknown> = {}): Middleware {
    return async (ctx, next) => {
      let wait: number;
      try {
        wait = await this.hit(`${bucketName}|${ctx.ip}`);
      } catch (err) {
        // The counts are in the database and it cannot be reached: so is the write behind them.
        if (err instanceof UserDataUnavailableError) throw storeUnavailable(err, extra);
        throw err;
      }
      if (wait > 0) {
        throw new AppError(
          429,
          'rate_limited',
          `Too many requests, try again in ${wait} s`,
          { 'Retry-After': String(wait) },
          extra,
        );
      }
      await next();
    };
  }
}
