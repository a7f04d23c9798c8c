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

/**
 * Counts the steps of every Map iteration (for...of, entries, keys, values, forEach) while `fn`
 * runs: a counter that scans its keys on a hit shows up here.
 */
function mapStepsDuring(fn: () => void): number {
  let steps = 0;
  const proto = Map.prototype as unknown as Record<PropertyKey, unknown>;
  const names: PropertyKey[] = [Symbol.iterator, 'entries', 'keys', 'values'];
  const originals = new Map(names.map((n) => [n, proto[n]]));
  const originalForEach = Map.prototype.forEach;
  for (const name of names) {
    const original = originals.get(name) as (this: Map<unknown, unknown>) => Iterator<unknown>;
    proto[name] = function (this: Map<unknown, unknown>) {
      const it = original.call(this);
      const counted = {
        next: () => {
          steps++;
          return it.next();
        },
        [Symbol.iterator]: () => counted,
      };
      return counted;
    };
  }
  Map.prototype.forEach = function (this: Map<unknown, unknown>, cb, thisArg) {
    originalForEach.call(this, (...args) => {
      steps++;
      cb.apply(thisArg, args);
    });
  };
  try {
    fn();
  } finally {
    for (const name of names) proto[name] = originals.get(name);
    Map.prototype.forEach = originalForEach;
  }
  return steps;
}

describe('MemoryRateCounter cost', () => {
  /** Work of `newKeys` hits from new clients after `live` clients started a window (fake clock). */
  function workWithLiveClients(live: number, newKeys: number) {
    let now = 0;
    const counter = new MemoryRateCounter(() => now, 1_000_000);
    for (let i = 0; i < live; i++) void counter.hit(`live${i}`, 60_000);
    now += 1_000;
    const queuedBefore = counter.queued;
    const mapSteps = mapStepsDuring(() => {
      for (let i = 0; i < newKeys; i++) void counter.hit(`new${i}`, 60_000);
    });
    // Entries the hits took off the queue: the only loop of a hit.
    const dropped = queuedBefore + newKeys - counter.queued;
    return { mapSteps, dropped, size: counter.size };
  }

  it('a hit from a new client does the same work with 20,000 live clients as with 10', () => {
    const few = workWithLiveClients(10, 500);
    const many = workWithLiveClients(20_000, 500);
    expect(few).toEqual({ mapSteps: 0, dropped: 0, size: 510 });
    expect(many).toEqual({ mapSteps: 0, dropped: 0, size: 20_500 });
  });

  it('expired windows are dropped from the head, each once, and the queue never outgrows the clients', async () => {
    let now = 0;
    const counter = new MemoryRateCounter(() => now);
    for (let i = 0; i < 5_000; i++) await counter.hit(`a${i}`, 1_000);
    now = 500;
    for (let i = 0; i < 5_000; i++) await counter.hit(`b${i}`, 1_000);
    expect(counter.size).toBe(10_000);
    now = 1_200; // the a-windows are over, the b-windows not
    const steps = mapStepsDuring(() => void counter.hit('c', 1_000));
    expect(steps).toBe(0);
    expect(counter.size).toBe(5_001);
    expect(counter.queued).toBe(5_001);
    // Further new clients find nothing more to drop.
    await counter.hit('d', 1_000);
    expect(counter.queued).toBe(5_002);
  });

  it('a renewed window is queued again: its count starts over and it outlives older windows', async () => {
    let now = 0;
    const counter = new MemoryRateCounter(() => now);
    await counter.hit('A', 1_000);
    await counter.hit('A', 1_000);
    now = 500;
    await counter.hit('B', 1_000);
    now = 1_000;
    expect(await counter.hit('A', 1_000)).toEqual({ count: 1, msLeft: 1_000 }); // a new window
    now = 1_600; // B's window is over, A's renewed one is not
    await counter.hit('C', 1_000);
    expect(counter.size).toBe(2);
    expect(counter.queued).toBe(2); // A's first window went with B's
    expect(await counter.hit('A', 1_000)).toEqual({ count: 2, msLeft: 400 });
    expect(await counter.hit('B', 1_000)).toEqual({ count: 1, msLeft: 1_000 });
  });

  it('keeps at most maxKeys clients: a flood of new addresses evicts the oldest windows', async () => {
    const now = 0;
    const counter = new MemoryRateCounter(() => now, 1_000);
    for (let i = 0; i < 5_000; i++) await counter.hit(`k${i}`, 60_000);
    expect(counter.size).toBe(1_000);
    expect(counter.queued).toBeLessThanOrEqual(2_000);
    expect(await counter.hit('k4999', 60_000)).toMatchObject({ count: 2 }); // newest kept
    expect(await counter.hit('k0', 60_000)).toMatchObject({ count: 1 }); // oldest evicted
  });
});
