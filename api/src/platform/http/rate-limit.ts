/**
 * A fixed-window rate limiter per client and bucket. The client is `ctx.ip` (behind TRUST_PROXY
 * proxies, the address the outermost one saw: client-address.ts), an IPv6 client counted by its
 * /64. The counts live in a RateCounter: in
 * memory for the embedded site (one process; a restart forgets the counts, which is acceptable for
 * slowing down invite-code guessing and sign-up floods), in PostgreSQL when the user data is
 * there (DATABASE_URL), so that every process counts against the same limit.
 */
import type { Middleware } from 'koa';
import { UserDataUnavailableError } from '../store-health.ts';
import { clientKey } from './client-address.ts';
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

/** A window start, in the order windows started; stale once its key has started another one. */
interface Started {
  key: string;
  bucket: Bucket;
}

/** Keys kept by default: far above the clients of one window, small enough for memory (~20 MB). */
export const MEMORY_RATE_COUNTER_MAX_KEYS = 100_000;

/**
 * The counts of one process, in memory. Every hit costs O(1) amortised whatever the number of
 * clients: window starts are queued in the order they happen, and a hit that starts a window
 * first drops the expired windows at the head of that queue (each window is queued and dropped
 * once). Beyond `maxKeys` clients the oldest windows are dropped even if not over, so memory
 * stays bounded under a flood of new addresses.
 */
export class MemoryRateCounter implements RateCounter {
  private readonly buckets = new Map<string, Bucket>();
  /** Window starts, oldest first, from `head` on (the consumed front is cut off now and then). */
  private queue: Started[] = [];
  private head = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys: number = MEMORY_RATE_COUNTER_MAX_KEYS,
  ) {}

  hit(key: string, windowMs: number): Promise<RateCount> {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      this.prune(now);
      bucket = { count: 0, resetAt: now + windowMs };
      this.buckets.set(key, bucket);
      this.queue.push({ key, bucket });
    }
    bucket.count++;
    return Promise.resolve({ count: bucket.count, msLeft: bucket.resetAt - now });
  }

  /** Clients with a window kept. */
  get size(): number {
    return this.buckets.size;
  }

  /** Window starts still queued (live ones, and renewed or evicted ones not yet reached). */
  get queued(): number {
    return this.queue.length - this.head;
  }

  /**
   * Drops windows from the head of the queue while they are over, or while there is no room for
   * one more key. Stops at the first live window: later ones started later. (With one window
   * length, as in RateLimiter, that is exact; a shorter window queued behind a longer one waits
   * for it, bounded by maxKeys.)
   */
  private prune(now: number): void {
    while (this.head < this.queue.length) {
      const { key, bucket } = this.queue[this.head]!;
      const current = this.buckets.get(key) === bucket;
      if (current && bucket.resetAt > now && this.buckets.size < this.maxKeys) break;
      if (current) this.buckets.delete(key);
      this.head++;
    }
    // Cut off the consumed front once it is half the array: amortised O(1) per window.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
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
      await this.check(ctx, bucketName, extra);
      await next();
    };
  }

  /**
   * Counts one hit of the request's client in `bucketName`; over the limit, throws the 429
   * `rate_limited` with Retry-After (for a route that counts only some of its requests).
   */
  async check(
    ctx: { ip: string },
    bucketName: string,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    let wait: number;
    try {
      wait = await this.hit(`${bucketName}|${clientKey(ctx.ip)}`);
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
  }
}
