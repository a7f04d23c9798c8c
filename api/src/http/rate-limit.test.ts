import { describe, expect, it } from 'vitest';
import { MemoryRateCounter, RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('allows max hits per window per key, then asks to wait until the window ends', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ max: 2, windowMs: 10_000 }, new MemoryRateCounter(() => now));
    expect(await limiter.hit('premium|1.2.3.4')).toBe(0);
    expect(await limiter.hit('premium|1.2.3.4')).toBe(0);
    now += 2_500;
    expect(await limiter.hit('premium|1.2.3.4')).toBe(8); // 7.5 s left, rounded up
    expect(await limiter.hit('premium|5.6.7.8')).toBe(0); // another client is not affected
    now += 7_500;
    expect(await limiter.hit('premium|1.2.3.4')).toBe(0); // a new window
  });

  it('forgets expired buckets when many clients have been seen', async () => {
    let now = 0;
    const counter = new MemoryRateCounter(() => now);
    const limiter = new RateLimiter({ max: 1, windowMs: 1_000 }, counter);
    for (let i = 0; i < 10_050; i++) await limiter.hit(`k${i}`);
    now += 2_000;
    expect(await limiter.hit('fresh')).toBe(0);
    expect(counter.size).toBeLessThan(100);
  });
});
