/**
 * A small in-memory fixed-window rate limiter per client IP and bucket. One process serves the
 * site, so memory is the right store; a restart forgets the counts, which is acceptable for
 * slowing down invite-code guessing and sign-up floods.
 */
import type { Middleware } from 'koa';
import { AppError } from './errors.ts';

export interface RateLimitOptions {
  /** Requests allowed per client per window and endpoint. */
  max: number;
  windowMs: number;
}

interface Bucket {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit; returns the seconds to wait when over the limit, else 0. */
  hit(key: string): number {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      if (this.buckets.size > 10_000) this.prune(now);
      bucket = { count: 0, resetAt: now + this.options.windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count++;
    if (bucket.count > this.options.max)
      return Math.max(1, Math.ceil((bucket.resetAt - now) / 1000));
    return 0;
  }

  private prune(now: number): void {
    for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
  }

  middleware(bucketName: string, extra: Record<string, unknown> = {}): Middleware {
    return async (ctx, next) => {
      const wait = this.hit(`${bucketName}|${ctx.ip}`);
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
