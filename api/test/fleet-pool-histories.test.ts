/**
 * With DATABASE_URL the pool histories, the backfill's 24-hour memory and its requests-per-minute
 * budget are in PostgreSQL, shared by every process of the fleet: a pool backfilled by one
 * process is served with its days by another (a new one included) from its first answer; a pool
 * tried by one is `recent` for the others; the backfill queues of several processes together send
 * at most the budget per minute; db:import-files and db:export-files move the histories and the
 * tries between the data directory and the tables.
 *
 * DeFiLlama is the replay server; the budget runs on a clock the test moves by hand.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { runDb } from '../scripts/db.ts';
import { FileBackfillTries } from '../src/modules/import/backfill-tries.ts';
import { importPoolsSnapshot } from '../src/modules/import/import-pools.ts';
import { PgBackfillBudget, PgBackfillTries } from '../src/modules/import/pg-backfill.ts';
import { PgPoolHistoryStore } from '../src/modules/import/pg-pool-history.ts';
import { PoolBackfill } from '../src/modules/import/pool-backfill.ts';
import { PoolHistoryStore, type PoolDay } from '../src/modules/import/pool-history.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';
import { TestClock } from './backfill-clock.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { freshDatabase, startCluster } from './pg-cluster.ts';
import { chartBody, dailyPoints, startReplayServer, type ReplayServer } from './replay-server.ts';

const MINUTE = 60_001;
const SNAPSHOT_AT = new Date('2026-11-25T08:00:00Z');
const chartOf = (days: number) => ({
  kind: 'json' as const,
  body: chartBody(dailyPoints({ lastDay: '2026-11-24', days, apy: 5 })),
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function replayServer(): Promise<ReplayServer> {
  const replay = await startReplayServer();
  cleanups.push(() => replay.close());
  return replay;
}

/** A machine's own data directory with the same real (not sample) /pools snapshot. */
async function machineDir(): Promise<string> {
  const dir = await tempDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const raw = generatePoolsResponse({ count: 12, seed: 41 }) as unknown as {
    data: { pool: string }[];
  };
  await importPoolsSnapshot(raw, { dataDir: dir, fetchedAt: SNAPSHOT_AT });
  return dir;
}

const poolsOf = async (dir: string) =>
  (
    JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as { data: { pool: string }[] }
  ).data.map((p) => p.pool);

/** An API process on its own data directory, sharing `databaseUrl`. */
async function machine(dir: string, replay: ReplayServer, databaseUrl: string) {
  const t = await setup({
    dir,
    databaseUrl,
    defillamaApiUrl: replay.url,
    poolBackfill: { top: 0, requestsPerMinute: 100 },
  });
  cleanups.push(() => t.deps.close());
  await t.deps.scanner.settled();
  return t;
}

async function open(t: TestContext, pool: string) {
  const res = await t.http.get(`/api/scanner/pools/${pool}/history`);
  expect(res.status).toBe(200);
  return res.body as { days: PoolDay[]; backfill: string; sample: boolean };
}

const rowsOf = (n: number): PoolDay[] =>
  dailyPoints({ lastDay: '2026-11-24', days: n, apy: 5 }).map((p) => ({
    date: p.timestamp.slice(0, 10),
    apy: p.apy ?? 5,
    apyBase: null,
    apyReward: null,
    tvlUsd: p.tvlUsd,
  }));

function connection(url: string): PgConnection {
  const db = new PgConnection({ connectionString: url, logger: silentLogger });
  cleanups.push(() => db.close());
  return db;
}

/** A backfill queue of its own process (its own connection) on the database at `url`. */
function sharedQueue(
  url: string,
  replay: ReplayServer,
  clock: TestClock,
  rpm: number,
  concurrency: number,
) {
  const db = connection(url);
  const backfill = new PoolBackfill(new PgPoolHistoryStore(db), {
    apiUrl: replay.url,
    requestsPerMinute: rpm,
    concurrency,
    clock,
    tries: new PgBackfillTries(db, clock.now),
    budget: new PgBackfillBudget(db, replay.url),
  });
  cleanups.push(async () => {
    backfill.stop();
    await backfill.idle();
  });
  return backfill;
}

describe('pool histories shared by the fleet (DATABASE_URL)', () => {
  it('a pool backfilled by one process is served with its days by a new one from its first answer', async () => {
    const replay = await replayServer();
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const dirOne = await machineDir();
    const pool = (await poolsOf(dirOne))[0]!;
    replay.set(pool, chartOf(45));
    const one = await machine(dirOne, replay, databaseUrl);
    expect((await open(one, pool)).backfill).toBe('queued');
    await one.deps.poolHistory!.backfill.idle();
    expect((await open(one, pool)).days).toHaveLength(45);

    // A new machine, its own data directory (which has the snapshot's day only in its files).
    const two = await machine(await machineDir(), replay, databaseUrl);
    const first = await open(two, pool);
    expect(first.sample).toBe(false);
    expect(first.days).toHaveLength(45);
    expect(first.days.at(-1)!.date).toBe('2026-11-24');
    expect(first.backfill).toBe('none');
    // Its scanner read the same trailing days at start.
    const item = two.deps.scanner.index()!.items.find((i) => i.pool === pool)!;
    expect(item.apyBasis).toBe('mean30d');
    expect(replay.requests).toEqual([`/chart/${pool}`]);
  });

  it('a pool tried by one process is recent for another, whatever the result', async () => {
    const replay = await replayServer();
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const dir = await machineDir();
    const [ok, failing] = await poolsOf(dir);
    replay.set(ok!, chartOf(10));
    replay.set(failing!, { kind: 'raw', status: 404, body: '"not found"' });
    const one = await machine(dir, replay, databaseUrl);
    const two = await machine(await machineDir(), replay, databaseUrl);
    for (const pool of [ok!, failing!]) expect((await open(one, pool)).backfill).toBe('queued');
    await one.deps.poolHistory!.backfill.idle();
    for (const pool of [ok!, failing!]) expect((await open(two, pool)).backfill).toBe('recent');
    expect(await two.deps.poolHistory!.backfill.enqueue(failing!, 'top')).toBe('recent');
    await two.deps.poolHistory!.backfill.idle();
    expect(replay.requests).toHaveLength(2);
  });

  it('two backfill queues on one database together send at most the budget per minute', async () => {
    const replay = await replayServer();
    const url = await freshDatabase(inject('pgBaseUrl'));
    const pools = Array.from({ length: 10 }, (_, i) => `${i}bbbbbbb-0000-4000-8000-000000000000`);
    for (const pool of pools) replay.set(pool, chartOf(5));
    const clock = new TestClock();
    const [one, two] = [1, 2].map(() => sharedQueue(url, replay, clock, 3, 2)) as [
      PoolBackfill,
      PoolBackfill,
    ];
    for (const [i, pool] of pools.entries()) await (i % 2 === 0 ? one : two).enqueue(pool);

    // Every worker of both processes waits for the budget: 3 requests went out, not 3 each.
    await vi.waitFor(() => expect(clock.sleeping).toBe(4));
    expect(replay.requests).toHaveLength(3);
    expect(one.requests + two.requests).toBe(3);
    // Each minute lets 3 more out, from either process, and no more.
    for (const total of [6, 9]) {
      clock.advance(MINUTE);
      await vi.waitFor(() => expect(replay.requests.length).toBeGreaterThanOrEqual(total));
      await vi.waitFor(() => expect(clock.sleeping).toBeGreaterThan(0));
      expect(replay.requests).toHaveLength(total);
    }
    await vi.waitFor(
      () => {
        clock.advance(MINUTE);
        expect(one.size + two.size).toBe(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect([...replay.requests].sort()).toEqual(pools.map((p) => `/chart/${p}`).sort());
  });
});

describe('one fetch of a pool for the fleet', () => {
  it('a pool queued by two processes before either fetched it is fetched once; the other gives its request back', async () => {
    const replay = await replayServer();
    const url = await freshDatabase(inject('pgBaseUrl'));
    const [first, shared, next] = ['1', '2', '3'].map(
      (c) => `${c.repeat(8)}-cccc-4000-8000-000000000000`,
    );
    for (const pool of [first!, shared!, next!]) replay.set(pool, chartOf(5));
    const clock = new TestClock();
    const [one, two] = [1, 2].map(() => sharedQueue(url, replay, clock, 1, 1)) as [
      PoolBackfill,
      PoolBackfill,
    ];
    // The minute's budget goes to another pool: the shared one waits on both processes.
    expect(await one.enqueue(first!)).toBe('queued');
    await vi.waitFor(() => expect(replay.requests).toHaveLength(1));
    await one.idle();
    expect(await one.enqueue(shared!)).toBe('queued');
    expect(await two.enqueue(shared!)).toBe('queued');
    expect(await two.enqueue(next!)).toBe('queued');
    await vi.waitFor(() => expect(clock.sleeping).toBe(2));

    // One process fetches the shared pool; the other, given a request for it, finds it taken,
    // sends nothing and gives the request back.
    // Minutes pass until both queues are empty.
    await vi.waitFor(
      () => {
        clock.advance(MINUTE);
        expect(one.size + two.size).toBe(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(replay.requests).toEqual([first, shared, next].map((p) => `/chart/${p}`));
    expect(one.requests + two.requests).toBe(3);
    expect([...one.outcomes, ...two.outcomes].map((o) => o.pool).sort()).toEqual(
      [first, shared, next].sort(),
    );
  });
});

describe('a database out of reach', () => {
  it('a pool page keeps the rows read last, one never read answers 503 JSON, the scanner keeps the histories it read last; the page recovers with the database', async () => {
    const cluster = await startCluster();
    cleanups.push(() => cluster.destroy());
    const databaseUrl = await cluster.createDatabase();
    const replay = await replayServer();
    const dir = await machineDir();
    const pool = (await poolsOf(dir))[0]!;
    const db = connection(databaseUrl);
    await new PgPoolHistoryStore(db).mergeRows(pool, rowsOf(40));
    await db.close();
    const t = await machine(dir, replay, databaseUrl);
    const basis = () => t.deps.scanner.index()!.items.find((i) => i.pool === pool)!.apyBasis;
    expect(basis()).toBe('mean30d');

    const seen = (await poolsOf(dir))[1]!;
    const before = await t.http.get(`/api/scanner/pools/${seen}/history`).expect(200);

    await cluster.stop();
    // A page read before: its rows as read, the backfill deferred (it cannot be asked).
    const kept = await t.http.get(`/api/scanner/pools/${seen}/history`).expect(200);
    expect(kept.body).toEqual({ ...before.body, backfill: 'deferred' });
    const down = await t.http.get(`/api/scanner/pools/${pool}/history`);
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('unavailable');
    expect(JSON.stringify(down.body)).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    // A new snapshot loads: its histories cannot be read, the ones read last are kept.
    const raw = generatePoolsResponse({ count: 12, seed: 41 });
    await importPoolsSnapshot(raw, {
      store: t.deps.store,
      dataDir: dir,
      fetchedAt: new Date('2026-11-25T09:00:00Z'),
      history: null,
    });
    // With a database the store serves the published pools.json (the database is down, so the
    // new snapshot is installed as a newly published version would be).
    expect(
      t.deps.store.installText('pools', await readFile(path.join(dir, 'pools.json'), 'utf8')),
    ).toBe(true);
    await t.deps.scanner.settled();
    expect(t.logger.lines.map((l) => l.message)).toContain(
      'reading the pool histories failed, keeping the previous ones',
    );
    expect(basis()).toBe('mean30d');

    await cluster.start();
    await vi.waitFor(
      async () => {
        const up = await t.http.get(`/api/scanner/pools/${pool}/history`);
        expect(up.status).toBe(200);
        expect(up.body.days).toHaveLength(40);
      },
      { timeout: 10_000, interval: 300 },
    );
  });
});

describe('db:import-files and db:export-files with pool histories', () => {
  it('moves every pool’s days and the backfill’s tries into the tables, once; and back', async () => {
    const url = await freshDatabase(inject('pgBaseUrl'));
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const files = new PoolHistoryStore(dir);
    const A = 'aaaaaaaa-1111-4111-8111-111111111111';
    const B = 'bbbbbbbb-2222-4222-8222-222222222222';
    await files.appendSnapshot('2026-11-24T08:00:00Z', [
      { pool: A, apy: 3, tvlUsd: 10 },
      { pool: B, apy: 4, apyBase: 4, tvlUsd: 20 },
    ]);
    await files.appendSnapshot('2026-11-25T08:00:00Z', [{ pool: A, apy: 3.5, tvlUsd: 11 }]);
    const tries = new FileBackfillTries(files.dir);
    const triedAt = new Date('2026-11-25T09:00:00Z');
    await tries.markTried(B, triedAt, false);
    await tries.idle();

    const first = await runDb(['import-files', '--data-dir', dir, '--database-url', url], {});
    expect(first.exitCode).toBe(0);
    expect(first.output).toContain('pool histories: 2 pools, 3 days added, 1 backfill tries');
    const again = await runDb(['import-files', '--data-dir', dir, '--database-url', url], {});
    expect(again.output).toContain('pool histories: 2 pools, 0 days added, 1 backfill tries');

    const db = connection(url);
    const table = new PgPoolHistoryStore(db);
    expect(await table.read(A)).toEqual(await files.read(A));
    expect(await table.read(B)).toEqual(await files.read(B));
    expect(await new PgBackfillTries(db, () => triedAt.getTime()).recentlyTried(B)).toBe(true);
    expect(await new PgBackfillTries(db, () => triedAt.getTime()).recentlyTried(A)).toBe(false);

    // Back to files: a new data directory gets the same histories and tries.
    await table.mergeRows(B, [{ ...(await files.read(B))[0]!, date: '2026-11-20' }]);
    const back = await tempDataDir();
    cleanups.push(() => rm(back, { recursive: true, force: true }));
    const exported = await runDb(['export-files', '--data-dir', back, '--database-url', url], {});
    expect(exported.exitCode).toBe(0);
    expect(exported.output).toContain(
      'pool-history/:     2 pools, 4 days written, 1 backfill tries',
    );
    const written = new PoolHistoryStore(back);
    expect(await written.read(A)).toEqual(await files.read(A));
    expect((await written.read(B)).map((d) => d.date)).toEqual(['2026-11-20', '2026-11-24']);
    const writtenTries = await new FileBackfillTries(written.dir).entries();
    expect(writtenTries).toEqual([{ pool: B, triedAt, ok: false }]);
  });
});
