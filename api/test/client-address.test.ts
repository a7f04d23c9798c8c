/**
 * Who the rate limits count: TRUST_PROXY as a number of proxies (the client is the address the
 * outermost one saw, never what the client wrote into X-Forwarded-For), IPv6 clients by their
 * /64.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createDeps } from '../src/composition/deps.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';

const MAX = 3;
let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  delete process.env.TRUST_PROXY;
});

async function limited(trustProxy?: number): Promise<TestContext> {
  t = await setup({ rateLimit: { max: MAX, windowMs: 60_000 }, trustProxy });
  return t;
}

/** One sign-up attempt claiming to come through `forwardedFor` (no header when null). */
function signUp(ctx: TestContext, forwardedFor: string | null, n: number) {
  const req = ctx.http.post('/api/addToMailList').set('Content-Type', 'application/json');
  if (forwardedFor !== null) req.set('X-Forwarded-For', forwardedFor);
  return req.send(JSON.stringify({ email: `client${n}@example.com` }));
}

async function statuses(ctx: TestContext, forwardedFor: (i: number) => string | null, n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await signUp(ctx, forwardedFor(i), i)).status);
  return out;
}

describe('TRUST_PROXY=1 (one load balancer)', () => {
  it('addresses the client writes left of the balancer’s entry do not escape the limit', async () => {
    const ctx = await limited(1);
    const got = await statuses(ctx, (i) => `198.51.100.${i}, 127.0.0.1`, 8);
    expect(got.slice(0, MAX).every((s) => s !== 429)).toBe(true);
    expect(got.slice(MAX)).toEqual([429, 429, 429, 429, 429]);
  });

  it('the rightmost entry, the one the balancer appended, is the client', async () => {
    const ctx = await limited(1);
    await statuses(ctx, () => '10.0.0.1, 203.0.113.1', MAX);
    // Same leftmost entry, another client: counted apart.
    expect((await signUp(ctx, '10.0.0.1, 203.0.113.2', 100)).status).not.toBe(429);
    // The first client, whatever it writes, is over its limit.
    expect((await signUp(ctx, '203.0.113.1', 101)).status).toBe(429);
    expect((await signUp(ctx, '192.0.2.50, 203.0.113.1', 102)).status).toBe(429);
    // Without the header the socket's peer is the client (a request that bypassed the balancer).
    expect((await signUp(ctx, null, 103)).status).not.toBe(429);
  });

  it('IPv6 clients share a bucket per /64 (compressed or not), other /64s are apart', async () => {
    const ctx = await limited(1);
    const same64 = ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:0db8:0001:0002:0:0:0:abcd'];
    for (const [i, address] of same64.entries())
      expect((await signUp(ctx, `192.0.2.1, ${address}`, i)).status).not.toBe(429);
    const res = await signUp(ctx, '2001:db8:1:2:1:2:3:4', 10);
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'rate_limited', message: expect.any(String) });
    expect((await signUp(ctx, '2001:db8:1:3::1', 11)).status).not.toBe(429);
    expect((await signUp(ctx, '2001:db8:2:2::1', 12)).status).not.toBe(429);
  });

  it('an IPv4-mapped IPv6 address counts as the IPv4 address', async () => {
    const ctx = await limited(1);
    await statuses(ctx, () => '::ffff:198.51.100.20', MAX);
    expect((await signUp(ctx, '198.51.100.20', 10)).status).toBe(429);
    expect((await signUp(ctx, '::FFFF:c633:6414', 11)).status).toBe(429); // the same, in hex
    expect((await signUp(ctx, '198.51.100.21', 12)).status).not.toBe(429);
  });
});

describe('TRUST_PROXY=2 (a CDN in front of the load balancer)', () => {
  it('the client is the second entry from the right, the address the CDN saw', async () => {
    const ctx = await limited(2);
    // Varying what the client wrote and the CDN edge the request came through.
    const got = await statuses(ctx, (i) => `10.9.${i}.1, 198.51.100.9, 192.0.2.${i}`, 6);
    expect(got.slice(0, MAX).every((s) => s !== 429)).toBe(true);
    expect(got.slice(MAX)).toEqual([429, 429, 429]);
    expect((await signUp(ctx, '198.51.100.10, 192.0.2.1', 10)).status).not.toBe(429);
  });
});

describe('TRUST_PROXY unset (no proxy)', () => {
  it('X-Forwarded-For is ignored: the socket’s peer is the client', async () => {
    const ctx = await limited();
    expect(ctx.deps.trustProxy).toBe(0);
    const got = await statuses(ctx, (i) => `198.51.100.${i}`, 5);
    expect(got.slice(MAX)).toEqual([429, 429]);
  });

  it('a malformed TRUST_PROXY stops the start with a clear error', async () => {
    const dir = await tempDataDir();
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    for (const value of ['true', 'yes', '-1', '1.5', '99']) {
      process.env.TRUST_PROXY = value;
      await expect(
        createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 }),
      ).rejects.toThrow(
        `TRUST_PROXY must be the number of reverse proxies in front of the server (0 = none, 1 = one load balancer, 2 = a CDN in front of a load balancer, at most 20), got "${value}"`,
      );
    }
    process.env.TRUST_PROXY = ' 2 ';
    const deps = await createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 });
    expect(deps.trustProxy).toBe(2);
    await deps.close();
  });
});
