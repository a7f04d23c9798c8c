/**
 * Every pool's own daily history: the store (one row per pool per day, restarts, a write cut
 * short), the /chart backfill (a replayed real recording; the requests-per-minute budget, retries
 * on 429), GET /api/scanner/pools/{pool}/history, and the scanner computing a pool's figures from
 * its own history.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { API_ROOT } from '../src/platform/config.ts';
import {
  chartToDays,
  PoolHistoryStore,
  type PoolDay,
  type PoolHistory,
} from '../src/modules/import/pool-history.ts';
import { PgPoolHistoryStore } from '../src/modules/import/pg-pool-history.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { freshDatabase } from './pg-cluster.ts';
import { PoolBackfill } from '../src/modules/import/pool-backfill.ts';
import { importPoolsSnapshot } from '../src/modules/import/import-pools.ts';
import { sigmaOfApys } from '../src/modules/scanner/score-from-history.ts';
import { aprOfApy, rapoolV3OfHistory, type Score } from '../src/engine/index.ts';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { chartBody, dailyPoints, startReplayServer, type ReplayServer } from './replay-server.ts';

const REAL = path.resolve(API_ROOT, '..', '..', 'shared', 'real-llama');
const REAL_POOL = 'f9458688-7736-4dde-bc82-6ef9e8aa1951';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function tempStore(): Promise<PoolHistoryStore> {
  const dir = await tempDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return new PoolHistoryStore(dir);
}

/** A PostgreSQL store on a fresh database, and a second store on it (another process). */
async function pgStores(): Promise<[PoolHistory, PoolHistory]> {
  const url = await freshDatabase(inject('pgBaseUrl'));
  const open = () => {
    const db = new PgConnection({ connectionString: url, logger: silentLogger });
    cleanups.push(() => db.close());
    return new PgPoolHistoryStore(db);
  };
  return [open(), open()];
}

/** Two stores on the same place: the files of one data directory, or one database. */
const STORES: [string, () => Promise<[PoolHistory, PoolHistory]>][] = [
  [
    'files',
    async () => {
      const store = await tempStore();
      return [store, new PoolHistoryStore(path.dirname(store.dir))];
    },
  ],
  ['PostgreSQL', pgStores],
];

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

function days(n: number, lastDay: string, apy: (i: number) => number): PoolDay[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(end - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    apy: apy(i),
    apyBase: apy(i),
    apyReward: null,
    tvlUsd: 5e8,
  }));
}

describe.each(STORES)('the pool history store (%s)', (_, open) => {
  it('keeps one row per pool per day (the latest snapshot of the day wins), oldest first, read by another store', async () => {
    const [store, other] = await open();
    await store.appendSnapshot('2026-11-24T10:00:00Z', [{ pool: A, apy: 4, tvlUsd: 100 }]);
    await store.appendSnapshot('2026-11-25T01:00:00Z', [
      { pool: A, apy: 5, apyBase: 4, apyReward: 1, tvlUsd: 200 },
      { pool: B, apy: 7, tvlUsd: 300 },
      { pool: 'not-a-pool', apy: 1, tvlUsd: 1 },
      { pool: '44444444-4444-4444-8444-444444444444', apy: NaN, tvlUsd: 1 },
    ]);
    await store.appendSnapshot('2026-11-25T23:00:00Z', [{ pool: A, apy: 6, tvlUsd: 210 }]);
    await store.idle();
    expect(await other.read(A)).toEqual([
      { date: '2026-11-24', apy: 4, apyBase: null, apyReward: null, tvlUsd: 100 },
      { date: '2026-11-25', apy: 6, apyBase: null, apyReward: null, tvlUsd: 210 },
    ]);
    expect(await other.read(B.toUpperCase())).toEqual([
      { date: '2026-11-25', apy: 7, apyBase: null, apyReward: null, tvlUsd: 300 },
    ]);
    expect(await other.read('44444444-4444-4444-8444-444444444444')).toEqual([]);
    expect(await other.dayCount(A)).toBe(2);
  });

  it('a backfill adds the days missing and keeps the days held; counts what it added', async () => {
    const [store, other] = await open();
    await store.appendSnapshot('2026-11-25T12:00:00Z', [{ pool: A, apy: 42, tvlUsd: 1 }]);
    expect(
      await store.mergeRows(
        A,
        days(5, '2026-11-25', () => 1),
      ),
    ).toBe(4);
    expect(
      await other.mergeRows(
        A,
        days(7, '2026-11-25', () => 2),
      ),
    ).toBe(2);
    const rows = await other.read(A);
    expect(rows.map((r) => [r.date, r.apy])).toEqual([
      ['2026-11-19', 2],
      ['2026-11-20', 2],
      ['2026-11-21', 1],
      ['2026-11-22', 1],
      ['2026-11-23', 1],
      ['2026-11-24', 1],
      ['2026-11-25', 42],
    ]);
    expect(
      await store.mergeRows(
        A,
        days(3, '2026-11-25', () => 3),
      ),
    ).toBe(0);
  });

  it('reads the trailing days of every pool at once, up to a day, keyed as asked', async () => {
    const [store, other] = await open();
    await store.replace(
      A,
      days(40, '2026-11-25', (i) => i),
    );
    await store.replace(
      B,
      days(3, '2026-11-25', (i) => 100 + i),
    );
    await store.replace(
      B,
      days(2, '2026-11-24', (i) => 200 + i),
    ); // replaced whole
    const read = await other.trailingOfAll(
      [A.toUpperCase(), B, '33333333-3333-4333-8333-333333333333', 'bad'],
      30,
      '2026-11-24',
    );
    expect([...read.keys()].sort()).toEqual([A.toUpperCase(), B].sort());
    const a = read.get(A.toUpperCase())!;
    expect(a).toHaveLength(30);
    expect(a[0]!.date).toBe('2026-10-26');
    expect(a.at(-1)).toEqual({
      date: '2026-11-24',
      apy: 38,
      apyBase: 38,
      apyReward: null,
      tvlUsd: 5e8,
    });
    expect(read.get(B)!.map((d) => d.apy)).toEqual([200, 201]);
    expect((await other.trailing(A, 2)).map((d) => d.date)).toEqual(['2026-11-24', '2026-11-25']);
  });
});

describe('the pool history store', () => {
  it('keeps one row per pool per day (the latest snapshot of the day), oldest first', async () => {
    const store = await tempStore();
    await store.appendSnapshot('2026-11-24T10:00:00Z', [{ pool: A, apy: 4, tvlUsd: 100 }]);
    await store.appendSnapshot('2026-11-25T01:00:00Z', [
      { pool: A, apy: 5, apyBase: 4, apyReward: 1, tvlUsd: 200 },
      { pool: B, apy: 7, tvlUsd: 300 },
    ]);
    await store.appendSnapshot('2026-11-25T23:00:00Z', [{ pool: A, apy: 6, tvlUsd: 210 }]);
    expect(await store.read(A)).toEqual([
      { date: '2026-11-24', apy: 4, apyBase: null, apyReward: null, tvlUsd: 100 },
      { date: '2026-11-25', apy: 6, apyBase: null, apyReward: null, tvlUsd: 210 },
    ]);
    expect(await store.read(B)).toEqual([
      { date: '2026-11-25', apy: 7, apyBase: null, apyReward: null, tvlUsd: 300 },
    ]);
    expect(await store.trailing(A, 1)).toEqual([(await store.read(A))[1]]);
    expect(await store.read('33333333-3333-4333-8333-333333333333')).toEqual([]);
  });

  it('survives a restart: a new store on the same directory reads the same rows', async () => {
    const store = await tempStore();
    await store.appendSnapshot('2026-11-25T12:00:00Z', [{ pool: A, apy: 3, tvlUsd: 1 }]);
    await store.mergeRows(
      A,
      days(3, '2026-11-24', (i) => i + 1),
    );
    const again = new PoolHistoryStore(path.dirname(store.dir));
    expect((await again.read(A)).map((d) => [d.date, d.apy])).toEqual([
      ['2026-11-22', 1],
      ['2026-11-23', 2],
      ['2026-11-24', 3],
      ['2026-11-25', 3],
    ]);
  });

  it('never reads half a row: a write cut short is skipped and later rows still count', async () => {
    const store = await tempStore();
    await store.appendSnapshot('2026-11-23T12:00:00Z', [{ pool: A, apy: 3, tvlUsd: 1 }]);
    // A crash in the middle of the next append.
    await appendFile(store.fileOf(A), '\n["2026-11-24",9');
    expect((await store.read(A)).map((d) => d.date)).toEqual(['2026-11-23']);
    await store.appendSnapshot('2026-11-25T12:00:00Z', [{ pool: A, apy: 5, tvlUsd: 1 }]);
    expect((await store.read(A)).map((d) => [d.date, d.apy])).toEqual([
      ['2026-11-23', 3],
      ['2026-11-25', 5],
    ]);
  });

  it('a backfill rewrites the file whole: no temporary file is left, days held keep their row', async () => {
    const store = await tempStore();
    await store.appendSnapshot('2026-11-25T12:00:00Z', [{ pool: A, apy: 42, tvlUsd: 1 }]);
    const added = await store.mergeRows(
      A,
      days(5, '2026-11-25', () => 1),
    );
    expect(added).toBe(4);
    const rows = await store.read(A);
    expect(rows).toHaveLength(5);
    expect(rows.at(-1)!.apy).toBe(42);
    const text = await readFile(store.fileOf(A), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(5);
    expect(await readdir(path.dirname(store.fileOf(A)))).toEqual([path.basename(store.fileOf(A))]);
  });

  it('a /pools import appends each pool’s row of the snapshot’s day', async () => {
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const raw = generatePoolsResponse({ count: 20, seed: 5 }) as unknown as {
      data: { pool: string; tvlUsd: number }[];
    };
    await importPoolsSnapshot(raw, { dataDir: dir, fetchedAt: new Date('2026-11-25T08:00:00Z') });
    await importPoolsSnapshot(raw, { dataDir: dir, fetchedAt: new Date('2026-11-26T08:00:00Z') });
    const store = new PoolHistoryStore(dir);
    for (const p of raw.data) {
      expect((await store.read(p.pool)).map((d) => d.date)).toEqual(['2026-11-25', '2026-11-26']);
    }
  });
});

describe('the /chart backfill', () => {
  let replay: ReplayServer | null = null;
  afterEach(async () => {
    await replay?.close();
    replay = null;
  });

  it('stores a replayed real /chart answer as one row per UTC day (the last point of the day)', async () => {
    if (!existsSync(REAL)) {
      throw new Error(
        `The real DeFiLlama recordings are missing: expected ${REAL} (chart-<pool>.json)`,
      );
    }
    const raw = JSON.parse(await readFile(path.join(REAL, `chart-${REAL_POOL}.json`), 'utf8')) as {
      data: { timestamp: string; apy: number | null; tvlUsd: number | null }[];
    };
    replay = await startReplayServer({ [REAL_POOL]: { kind: 'json', body: raw } });
    const store = await tempStore();
    const backfill = new PoolBackfill(store, { apiUrl: replay.url });
    expect(await backfill.enqueue(REAL_POOL)).toBe('queued');
    expect(await backfill.enqueue(REAL_POOL)).toBe('waiting'); // queued once
    await backfill.idle();
    expect(replay.requests).toEqual([`/chart/${REAL_POOL}`]);

    const rows = await store.read(REAL_POOL);
    const expected = chartToDays(raw);
    expect(rows).toEqual(expected);
    const dates = rows.map((r) => r.date);
    expect(new Set(dates).size).toBe(dates.length);
    expect([...dates].sort()).toEqual(dates);
    // Every UTC day of the recording with an APY and a TVL is there, from its last point.
    const lastOfDay = new Map<string, { at: number; apy: number }>();
    for (const p of raw.data) {
      if (p.apy === null || p.tvlUsd === null) continue;
      const day = p.timestamp.slice(0, 10);
      const at = Date.parse(p.timestamp);
      if ((lastOfDay.get(day)?.at ?? -Infinity) < at) lastOfDay.set(day, { at, apy: p.apy });
    }
    expect(rows.length).toBe(lastOfDay.size);
    expect(rows.length).toBeGreaterThan(30);
    for (const r of rows) expect(r.apy).toBe(lastOfDay.get(r.date)!.apy);
  });

  it('keeps to its requests-per-minute budget and its concurrency', async () => {
    const pools = Array.from({ length: 5 }, (_, i) => `${i}aaaaaaa-0000-4000-8000-000000000000`);
    replay = await startReplayServer(
      Object.fromEntries(
        pools.map((p) => [
          p,
          {
            kind: 'json' as const,
            body: chartBody(dailyPoints({ lastDay: '2026-11-25', days: 40, apy: 5 })),
            delayMs: 50,
          },
        ]),
      ),
    );
    const store = await tempStore();
    const backfill = new PoolBackfill(store, {
      apiUrl: replay.url,
      requestsPerMinute: 3,
      concurrency: 2,
    });
    cleanups.push(async () => {
      backfill.stop();
      await backfill.idle();
    });
    for (const p of pools) await backfill.enqueue(p);
    // Well past the time five requests take without a budget (each answers in 50 ms).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(replay.requests).toHaveLength(3);
    expect(backfill.requests).toBe(3);
    expect(backfill.size).toBe(2);
    expect(backfill.outcomes.filter((o) => o.ok)).toHaveLength(3);
  });

  it('retries a 429 after its Retry-After, counting each attempt in the budget', async () => {
    let calls = 0;
    const server = http.createServer((req, res) => {
      calls++;
      if (calls < 3) {
        res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' });
        res.end('{"message":"Too Many Requests"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(chartBody(dailyPoints({ lastDay: '2026-11-25', days: 3, apy: 2 }))));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const store = await tempStore();
    const backfill = new PoolBackfill(store, {
      apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requestsPerMinute: 10,
    });
    await backfill.enqueue(A);
    await backfill.idle();
    expect(calls).toBe(3);
    expect(backfill.requests).toBe(3);
    expect(await store.read(A)).toHaveLength(3);
  });
});

describe('GET /api/scanner/pools/{pool}/history', () => {
  let t: TestContext | null = null;
  let replay: ReplayServer | null = null;
  afterEach(async () => {
    await t?.cleanup();
    await replay?.close();
    t = null;
    replay = null;
  });

  it('answers the pool’s days, 404 for an unknown pool, 400 for a malformed id', async () => {
    t = await setup();
    const pool = t.deps.store.get('pools')!.data[0]!.pool;
    const store = new PoolHistoryStore(t.dir);
    await store.mergeRows(
      pool,
      days(40, '2026-11-25', (i) => 3 + i / 10),
    );

    const res = await t.http.get(`/api/scanner/pools/${pool}/history`);
    expect(res.status).toBe(200);
    expect(res.body.pool).toBe(pool);
    expect(res.body.sample).toBe(false);
    expect(res.body.backfill).toBe('none');
    expect(res.body.item.pool).toBe(pool);
    expect(res.body.days).toHaveLength(40);
    expect(res.body.days[0]).toEqual({
      date: '2026-10-17',
      apy: 3,
      apyBase: 3,
      apyReward: null,
      tvlUsd: 5e8,
    });

    const unknown = await t.http.get(
      '/api/scanner/pools/00000000-0000-4000-8000-000000000000/history',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const bad = await t.http.get('/api/scanner/pools/not-a-pool/history');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_pool');
  });

  it('serves a generated history marked sample for a pool of the shipped sample snapshot', async () => {
    t = await setup();
    expect(t.deps.store.get('pools')!.sample).toBe(true);
    const item = t.deps.store.get('pools')!.data[3]!;
    const res = await t.http.get(`/api/scanner/pools/${item.pool}/history`);
    expect(res.status).toBe(200);
    expect(res.body.sample).toBe(true);
    expect(res.body.days.length).toBeGreaterThanOrEqual(30);
    expect(res.body.days.at(-1).apy).toBeCloseTo(item.apy, 3);
  });

  it('queues the backfill of a pool whose history is short, which the next answer has', async () => {
    replay = await startReplayServer();
    const dir = await tempDataDir();
    // A real (not sample) snapshot from the replay server, imported with its first day.
    const raw = generatePoolsResponse({ count: 10, seed: 9 }) as unknown as {
      data: { pool: string; tvlUsd: number }[];
    };
    await importPoolsSnapshot(raw, { dataDir: dir, fetchedAt: new Date('2026-11-25T08:00:00Z') });
    const pool = raw.data[0]!.pool;
    replay.set(pool, {
      kind: 'json',
      body: chartBody(dailyPoints({ lastDay: '2026-11-24', days: 60, apy: 4 })),
    });
    // Only the page's request queues a backfill here (no top-N backfill at start).
    t = await setup({ dir, defillamaApiUrl: replay.url, poolBackfill: { top: 0 } });
    const first = await t.http.get(`/api/scanner/pools/${pool}/history`);
    expect(first.status).toBe(200);
    expect(first.body.sample).toBe(false);
    expect(first.body.days).toHaveLength(1);
    expect(first.body.backfill).toBe('queued');
    await t.deps.poolHistory!.backfill.idle();
    expect(replay.requests).toEqual([`/chart/${pool}`]);
    const second = await t.http.get(`/api/scanner/pools/${pool}/history`);
    expect(second.body.days).toHaveLength(61);
    expect(second.body.backfill).toBe('none');
  });
});

describe('the backfill of the top pools by TVL', () => {
  let t: TestContext | null = null;
  let replay: ReplayServer | null = null;
  afterEach(async () => {
    await t?.cleanup();
    await replay?.close();
    t = null;
    replay = null;
  });

  it('queues the top N pools of a real snapshot whose history is short, at start', async () => {
    replay = await startReplayServer();
    const dir = await tempDataDir();
    const raw = generatePoolsResponse({ count: 12, seed: 4 }) as unknown as {
      data: { pool: string; tvlUsd: number }[];
    };
    await importPoolsSnapshot(raw, { dataDir: dir, fetchedAt: new Date('2026-11-25T08:00:00Z') });
    const byTvl = [...raw.data].sort((a, b) => b.tvlUsd - a.tvlUsd);
    // The biggest pool already has 40 days: it is not fetched again.
    await new PoolHistoryStore(dir).mergeRows(
      byTvl[0]!.pool,
      days(40, '2026-11-24', () => 3),
    );
    for (const p of raw.data)
      replay.set(p.pool, {
        kind: 'json',
        body: chartBody(dailyPoints({ lastDay: '2026-11-24', days: 35, apy: 6 })),
      });
    t = await setup({ dir, defillamaApiUrl: replay.url, poolBackfill: { top: 4 } });
    await t.deps.scanner.settled();
    await t.deps.poolHistory!.backfill.idle();
    expect([...replay.requests].sort()).toEqual(
      byTvl
        .slice(1, 4)
        .map((p) => `/chart/${p.pool}`)
        .sort(),
    );
    const store = new PoolHistoryStore(dir);
    expect(await store.read(byTvl[1]!.pool)).toHaveLength(36);
    expect(await store.read(byTvl[5]!.pool)).toHaveLength(1);
  });

  it('never backfills the shipped sample snapshot (its pool ids are invented)', async () => {
    replay = await startReplayServer();
    t = await setup({ defillamaApiUrl: replay.url, poolBackfill: { top: 500 } });
    await t.deps.scanner.settled();
    await t.deps.poolHistory!.backfill.idle();
    expect(replay.requests).toEqual([]);
  });
});

describe('the scanner with pool histories', () => {
  let t: TestContext | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  it('computes a pool’s figures from its own history when it has 30 days', async () => {
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const pools = JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as {
      asOf: string;
      data: { pool: string; apy: number; sigma: number; apyMean30d?: number | null }[];
    };
    const [withHistory, shortHistory] = pools.data;
    const lastDay = pools.asOf.slice(0, 10);
    // 40 days alternating 2% and 12%: mean of the last 30 is 7, far from the snapshot's figures.
    const built = days(40, lastDay, (i) => (i % 2 === 0 ? 2 : 12));
    const store = new PoolHistoryStore(dir);
    await store.replace(withHistory!.pool, built);
    await store.replace(shortHistory!.pool, built.slice(-10));

    t = await setup({ dir });
    await t.deps.scanner.settled();
    const itemOf = async (pool: string) => {
      const res = await t!.http.get(`/api/scanner/pools/${pool}/history`);
      return res.body.item as {
        pool: string;
        apy: number;
        apyBasis: string;
        inputs: { sigma: number; count: number };
      };
    };
    const item = await itemOf(withHistory!.pool);
    expect(item.pool).toBe(withHistory!.pool);
    expect(item.apyBasis).toBe('mean30d');
    expect(item.apy).toBeCloseTo(7, 6);
    expect(item.inputs.count).toBe(30);
    expect(item.inputs.sigma).toBeCloseTo(sigmaOfApys(built.slice(-30).map((d) => d.apy)), 9);
    expect(item.inputs.sigma).not.toBeCloseTo(withHistory!.sigma, 3);

    // Fewer than 30 days: DeFiLlama's whole-life figures, as before.
    const other = await itemOf(shortHistory!.pool);
    expect(other.inputs.sigma).toBe(shortHistory!.sigma);
  });

  it('serves rapool-v3: the figures of a history are APRs (its APYs turned into the APRs behind them)', async () => {
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const pools = JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as {
      asOf: string;
      data: { pool: string }[];
    };
    const pool = pools.data[0]!.pool;
    // 40 days alternating 2% and 12% APY: the trimmed mean drops 3 of each, 12 of each are left.
    const built = days(40, pools.asOf.slice(0, 10), (i) => (i % 2 === 0 ? 2 : 12));
    await new PoolHistoryStore(dir).replace(pool, built);
    t = await setup({ dir });
    await t.deps.scanner.settled();
    const res = await t.http.get(`/api/scanner/pools/${pool}/history`).expect(200);
    const item = res.body.item as {
      expected: number;
      riskAdjustedApr: number;
      riskAdjustedApy?: number;
      risk: number;
      stablecoin: boolean;
      ilRisk: 'yes' | 'no';
      exposure: 'single' | 'multi';
      inputs: { level: number; basis: string; safety: Score };
    };
    expect(item.inputs.basis).toBe('history');
    // The level in APR: the mean of the APRs behind 2% and 12% (6.66%), not the APYs' 7%.
    const level = (aprOfApy(2) + aprOfApy(12)) / 2;
    expect(level).toBeCloseTo(6.6574, 3);
    expect(item.inputs.level).toBeCloseTo(level, 9);
    const meta = { stablecoin: item.stablecoin, ilRisk: item.ilRisk, exposure: item.exposure };
    const v3 = rapoolV3OfHistory(built, meta, item.inputs.safety)!;
    expect(item.expected).toBeCloseTo(v3.expected, 9);
    expect(item.riskAdjustedApr).toBeCloseTo(v3.riskAdjusted, 9);
    expect(item.riskAdjustedApr).toBeCloseTo(item.expected - item.risk, 9);
    expect(item).not.toHaveProperty('riskAdjustedApy');
    const answer = await t.http.get('/api/scanner').expect(200);
    expect(answer.body.method).toBe('rapool-v3');
  });
});
