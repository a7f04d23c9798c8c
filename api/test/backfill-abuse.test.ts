/**
 * Nobody takes over the pool-history backfill: pages opened by anyone wait in a capped queue of
 * their own, served only while no top pool waits, through a per-client limit (shared in
 * PostgreSQL); a pool fetched or tried in the last 24 hours is not fetched again, also after a
 * restart; backfills re-read only their pools (no full reload of every pool's trailing days); the
 * scanner's track record is computed again only when one of its inputs changed.
 *
 * DeFiLlama is the replay server; the backfill's budget and its 24-hour memory run on a clock the
 * tests move by hand (no test waits for a minute to pass).
 */
import { readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { poolHistoryAnswerSchema } from '@yield/contract';
import { FileBackfillTries, TRIES_FILE } from '../src/modules/import/backfill-tries.ts';
import { PoolBackfill } from '../src/modules/import/pool-backfill.ts';
import {
  PoolHistoryStore,
  type PoolDay,
  type PoolHistory,
} from '../src/modules/import/pool-history.ts';
import { PgPoolHistoryStore } from '../src/modules/import/pg-pool-history.ts';
import { PgBackfillTries } from '../src/modules/import/pg-backfill.ts';
import type { BackfillTries } from '../src/modules/import/backfill-tries.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { TestClock } from './backfill-clock.ts';
import { importPoolsSnapshot } from '../src/modules/import/import-pools.ts';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { freshDatabase } from './pg-cluster.ts';
import { chartBody, dailyPoints, startReplayServer, type ReplayServer } from './replay-server.ts';

const DAY_MS = 86_400_000;
const MINUTE = 60_001;

type RawPool = { pool: string; tvlUsd: number } & Record<string, unknown>;
type RawPools = { status: string; data: RawPool[] };

const SNAPSHOT_AT = new Date('2026-11-25T08:00:00Z');
const chartOf = (days: number) => ({
  kind: 'json' as const,
  body: chartBody(dailyPoints({ lastDay: '2026-11-24', days, apy: 5 })),
});
const rows = (n: number, lastDay = '2026-11-24'): PoolDay[] =>
  Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.parse(`${lastDay}T00:00:00Z`) - (n - 1 - i) * DAY_MS)
      .toISOString()
      .slice(0, 10),
    apy: 4,
    apyBase: 4,
    apyReward: null,
    tvlUsd: 1e8,
  }));

const byTvl = (pools: readonly RawPool[]) =>
  [...pools].sort((a, b) => b.tvlUsd - a.tvlUsd || (a.pool < b.pool ? -1 : 1));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function replayServer(): Promise<ReplayServer> {
  const replay = await startReplayServer();
  cleanups.push(() => replay.close());
  return replay;
}

/** A data directory with a real (not sample) /pools snapshot of `count` pools, one day each. */
async function realSnapshotDir(
  count: number,
  seed: number,
): Promise<{ dir: string; raw: RawPools }> {
  const dir = await tempDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const raw = generatePoolsResponse({ count, seed }) as unknown as RawPools;
  await importPoolsSnapshot(raw, { dataDir: dir, fetchedAt: SNAPSHOT_AT });
  return { dir, raw };
}

async function app(
  dir: string,
  replay: ReplayServer,
  poolBackfill: NonNullable<Parameters<typeof setup>[0]>['poolBackfill'],
  extra: Parameters<typeof setup>[0] = {},
): Promise<TestContext> {
  const t = await setup({
    dir,
    defillamaApiUrl: replay.url,
    trustProxy: 1,
    poolBackfill,
    ...extra,
  });
  cleanups.push(() => stop(t));
  await t.deps.scanner.settled();
  return t;
}

const stopped = new WeakSet<TestContext>();
/** Stops an app (once), leaving its data directory. */
async function stop(t: TestContext): Promise<void> {
  if (stopped.has(t)) return;
  stopped.add(t);
  await t.deps.close();
}

/** Opens a pool's page as `client`; the answer's `backfill`, after checking it against the contract. */
async function open(t: TestContext, pool: string, client = '198.51.100.1'): Promise<string> {
  const res = await t.http.get(`/api/scanner/pools/${pool}/history`).set('X-Forwarded-For', client);
  expect(res.status).toBe(200);
  expect(poolHistoryAnswerSchema.safeParse(res.body).success).toBe(true);
  return res.body.backfill as string;
}

/** Moves the clock a minute at a time until the stand-in received `count` /chart requests. */
async function drainTo(clock: TestClock, replay: ReplayServer, count: number): Promise<void> {
  while (replay.requests.length < count) {
    await vi.waitFor(() => expect(clock.sleeping).toBeGreaterThan(0));
    const before = replay.requests.length;
    clock.advance(MINUTE);
    await vi.waitFor(() => expect(replay.requests.length).toBeGreaterThan(before));
  }
}

describe('pages opened by anyone: a capped queue behind the top pools', () => {
  it('1,000 young pools opened fill the page-view queue to its cap; the top pools of a new snapshot are fetched before any of them', async () => {
    const replay = await replayServer();
    const { dir, raw } = await realSnapshotDir(1_100, 31);
    const pools = (JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as RawPools)
      .data;
    const sorted = byTvl(pools);
    // The snapshot's top 5 already have 40 days: nothing is queued at start.
    const store = new PoolHistoryStore(dir);
    for (const p of sorted.slice(0, 5)) await store.mergeRows(p.pool, rows(40));
    const young = sorted.slice(5, 1_005).map((p) => p.pool);
    for (const pool of young) replay.set(pool, chartOf(10));

    const clock = new TestClock();
    const t = await app(dir, replay, {
      top: 5,
      requestsPerMinute: 1,
      concurrency: 1,
      queueMax: 50,
      clientMax: 1_000,
      clock,
    });
    expect(replay.requests).toEqual([]);

    // 1,000 opened pages, one after the other, each from its own address (no client limit in
    // the way).
    const answers: string[] = [];
    for (const [i, pool] of young.entries())
      answers.push(await open(t, pool, `10.1.${i >> 8}.${i & 255}`));
    const backfill = t.deps.poolHistory!.backfill;
    // The first went out at once (the budget had room); 50 wait; the other 949 were not queued.
    expect(answers).toEqual([...Array(51).fill('queued'), ...Array(949).fill('deferred')]);
    await vi.waitFor(() => expect(clock.sleeping).toBe(1));
    expect(replay.requests).toEqual([`/chart/${young[0]}`]);
    expect(backfill.waiting('page')).toBe(50);
    // Over the cap, an open page still answers its history (deferred), never an error.
    expect(await open(t, young[900]!, '10.9.9.9')).toBe('deferred');

    // A new snapshot with 5 new pools at the top, which have no history.
    const newTop = Array.from({ length: 5 }, (_, i) => ({
      ...raw.data[0]!,
      pool: `ffffffff-0000-4000-8000-00000000000${i}`,
      tvlUsd: 9e11 - i * 1e9,
    }));
    for (const p of newTop) replay.set(p.pool, chartOf(40));
    await importPoolsSnapshot(
      { ...raw, data: [...raw.data, ...newTop] },
      { store: t.deps.store, dataDir: dir, fetchedAt: new Date('2026-11-25T20:00:00Z') },
    );
    await t.deps.scanner.settled();
    expect(backfill.waiting('top')).toBe(5);

    // Each minute lets one request out: the five top pools first, in TVL order, then the page views.
    await drainTo(clock, replay, 7);
    expect(replay.requests.slice(1)).toEqual([
      ...newTop.map((p) => `/chart/${p.pool}`),
      `/chart/${young[1]}`,
    ]);
    expect(backfill.waiting('page')).toBe(49);
  });

  it('a client over its limit queues nothing more; another client still does', async () => {
    const replay = await replayServer();
    const { dir } = await realSnapshotDir(40, 32);
    const pools = byTvl(
      (JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as RawPools).data,
    ).map((p) => p.pool);
    for (const pool of pools) replay.set(pool, chartOf(10));
    const clock = new TestClock();
    const t = await app(dir, replay, {
      top: 0,
      requestsPerMinute: 1,
      concurrency: 1,
      clientMax: 3,
      clock,
    });
    const backfill = t.deps.poolHistory!.backfill;

    const mine: string[] = [];
    for (const pool of pools.slice(0, 10)) mine.push(await open(t, pool, '203.0.113.7'));
    expect(mine).toEqual([...Array(3).fill('queued'), ...Array(7).fill('deferred')]);
    // A pool already queued answers queued, and costs the client nothing.
    expect(await open(t, pools[1]!, '203.0.113.7')).toBe('queued');
    expect(await open(t, pools[5]!, '203.0.113.7')).toBe('deferred');
    expect(await open(t, pools[20]!, '192.0.2.44')).toBe('queued');

    await drainTo(clock, replay, 4);
    await backfill.idle();
    expect([...replay.requests].sort()).toEqual(
      [pools[0], pools[1], pools[2], pools[20]].map((p) => `/chart/${p}`).sort(),
    );
  });

  it('a pool waiting as a page view that turns out to be a top pool moves to the top queue', async () => {
    const replay = await replayServer();
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const [a, b, c] = ['a', 'b', 'c'].map((x) => `${x.repeat(8)}-1111-4111-8111-111111111111`);
    for (const pool of [a!, b!, c!]) replay.set(pool, chartOf(10));
    const clock = new TestClock();
    const backfill = new PoolBackfill(new PoolHistoryStore(dir), {
      apiUrl: replay.url,
      requestsPerMinute: 1,
      concurrency: 1,
      clock,
    });
    cleanups.push(async () => {
      backfill.stop();
      await backfill.idle();
    });
    for (const pool of [a!, b!, c!]) expect(await backfill.enqueue(pool, 'page')).toBe('queued');
    expect(await backfill.enqueue(c!, 'top')).toBe('waiting');
    expect([backfill.waiting('top'), backfill.waiting('page')]).toEqual([1, 1]);
    await drainTo(clock, replay, 3);
    expect(replay.requests).toEqual([a, c, b].map((p) => `/chart/${p}`));
  });

  it('with DATABASE_URL the client limit is counted in PostgreSQL, shared by every process', async () => {
    const replay = await replayServer();
    const { dir } = await realSnapshotDir(30, 33);
    const pools = (JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as RawPools)
      .data;
    for (const p of pools) replay.set(p.pool, chartOf(10));
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const settings = { top: 0, clientMax: 2, requestsPerMinute: 1, concurrency: 1 };
    const one = await app(dir, replay, { ...settings, clock: new TestClock() }, { databaseUrl });
    const two = await app(dir, replay, { ...settings, clock: new TestClock() }, { databaseUrl });
    expect(await open(one, pools[0]!.pool, '203.0.113.9')).toBe('queued');
    expect(await open(two, pools[1]!.pool, '203.0.113.9')).toBe('queued');
    // The client's third, on either process, is over its limit.
    expect(await open(one, pools[2]!.pool, '203.0.113.9')).toBe('deferred');
    expect(await open(two, pools[3]!.pool, '203.0.113.9')).toBe('deferred');
    expect(await open(two, pools[3]!.pool, '203.0.113.10')).toBe('queued');
  });
});

describe('a pool fetched or tried in the last 24 hours is not fetched again', () => {
  it('by a second open, after a failure or an unreadable answer, after a restart, nor by the top queue; after 24 hours it is', async () => {
    const replay = await replayServer();
    const { dir } = await realSnapshotDir(12, 34);
    const pools = byTvl(
      (JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as RawPools).data,
    ).map((p) => p.pool);
    const [young, failing, garbled] = pools;
    replay.set(young!, chartOf(10)); // DeFiLlama itself has 10 days: still short afterwards
    replay.set(failing!, { kind: 'raw', status: 404, body: '"not found"' });
    replay.set(garbled!, { kind: 'json', body: { status: 'error', data: null } });
    const clock = new TestClock();
    const settings = { top: 0, requestsPerMinute: 100, clock };
    let t = await app(dir, replay, settings);
    const backfill = () => t.deps.poolHistory!.backfill;

    for (const pool of [young!, failing!, garbled!]) expect(await open(t, pool)).toBe('queued');
    await backfill().idle();
    const outcomes = new Map(backfill().outcomes.map((o) => [o.pool, o.ok]));
    expect(outcomes).toEqual(
      new Map([
        [young, true],
        [failing, false],
        [garbled, false],
      ]),
    );
    expect(replay.requests).toHaveLength(3);
    for (const pool of [young!, failing!, garbled!]) expect(await open(t, pool)).toBe('recent');
    await backfill().idle();
    expect(replay.requests).toHaveLength(3);

    // The memory is on disk: {pool, triedAt, ok}, one line per try.
    const tries = (await readFile(path.join(dir, 'pool-history', TRIES_FILE), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { pool: string; ok: boolean; triedAt: string });
    expect(new Map(tries.map((x) => [x.pool, x.ok]))).toEqual(outcomes);
    expect(tries).toHaveLength(3);
    expect(tries[0]!.triedAt).toBe(new Date(clock.now()).toISOString());

    // A restart on the same data directory, which queues the top 12 pools' backfills: the three
    // tried are not among them.
    await stop(t);
    for (const pool of pools.slice(3)) replay.set(pool, chartOf(40));
    t = await app(dir, replay, { ...settings, top: 12 });
    await backfill().idle();
    expect(replay.requests.slice(3).sort()).toEqual(
      pools
        .slice(3)
        .map((p) => `/chart/${p}`)
        .sort(),
    );
    for (const pool of [young!, failing!, garbled!]) expect(await open(t, pool)).toBe('recent');

    // 24 hours later each may be fetched again.
    clock.advance(DAY_MS + 1);
    expect(await open(t, young!)).toBe('queued');
    await backfill().idle();
    expect(replay.requests.filter((r) => r === `/chart/${young}`)).toHaveLength(2);
  });

  it('the memory file stays bounded: tries older than 24 hours are dropped', async () => {
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const clock = new TestClock();
    const store = new PoolHistoryStore(dir);
    const tries = new FileBackfillTries(store.dir, clock.now);
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    for (let n = 0; n < 300; n++) await tries.markTried(id(n), new Date(clock.now()), n % 2 === 0);
    clock.advance(DAY_MS + 1);
    for (let n = 300; n < 600; n++) await tries.markTried(id(n), new Date(clock.now()), true);
    const lines = (await readFile(tries.file, 'utf8')).split('\n').filter(Boolean);
    // Compacted when it passed twice the live tries: the old day's tries are gone.
    expect(lines.length).toBeLessThanOrEqual(2 * 300);
    expect(lines.some((l) => l.includes(id(0)))).toBe(false);
    expect(await tries.recentlyTried(id(0))).toBe(false);
    expect(await tries.recentlyTried(id(599))).toBe(true);

    // A line cut short by a crash is skipped; a new reader (a restart) knows the same tries.
    await appendFile(tries.file, '\n{"pool":"00000000-0000-4000-8000-0000000');
    const again = new FileBackfillTries(store.dir, clock.now);
    expect(await again.recentlyTried(id(599))).toBe(true);
    expect(await again.recentlyTried(id(1))).toBe(false);
  });
});

/** A history store and the backfill's tries with its clock: on the files, or in PostgreSQL. */
type Opened = { store: PoolHistory; tries: (now: () => number) => BackfillTries };
const BACKENDS: [string, () => Promise<Opened>][] = [
  [
    'files',
    async () => {
      const dir = await tempDataDir();
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const store = new PoolHistoryStore(dir);
      return { store, tries: (now) => new FileBackfillTries(store.dir, now) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await freshDatabase(inject('pgBaseUrl'));
      const db = new PgConnection({ connectionString: url, logger: silentLogger });
      cleanups.push(() => db.close());
      return { store: new PgPoolHistoryStore(db), tries: (now) => new PgBackfillTries(db, now) };
    },
  ],
];

describe.each(BACKENDS)('the 24-hour memory of tries (%s)', (_, openBackend) => {
  it('a request that timed out counts as a try', async () => {
    const replay = await replayServer();
    const { store, tries } = await openBackend();
    const pool = '33333333-3333-4333-8333-333333333333';
    replay.set(pool, { kind: 'hang' });
    const backfill = new PoolBackfill(store, {
      apiUrl: replay.url,
      timeoutMs: 200,
      tries: tries(Date.now),
    });
    expect(await backfill.enqueue(pool, 'page')).toBe('queued');
    await backfill.idle();
    expect(backfill.outcomes[0]!.ok).toBe(false);
    expect(await backfill.enqueue(pool, 'page')).toBe('recent');
    expect(await backfill.enqueue(pool, 'top')).toBe('recent');
    expect(replay.requests).toEqual([`/chart/${pool}`]);
  });

  it('a try is remembered for 24 hours, by a new reader too; the newest try of a pool wins', async () => {
    const { tries } = await openBackend();
    const clock = new TestClock();
    const one = tries(clock.now);
    const [a, b] = ['a', 'b'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`);
    await one.markTried(a!, new Date(clock.now()), true);
    clock.advance(DAY_MS / 2);
    await one.markTried(b!, new Date(clock.now()), false);
    // An older try recorded late does not replace the newer one.
    await one.markTried(b!, new Date(clock.now() - DAY_MS), true);
    const two = tries(clock.now);
    expect([await two.recentlyTried(a!), await two.recentlyTried(b!.toUpperCase())]).toEqual([
      true,
      true,
    ]);
    clock.advance(DAY_MS / 2 + 1);
    expect([await two.recentlyTried(a!), await two.recentlyTried(b!)]).toEqual([false, true]);
    clock.advance(DAY_MS / 2);
    expect(await tries(clock.now).recentlyTried(b!)).toBe(false);
  });
});

describe('backfills reload nothing whole', () => {
  it('N backfills read only their pools: one full reload (the start), and the index has their histories', async () => {
    const replay = await replayServer();
    const { dir } = await realSnapshotDir(16, 35);
    const pools = byTvl(
      (JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as RawPools).data,
    ).map((p) => p.pool);
    for (const pool of pools) replay.set(pool, chartOf(40));
    const t = await app(dir, replay, { top: 8, requestsPerMinute: 1_000, concurrency: 2 });
    const state = t.deps.scanner;
    await t.deps.poolHistory!.backfill.idle();
    await state.settled();

    expect(replay.requests).toHaveLength(8);
    // Each backfilled pool's figures come from its own last 30 days, re-read alone.
    const store = t.deps.poolHistory!.store;
    const itemOf = (pool: string) => state.index()!.items.find((i) => i.pool === pool)!;
    const means = new Map<string, number>();
    for (const pool of pools.slice(0, 8)) {
      const last30 = await store.trailing(pool, 30, '2026-11-25');
      means.set(pool, last30.reduce((sum, d) => sum + d.apy, 0) / 30);
    }
    await vi.waitFor(
      () => {
        for (const [pool, mean] of means) expect(itemOf(pool).apy).toBeCloseTo(mean, 9);
      },
      { timeout: 10_000 },
    );
    // Every pool's trailing days were read once, at the start.
    expect(t.logger.lines.filter((e) => e.message === 'pool histories read')).toHaveLength(1);
    expect(state.fullReloads()).toBe(1);
  });
});

describe('the scanner track record is computed again only when an input changed', () => {
  it('kept across backfills of an outlier and of a pool outside the snapshot; computed again after one of a pool it reads', async () => {
    const replay = await replayServer();
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as {
      data: { pool: string; outlier: boolean }[];
    };
    const [outlier, young, gone] = ['a', 'b', 'c'].map(
      (c) => `${c.repeat(8)}-0000-4000-8000-000000000000`,
    );
    file.data = file.data.slice(0, 30);
    file.data.push({ ...file.data[0]!, pool: outlier!, outlier: true });
    file.data.push({ ...file.data[1]!, pool: young!, outlier: false });
    await writeFile(path.join(dir, 'pools.json'), JSON.stringify(file));
    const store = new PoolHistoryStore(dir);
    // 40 days for the first pools (the record has picks), 5 for the three backfilled below.
    for (const p of file.data.slice(0, 12)) await store.replace(p.pool, rows(40));
    for (const pool of [outlier!, young!, gone!]) await store.replace(pool, rows(5, '2026-11-20'));
    for (const pool of [outlier!, young!, gone!]) replay.set(pool, chartOf(60));

    const t = await app(dir, replay, { top: 0, requestsPerMinute: 1_000 });
    const state = t.deps.scanner;
    const reads = vi.spyOn(t.deps.poolHistory!.store, 'read');
    const computed = () =>
      t.logger.lines.filter((e) => e.message === 'scanner track record computed').length;
    const trackRecord = async () => {
      const before = reads.mock.calls.length;
      const res = await t.http.get('/api/track-record/scanner');
      expect(res.status).toBe(200);
      return { reads: reads.mock.calls.length - before };
    };
    const backfill = async (pool: string) => {
      const index = state.index();
      expect(await open(t, pool)).toBe('queued');
      await t.deps.poolHistory!.backfill.idle();
      await state.settled();
      return index;
    };

    // Every non-outlier pool of the snapshot is read.
    const tracked = file.data.filter((p) => !p.outlier).length;
    const first = await trackRecord();
    expect(first.reads).toBe(tracked);
    expect((await trackRecord()).reads).toBe(0);

    // The outlier gains 55 days: the index is rebuilt, the record (which leaves outliers out) kept.
    const beforeOutlier = await backfill(outlier!);
    await vi.waitFor(() => expect(state.index()).not.toBe(beforeOutlier), { timeout: 10_000 });
    expect((await trackRecord()).reads).toBe(0);
    // So for a pool outside the snapshot (its page still answers from its stored days).
    await backfill(gone!);
    expect((await trackRecord()).reads).toBe(0);
    expect(computed()).toBe(1);

    // A pool the record reads gains days: computed again, once.
    await backfill(young!);
    expect((await trackRecord()).reads).toBe(tracked);
    expect((await trackRecord()).reads).toBe(0);
    expect(computed()).toBe(2);
    expect(state.fullReloads()).toBe(1);
  });
});
