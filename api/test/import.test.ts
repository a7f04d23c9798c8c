/**
 * The importer against a local replay of DeFiLlama's yields API: what lands in history.json, what
 * the API computes from it, and that a failing feed never costs a series its last good data.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR } from '../src/composition/deps.ts';
import { apyToApr, mean } from '../src/engine/index.ts';
import { editFile, setup, tempDataDir, type TestContext } from './helpers.ts';
import {
  closeAll,
  importWith,
  NOW,
  POOL,
  readHistory,
  readSources,
  replayAllFeeds,
  strategies,
  TODAY,
} from './import-fixtures.ts';
import { chartBody, dailyPoints, type ChartPoint, type ReplayServer } from './replay-server.ts';

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

interface SourceRow {
  id: number;
  key?: string;
  feeds: { provider: string; pool: string; url: string; series: string }[];
  provenance: { kind: string; asOf: string | null; stale: boolean };
}
interface Health {
  status: string;
  import: {
    lastRun: {
      ok: boolean;
      from: string;
      feeds: { series: string; pool: string; ok: boolean; reason: string | null }[];
    } | null;
  };
}

/** Lido's feed as DeFiLlama publishes it, with every irregularity the importer must handle. */
function irregularLidoPoints(): {
  points: ChartPoint[];
  expected: { date: string; apy: number }[];
} {
  const base = dailyPoints({ lastDay: TODAY, days: 40, apy: 3.1, tvlUsd: 9e9 });
  const points = base.filter((p) => !p.timestamp.startsWith('2026-11-19')); // a missing day
  const at = (day: string) => points.findIndex((p) => p.timestamp.startsWith(day));
  // Two snapshots of 2026-11-20: the later one (23:59:59) wins although it comes first.
  points[at('2026-11-20')] = {
    ...points[at('2026-11-20')]!,
    timestamp: '2026-11-20T23:59:59.000Z',
    apy: 3.3,
  };
  points.splice(at('2026-11-20') + 1, 0, {
    ...points[at('2026-11-20')]!,
    timestamp: '2026-11-20T02:00:00.000Z',
    apy: 2,
  });
  // apy null: the total is apyBase + apyReward (here apyBase alone).
  points[at('2026-11-21')] = {
    ...points[at('2026-11-21')]!,
    apy: null,
    apyBase: 3.2,
    apyReward: null,
  };
  // A reward part.
  points[at('2026-11-22')] = {
    ...points[at('2026-11-22')]!,
    apy: 3.5,
    apyBase: 3.1,
    apyReward: 0.4,
  };
  const expected = [...new Set(base.map((p) => p.timestamp.slice(0, 10)))]
    .filter((d) => d !== '2026-11-19')
    .map((date) => ({
      date,
      apy:
        date === '2026-11-20'
          ? 3.3
          : date === '2026-11-21'
            ? 3.2
            : date === '2026-11-22'
              ? 3.5
              : 3.1,
    }));
  return { points, expected };
}

describe('data:import from the DeFiLlama yields API', () => {
  it('keeps one row per UTC day (the latest snapshot), skips nothing it should not, maps the fields, and the API computes from it', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const { points, expected } = irregularLidoPoints();
    server.set(POOL.lido, { kind: 'json', body: chartBody(points) });

    const result = await importWith(t, server);
    expect(result.ok).toBe(true);
    expect(result.written).toBe(true);
    // 12 feeds named by id (and selector) and 6 by selector only; Liquity has no DeFiLlama pool,
    // only its on-chain feed, skipped without RPC_URL_ETHEREUM.
    expect(result.feeds).toHaveLength(18);
    expect(result.unfed).toEqual([]);
    expect(result.skipped?.map((s) => s.series)).toContain('liquity-sp');
    expect(server.userAgents.every((ua) => ua.startsWith('pigi-yield-importer/'))).toBe(true);

    const history = await readHistory(t.dir);
    const lido = history.series['lido-steth']!;
    // The sample rows are gone: the series is the pool's history now.
    expect(lido.map((r) => r.date)).toEqual(expected.map((e) => e.date));
    expect(lido.map((r) => r.apy)).toEqual(expected.map((e) => e.apy));
    expect(lido.find((r) => r.date === '2026-11-21')).toEqual({
      date: '2026-11-21',
      apy: 3.2,
      tvlUsd: 9e9,
    });
    expect(lido.find((r) => r.date === '2026-11-22')).toEqual({
      date: '2026-11-22',
      apy: 3.5,
      apyReward: 0.4,
      tvlUsd: 9e9,
    });
    expect(history.provenance?.['lido-steth']).toEqual({
      kind: 'defillama',
      pool: POOL.lido,
      asOf: TODAY,
      importedAt: NOW.toISOString(),
      resolvedOn: TODAY,
    });
    expect(history.asOf).toBe(TODAY);
    expect(history.sample).toBe(true); // the series without provenance are still sample
    // A series not imported is left exactly as shipped.
    expect(history.series['liquity-sp']).toEqual(
      (await readHistory(DEFAULT_DATA_DIR)).series['liquity-sp'],
    );

    // The API serves the new figures at once (the import ran in its process).
    const lidoRow = (await strategies(t)).find((s) => s.id === 13)!;
    const window = expected.slice(-30).map((e) => apyToApr(e.apy));
    expect(lidoRow.yield30d).toBeCloseTo(mean(window), 10);
    expect(lidoRow.asOf).toBe(TODAY);
    expect(lidoRow.status).toBe('ok');
    expect(lidoRow.provenance).toMatchObject({
      kind: 'defillama',
      asOf: TODAY,
      stale: false,
      pool: POOL.lido,
    });
    // Liquity has no feed: once the site has imported, it has no live data (no sample figures).
    const liquity = (await strategies(t)).find((s) => s.id === 3)!;
    expect(liquity.provenance).toMatchObject({ kind: 'none', asOf: null, stale: false });

    const sources = (await t.http.get('/api/sources').expect(200)).body as SourceRow[];
    expect(sources.find((s) => s.id === 13)!.feeds).toEqual([
      {
        provider: 'defillama',
        pool: POOL.lido,
        url: `https://defillama.com/yields/pool/${POOL.lido}`,
        series: 'lido-steth',
        select: { project: 'lido', chain: 'Ethereum', symbol: 'stETH' },
        resolvedOn: TODAY,
      },
      {
        provider: 'onchain',
        chain: 'ethereum',
        kind: 'rate',
        address: '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84',
        call: 'getPooledEthByShares',
        series: 'lido-steth',
      },
    ]);
    expect(sources.find((s) => s.id === 3)!.feeds).toEqual([
      {
        provider: 'onchain',
        chain: 'ethereum',
        kind: 'liquity-stability-pool',
        address: '0x66017D22b0f8556afDd19FC67041899Eb65a21bb',
        series: 'liquity-sp',
      },
    ]);
    const baseDefi = sources.find((s) => s.key === 'base-defi')!;
    expect(baseDefi.feeds.map((f) => f.pool)).toEqual([
      POOL.lido,
      undefined, // stETH's on-chain feed
      POOL.reth,
      undefined, // rETH's on-chain feed
      POOL.cbeth,
      undefined, // cbETH's on-chain feed
    ]);
    expect(baseDefi.provenance).toMatchObject({ kind: 'defillama', stale: false });
    // Spark DAI is fed by selector: the stablecoin base rate is imported as a whole.
    const baseStable = sources.find((s) => s.key === 'base-stablecoin')!;
    // Six DeFiLlama pools, each venue also read on chain: sDAI, the Aave v3 and SparkLend
    // reserves, the Compound III Comets.
    expect(baseStable.feeds).toHaveLength(12);
    expect(
      baseStable.feeds
        .filter((f) => f.provider === 'onchain')
        .map((f) => `${f.series}:${(f as unknown as { kind: string }).kind}`),
    ).toEqual([
      'aave-v3-usdc:aave-v3-reserve',
      'compound-v3-usdc:comet',
      'aave-v3-usdt:aave-v3-reserve',
      'compound-v3-usdt:comet',
      'sky-dsr-dai:erc4626',
      'spark-dai:aave-v3-reserve',
    ]);
    expect(baseStable.provenance.kind).toBe('defillama');
    const settings = (await t.http.get('/api/settings').expect(200)).body as {
      data: { sample: boolean; asOf: string };
    };
    expect(settings.data).toEqual({ sample: false, asOf: TODAY, stale: false });

    const health = (await t.http.get('/api/health').expect(200)).body as Health;
    expect(health.status).toBe('ok');
    expect(health.import.lastRun).toMatchObject({ ok: true, from: server.url });
  });

  it('once every shown series is imported, the settings no longer say sample', async () => {
    const dir = await tempDataDir();
    // Give the series without a public pool id a DeFiLlama feed too (an operator would enter
    // theirs); Liquity's on-chain feed is not read without RPC_URL_ETHEREUM.
    const sources = await readSources(dir);
    const fake = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    let n = 0;
    for (const s of sources.sources)
      if (!s.feeds?.some((f) => f.provider === 'defillama'))
        s.feeds = [...(s.feeds ?? []), { provider: 'defillama', pool: fake(++n) }];
    for (const b of sources.baseRates) {
      if (b.components.kind === 'stablecoin')
        for (const c of b.components.coins)
          for (const v of c.venues)
            if (!v.feeds) v.feeds = [{ provider: 'defillama', pool: fake(++n) }];
    }
    await writeFile(path.join(dir, 'sources.json'), JSON.stringify(sources));
    t = await setup({ dir, now: () => NOW });
    server = await replayAllFeeds(t.dir);
    expect((await importWith(t, server)).ok).toBe(true);
    const settings = (await t.http.get('/api/settings').expect(200)).body as { data: object };
    expect(settings.data).toEqual({ sample: false, asOf: TODAY, stale: false });
    expect((await strategies(t)).every((s) => s.provenance.kind === 'defillama')).toBe(true);
  });

  it('each failure of a feed keeps its last good data; the log and GET /api/health name the feed and the reason', async () => {
    t = await setup({ now: () => new Date(NOW.getTime() + 86_400_000) });
    server = await replayAllFeeds(t.dir);
    expect((await importWith(t, server)).ok).toBe(true);
    const good = await readHistory(t.dir);
    await server.close();

    // The next day: every feed has one more day, six of them fail in six different ways.
    server = await replayAllFeeds(t.dir, '2026-11-24');
    server.set(POOL.aaveUsdc, { kind: 'raw', status: 500, body: '{"error":"Internal"}' });
    server.set(POOL.compoundUsdc, { kind: 'hang' });
    server.set(POOL.aaveUsdt, {
      kind: 'raw',
      status: 200,
      body: '{"status":"success","data":[{"timestamp":',
    });
    server.set(POOL.compoundUsdt, {
      kind: 'json',
      body: {
        status: 'success',
        data: [{ timestamp: '2026-11-24T01:00:00.000Z', tvlUsd: '12', apy: 3 }],
      },
    });
    server.set(POOL.dsr, {
      kind: 'json',
      body: chartBody(
        dailyPoints({ lastDay: '2026-11-24', days: 60, apy: (i) => (i === 59 ? 1500 : 4) }),
      ),
    });
    server.set(POOL.reth, {
      kind: 'json',
      body: chartBody(
        dailyPoints({
          lastDay: '2026-11-24',
          days: 60,
          apy: 3,
          tvlUsd: (i) => (i === 40 ? -5 : 1e8),
        }),
      ),
    });
    const result = await importWith(t, server, {
      now: () => new Date(NOW.getTime() + 86_400_000),
      timeoutMs: 300,
    });

    expect(result.ok).toBe(false);
    const reason = (series: string) => result.feeds.find((f) => f.series === series)!.reason;
    expect(reason('aave-v3-usdc')).toBe('HTTP 500 Internal Server Error');
    expect(reason('compound-v3-usdc')).toBe('timed out after 0.3 s');
    expect(reason('aave-v3-usdt')).toMatch(/^malformed JSON: /);
    expect(reason('compound-v3-usdt')).toMatch(
      /^unexpected response shape: \$\.data\[0\]\.tvlUsd: Invalid input: expected number, received string/,
    );
    // An implausible day is left out and named; the rest of the feed is imported.
    const feed = (series: string) => result.feeds.find((f) => f.series === series)!;
    expect(feed('sky-dsr-dai')).toMatchObject({
      ok: true,
      days: 59,
      leftOut: [{ date: '2026-11-24', value: 1500, reason: 'APY 1500% is above 1000%' }],
    });
    expect(feed('rocketpool-reth')).toMatchObject({
      ok: true,
      days: 59,
      leftOut: [{ date: '2026-11-05', value: -5, reason: 'negative TVL -5' }],
    });
    const failed = ['aave-v3-usdc', 'compound-v3-usdc', 'aave-v3-usdt', 'compound-v3-usdt'];
    expect(
      result.feeds
        .filter((f) => !f.ok)
        .map((f) => f.series)
        .sort(),
    ).toEqual([...failed].sort());

    // Nothing good is lost: the failed series are exactly as before, the others moved on.
    const after = await readHistory(t.dir);
    for (const s of failed) {
      expect(after.series[s]).toEqual(good.series[s]);
      expect(after.provenance?.[s]).toEqual(good.provenance?.[s]);
    }
    expect(after.series['lido-steth']!.at(-1)!.date).toBe('2026-11-24');
    expect(after.series['lido-steth']).toHaveLength(61);
    expect(after.series['lido-steth']!.slice(0, 60)).toEqual(good.series['lido-steth']);

    const health = (await t.http.get('/api/health').expect(200)).body as Health;
    expect(health.status).toBe('degraded');
    expect(health.import.lastRun!.ok).toBe(false);
    expect(health.import.lastRun!.feeds).toContainEqual(
      expect.objectContaining({
        series: 'aave-v3-usdc',
        pool: POOL.aaveUsdc,
        ok: false,
        reason: 'HTTP 500 Internal Server Error',
      }),
    );
    expect(health.import.lastRun!.feeds).toContainEqual(
      expect.objectContaining({ series: 'lido-steth', ok: true, reason: null }),
    );
    expect(t.logger.lines).toContainEqual({
      level: 'error',
      message: 'feed not imported, keeping its last good data',
      fields: {
        series: 'compound-v3-usdc',
        pool: POOL.compoundUsdc,
        reason: 'timed out after 0.3 s',
      },
    });
  });

  it('a feed that fails on its first import leaves the sample data in place', async () => {
    t = await setup({ now: () => NOW });
    const shipped = await readHistory(t.dir);
    server = await replayAllFeeds(t.dir);
    server.set(POOL.lido, { kind: 'raw', status: 502, body: 'Bad Gateway' });
    const result = await importWith(t, server);
    expect(result.ok).toBe(false);
    const history = await readHistory(t.dir);
    expect(history.series['lido-steth']).toEqual(shipped.series['lido-steth']);
    expect(history.provenance?.['lido-steth']).toBeUndefined();
    // The history file keeps the sample rows, but the site has imported: no live data for Lido.
    expect((await strategies(t)).find((s) => s.id === 13)!.provenance.kind).toBe('none');
    // An empty series is a failure too, not a reason to drop data.
    server.set(POOL.lido, { kind: 'json', body: chartBody([]) });
    const again = await importWith(t, server);
    expect(again.feeds.find((f) => f.series === 'lido-steth')!.reason).toBe('no data points');
    expect((await readHistory(t.dir)).series['lido-steth']).toEqual(shipped.series['lido-steth']);
  });

  it('a failure no step handles (here the logger throws) still writes what was imported and the run’s status with the error', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const log = t.logger;
    const logger = {
      ...log,
      info: (message: string, fields?: Record<string, unknown>) => {
        if (message === 'feed imported') throw new Error('the log stream is closed');
        log.info(message, fields);
      },
    };
    const result = await importWith(t, server, { logger });
    expect([result.ok, result.written, result.error]).toEqual([
      false,
      true,
      'the import stopped: the log stream is closed',
    ]);
    expect((await readHistory(t.dir)).provenance?.['lido-steth']).toMatchObject({
      kind: 'defillama',
    });
    const status = JSON.parse(await readFile(path.join(t.dir, 'import-status.json'), 'utf8')) as {
      lastRun: { startedAt: string; ok: boolean; error: string };
    };
    expect(status.lastRun).toMatchObject({
      startedAt: NOW.toISOString(),
      ok: false,
      error: 'the import stopped: the log stream is closed',
    });
    expect(log.lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      'import stopped',
    ]);
  });

  it('takes the newest --days days, keeps older stored days, and writes nothing when nothing changed', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    await importWith(t, server, { days: 10 });
    expect((await readHistory(t.dir)).series['lido-steth']!.map((r) => r.date)[0]).toBe(
      '2026-11-14',
    );
    await importWith(t, server, { days: 20 });
    const history = await readHistory(t.dir);
    expect(history.series['lido-steth']).toHaveLength(20);

    const before = await stat(path.join(t.dir, 'history.json'));
    const again = await importWith(t, server, { days: 5 });
    expect(again.ok).toBe(true);
    expect(again.written).toBe(false);
    expect(again.feeds.every((f) => f.added === 0 && f.updated === 0)).toBe(true);
    expect((await stat(path.join(t.dir, 'history.json'))).mtimeMs).toBe(before.mtimeMs);
    // Older days the feed no longer sends are kept.
    expect((await readHistory(t.dir)).series['lido-steth']).toHaveLength(20);
  });
});

describe('feeds in sources.json', () => {
  it('are validated: a malformed pool id or two pools for one series are refused with their path', async () => {
    t = await setup();
    const file = path.join(t.dir, 'sources.json');
    const sources = await readSources(t.dir);
    sources.sources[0]!.feeds = [{ provider: 'defillama', pool: 'not-a-pool' }];
    await editFile(file, JSON.stringify(sources));
    await t.deps.store.refresh();
    let error = (
      (await t.http.get('/api/health')).body as { files: Record<string, { error: string }> }
    ).files['sources.json']!.error;
    expect(error).toContain('$.sources[0].feeds[0].pool: expected a DeFiLlama pool id');

    const fresh = await readSources(t.dir);
    const defi = fresh.baseRates.find((b) => b.key === 'base-defi')!;
    if (defi.components.kind !== 'crypto') throw new Error('base-defi is crypto');
    const steth = defi.components.assets[0]!;
    if (!('series' in steth)) throw new Error('stETH has its own series');
    steth.feeds = [{ provider: 'defillama', pool: POOL.susde }];
    await editFile(file, JSON.stringify(fresh));
    await t.deps.store.refresh();
    error = ((await t.http.get('/api/health')).body as { files: Record<string, { error: string }> })
      .files['sources.json']!.error;
    expect(error).toContain(
      `$.baseRates[1].components.assets[0].feeds[0].pool: series lido-steth is fed from pool ${POOL.lido} elsewhere in this file`,
    );
  });
});
