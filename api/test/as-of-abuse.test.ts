/**
 * `?asOf` is not a CPU amplifier (api/src/modules/yields/as-of-service.ts): a past day is computed
 * in a worker thread, never on the event loop (counted by computeAsOf on each thread), one day at
 * a time, once per data version however many ask; a client asking for more days not yet computed
 * than AS_OF_RATE_LIMIT_MAX gets 429 with Retry-After, while days already computed stay free;
 * every day is precomputed behind the first request, within a bound of bytes; and the answers are
 * the bytes and ETags the event loop computed before.
 *
 * On the shipped sample data; today is the day after its newest day. Clients are told apart by
 * X-Forwarded-For behind one trusted proxy.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { computations, computeAsOf, firstDataDay } from '../src/modules/yields/as-of.ts';
import type { HistoryFile } from '../src/modules/yields/schemas.ts';
import { DEFAULT_DATA_DIR, type CreateDepsOptions } from '../src/composition/deps.ts';
import { decisionDays } from '../src/engine/index.ts';
import { freshDatabase } from './pg-cluster.ts';
import request from 'supertest';
import { createApp } from '../src/app.ts';
import { AsOfService } from '../src/modules/yields/as-of-service.ts';
import { memoryLogger } from '../src/platform/logger.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';

const history = JSON.parse(
  await readFile(path.join(DEFAULT_DATA_DIR, 'history.json'), 'utf8'),
) as HistoryFile;
const FIRST = firstDataDay(history)!;
const LAST = Object.values(history.series)
  .flatMap((rows) => rows.map((r) => r.date))
  .reduce((a, b) => (a > b ? a : b));
const TODAY = new Date(Date.parse(`${LAST}T12:00:00Z`) + 86_400_000);
const VALID_DAYS: string[] = [];
for (let t = Date.parse(`${FIRST}T00:00:00Z`); t < TODAY.getTime(); t += 86_400_000)
  VALID_DAYS.push(new Date(t).toISOString().slice(0, 10));
/** The n-th valid day from the start of the data. */
const day = (n: number) => VALID_DAYS[n]!;

/** A worker entry that cannot start. */
const BROKEN = new URL('data:text/javascript,throw new Error("cannot start")');

const contexts: TestContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.cleanup()));
});

async function start(
  asOf: CreateDepsOptions['asOf'],
  options: CreateDepsOptions & { dir?: string } = {},
) {
  const t = await setup({ trustProxy: 1, now: () => TODAY, asOf, ...options });
  contexts.push(t);
  return t;
}

/** GET `url` as the client at `address` (the balancer's X-Forwarded-For entry). */
const get = (t: TestContext, url: string, address: string) =>
  t.http.get(url).set('X-Forwarded-For', address);

describe('a past day not computed yet', () => {
  it('is computed in the worker thread, never on the event loop', async () => {
    const t = await start({ precompute: false });
    const onMain = computations.onThisThread;
    expect((await get(t, `/api/strategies?asOf=${day(40)}`, '192.0.2.1')).status).toBe(200);
    expect((await get(t, `/api/baserate?asOf=${day(41)}`, '192.0.2.1')).status).toBe(200);
    expect((await get(t, `/api/strategies/3/breakdown?asOf=${day(42)}`, '192.0.2.1')).status).toBe(
      200,
    );
    expect((await get(t, '/api/track-record', '192.0.2.1')).status).toBe(200);
    // The event loop ran the engine for no past day; one other thread ran it for each day once.
    expect(computations.onThisThread).toBe(onMain);
    const stats = t.deps.asOf.stats();
    // The track record read the first day of each month (none of them asked for before).
    expect(stats.workerComputations).toBe(3 + decisionDays(FIRST, LAST).length);
    expect(stats.threads).toHaveLength(1);
    expect(stats.threads[0]).not.toBe(0); // 0 is the main thread's id
    // At the lowest scheduling priority, where the platform has one for a thread (Linux).
    expect(stats.lowPriority).toBe(process.platform === 'linux');
  });

  it('waits for the one worker: days asked for at once by many clients are computed one at a time', async () => {
    const t = await start({ precompute: false });
    const days = [50, 60, 70, 80, 90, 100, 110, 120].map(day);
    const answers = await Promise.all(
      days.map((d, i) => get(t, `/api/strategies?asOf=${d}`, `198.51.100.${i + 1}`)),
    );
    expect(answers.map((r) => r.status)).toEqual(days.map(() => 200));
    const stats = t.deps.asOf.stats();
    expect(stats.workerComputations).toBe(days.length);
    expect(stats.maxComputing).toBe(1);
    expect(stats.threads).toHaveLength(1);
  });

  it('is computed once however many ask for it, at once or later, on any of its endpoints', async () => {
    const t = await start({ precompute: false });
    const d = day(200);
    const urls = [
      `/api/strategies?asOf=${d}`,
      `/api/baserate?asOf=${d}`,
      `/api/strategies/7/breakdown?asOf=${d}`,
    ];
    const at = await Promise.all(
      Array.from({ length: 12 }, (_, i) => get(t, urls[i % 3]!, `203.0.113.${i + 1}`)),
    );
    expect(at.map((r) => r.status)).toEqual(Array(12).fill(200));
    for (const url of urls) expect((await get(t, url, '203.0.113.99')).status).toBe(200);
    expect(t.deps.asOf.stats().workerComputations).toBe(1);
    // Same bytes and ETag for every copy of one answer.
    expect(new Set(at.filter((_, i) => i % 3 === 0).map((r) => r.headers.etag)).size).toBe(1);
  });

  it('is computed again once when the data changes (a new data version), not before', async () => {
    const t = await start({ precompute: false });
    const url = `/api/strategies/3/breakdown?asOf=${day(300)}`;
    const before = await get(t, url, '192.0.2.7');
    await get(t, url, '192.0.2.7');
    expect(t.deps.asOf.stats().workerComputations).toBe(1);
    // A snapshot rebuilt from the same files (as when a series turns stale) is the same version.
    const today = TODAY.toISOString().slice(0, 10);
    await t.deps.asOf.answers({ ...t.deps.snapshot().input }, day(300), today);
    expect(t.deps.asOf.stats().workerComputations).toBe(1);
    // Liquity's safety score changes on the first day of data: every past day's answer changes.
    const file = path.join(t.dir, 'sources.json');
    const sources = JSON.parse(await readFile(file, 'utf8')) as {
      sources: { id: number; scores: { safety: number }[] }[];
    };
    for (const s of sources.sources.find((x) => x.id === 3)!.scores) s.safety = 1;
    await writeFile(file, JSON.stringify(sources));
    expect(await t.deps.store.refresh()).toEqual(['sources']);
    const after = await Promise.all([1, 2, 3].map(() => get(t, url, '192.0.2.7')));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(after[0]!.body.inputs.safety).toBe(1);
    expect(before.body.inputs.safety).not.toBe(1);
    expect(t.deps.asOf.stats().workerComputations).toBe(2);
  });
});

describe('the limit of days not yet computed (AS_OF_RATE_LIMIT_MAX)', () => {
  it('answers 429 with Retry-After past it; a day already computed stays free', async () => {
    const t = await start({ precompute: false, rateLimitMax: 3 });
    const client = '192.0.2.10';
    for (const n of [10, 11, 12])
      expect((await get(t, `/api/strategies?asOf=${day(n)}`, client)).status).toBe(200);
    const over = await get(t, `/api/baserate?asOf=${day(13)}`, client);
    expect(over.status).toBe(429);
    expect(over.headers['content-type']).toContain('application/json');
    expect(over.body).toEqual({
      error: { code: 'rate_limited', message: expect.stringMatching(/try again in \d+ s/) },
    });
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The refused day was not computed.
    expect(t.deps.asOf.stats().workerComputations).toBe(3);

    // Kept days, on every endpoint (a day's three answers are computed together): never counted.
    for (let i = 0; i < 10; i++) {
      for (const url of [
        `/api/strategies?asOf=${day(10 + (i % 3))}`,
        `/api/baserate?asOf=${day(11)}`,
        `/api/strategies/2/breakdown?asOf=${day(12)}`,
      ])
        expect((await get(t, url, client)).status).toBe(200);
    }
    // Without asOf: never counted either.
    expect((await get(t, '/api/strategies', client)).status).toBe(200);
    // Another client has its own count; the first is still over.
    expect((await get(t, `/api/baserate?asOf=${day(13)}`, '192.0.2.11')).status).toBe(200);
    expect((await get(t, `/api/strategies?asOf=${day(14)}`, client)).status).toBe(429);
    expect(t.deps.asOf.stats().workerComputations).toBe(4);
  });

  it('is counted in PostgreSQL with DATABASE_URL: two servers share one count', async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const asOf = { precompute: false, rateLimitMax: 3 };
    const a = await start(asOf, { databaseUrl });
    const b = await start(asOf, { databaseUrl, dir: await tempDataDir() });
    const client = '192.0.2.20';
    expect((await get(a, `/api/strategies?asOf=${day(20)}`, client)).status).toBe(200);
    expect((await get(b, `/api/strategies?asOf=${day(21)}`, client)).status).toBe(200);
    expect((await get(a, `/api/strategies?asOf=${day(22)}`, client)).status).toBe(200);
    const over = await get(b, `/api/strategies?asOf=${day(23)}`, client);
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    // b keeps day 21: still free there.
    expect((await get(b, `/api/strategies?asOf=${day(21)}`, client)).status).toBe(200);
  });
});

describe('precompute', () => {
  it('computes every valid day once behind the first request, even a refused one; then no day is a miss', async () => {
    // No miss allowed at all: only kept days are ever answered to this client.
    const t = await start({ rateLimitMax: 0, precompute: true });
    const client = '192.0.2.30';
    expect((await get(t, `/api/strategies?asOf=${day(5)}`, client)).status).toBe(429);
    await t.deps.asOf.idle();
    const stats = t.deps.asOf.stats();
    expect(stats.cachedDays).toBe(VALID_DAYS.length);
    expect(stats.workerComputations).toBe(VALID_DAYS.length);
    expect(stats.maxComputing).toBe(1);
    for (const n of [0, 1, 5, 100, 250, VALID_DAYS.length - 1]) {
      expect((await get(t, `/api/baserate?asOf=${day(n)}`, client)).status).toBe(200);
      expect((await get(t, `/api/strategies/3/breakdown?asOf=${day(n)}`, client)).status).toBe(200);
    }
    expect(t.deps.asOf.stats().workerComputations).toBe(VALID_DAYS.length);
  }, 120_000);

  it('stays within its bound of bytes: it stops before evicting, a day left out is computed when asked', async () => {
    const probe = await start({ precompute: false });
    await get(probe, `/api/strategies?asOf=${LAST}`, '192.0.2.40');
    // Room for about ten days of the newest size (older days are a little smaller).
    const maxBytes = probe.deps.asOf.stats().cachedBytes * 10;
    const t = await start({ maxBytes, precompute: true });
    expect((await get(t, `/api/strategies?asOf=${LAST}`, '192.0.2.41')).status).toBe(200);
    await t.deps.asOf.idle();
    const stats = t.deps.asOf.stats();
    expect(stats.cachedBytes).toBeLessThanOrEqual(maxBytes);
    expect(stats.cachedDays).toBeGreaterThanOrEqual(9);
    expect(stats.cachedDays).toBeLessThan(20);
    // Newest first: the oldest days were left out, and are computed when asked for.
    expect((await get(t, `/api/strategies?asOf=${day(0)}`, '192.0.2.41')).status).toBe(200);
    expect(t.deps.asOf.stats().workerComputations).toBe(stats.workerComputations + 1);
  }, 60_000);
});

describe('a worker that fails', () => {
  it('fails the day waiting for it with a JSON 500, stops the precompute, starts again for the next day asked for', async () => {
    const t = await start({ precompute: false });
    const logger = memoryLogger();
    const broken = new AsOfService({
      logger,
      workerUrl: BROKEN,
    });
    const today = TODAY.toISOString().slice(0, 10);
    const input = t.deps.snapshot().input;
    await expect(broken.answers(input, day(3), today)).rejects.toThrow(/cannot start/);
    await broken.idle();
    // Not one worker per day of the precompute: the first failure stopped it.
    expect(broken.stats().workerStarts).toBe(1);
    await expect(broken.answers(input, day(4), today)).rejects.toThrow(/cannot start/);
    expect(broken.stats().workerStarts).toBe(2);
    expect(logger.lines.filter((l) => l.message === 'worker of past days stopped')).toHaveLength(2);
    await broken.close();

    // Through the API: the error body, no stack.
    const asOf = new AsOfService({ logger, workerUrl: BROKEN });
    const app = createApp({ ...t.deps, asOf });
    const res = await request(app.callback()).get(`/api/strategies?asOf=${day(5)}`);
    await asOf.close();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(res.text).not.toMatch(/cannot start|at .*\.ts/);
  });
});

describe('the answers', () => {
  it('are the bytes and ETags the event loop computed (every 9th day, the first and today)', async () => {
    const t = await start({ precompute: false });
    const input = t.deps.snapshot().input;
    const days = [...VALID_DAYS.filter((_, i) => i % 9 === 0), VALID_DAYS.at(-1)!];
    for (const d of days) {
      const expected = computeAsOf(input, d)!.bodies;
      const pairs = [
        [`/api/strategies?asOf=${d}`, expected.strategies],
        [`/api/baserate?asOf=${d}`, expected.baserate],
        [`/api/strategies/3/breakdown?asOf=${d}`, expected.breakdown.get('3')!],
        [`/api/strategies/base-defi/breakdown?asOf=${d}`, expected.breakdown.get('base-defi')!],
      ] as const;
      for (const [url, body] of pairs) {
        const res = await get(t, url, '192.0.2.50');
        expect(res.status).toBe(200);
        expect(res.headers.etag).toBe(body.etag);
        expect(Buffer.from(res.text).equals(body.body)).toBe(true);
      }
    }
  }, 60_000);
});
