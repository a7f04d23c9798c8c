/**
 * The importer on DeFiLlama's real answers, as recorded in /work/shared/real-llama (pools.json,
 * pools-later.json, chart-<pool>.json; origins in its SOURCES.md), read at test time from
 * `../shared/real-llama` next to the repository: every real pool reaches the scanner (nulls in
 * token lists included), an implausible day is left out of a real feed and named, selectors
 * resolve to the recorded pools, and ambiguous or missing selectors are named while their series
 * keep their last good data.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PoolSelector } from '@yield/contract';
import { API_ROOT } from '../src/platform/paths.ts';
import { seriesFeeds } from '../src/modules/yields/schemas.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { editFile, setup, tempDataDir, type TestContext } from './helpers.ts';
import { closeAll, importWith, readHistory, readSources } from './import-fixtures.ts';
import { startReplayServer, type ReplayServer } from './replay-server.ts';

const REAL = path.resolve(API_ROOT, '..', '..', 'shared', 'real-llama');
const real = (file: string) => path.join(REAL, file);
const readReal = async (file: string): Promise<unknown> =>
  JSON.parse(await readFile(real(file), 'utf8'));

beforeAll(() => {
  if (!existsSync(real('pools.json')))
    throw new Error(
      `The real DeFiLlama recordings are missing: expected ${REAL} (pools.json, pools-later.json, chart-<pool>.json) next to the repository`,
    );
});

/** The day after the charts were recorded (their last point is 2025-10-06). */
const NOW = new Date('2025-10-07T12:00:00Z');

/** Real pools of pools.json (and pools-later.json) and the selectors written for them. */
const REAL_POOLS = {
  /** synthetix-v3, Base, USDC: the selector's case differs from DeFiLlama's on purpose. */
  synthetixUsdc: 'b80953e3-0fdc-4300-b97a-7840c16a1ca3',
  /** uniswap-v3, Ethereum, ENA-WETH, poolMeta 0.3%. */
  uniswapEnaWeth: '5a7ea2ca-8651-487e-90ca-e7b06102a050',
  /** uniswap-v3, Base, WETH-TOSHI: two pools in both recordings, told apart by poolMeta. */
  toshi03: '4efba25a-e9e0-494c-bbb7-c48411434496',
  toshi1: 'ee01656a-8aa1-465a-bc30-b80d6821edb0',
  /** ston.fi, Ton, FPIBANK-USD₮: `rewardTokens: [null]`, dropped before nulls were accepted. */
  stonfi: 'eaa4490e-66b8-4d1b-b3ff-6cf45bd77ec9',
  /** astroport, Neutron, NEWT-NTRN: `underlyingTokens: [null, null]`, dropped likewise. */
  astroport: '41123754-b4e2-4dfe-baaf-8fe4fa067155',
} as const;

const SELECTORS: Record<string, PoolSelector> = {
  'lido-steth': {
    project: 'SYNTHETIX-V3',
    chain: 'base',
    symbol: 'usdc',
    underlyingToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  },
  'sky-susds': { project: 'uniswap-v3', chain: 'Ethereum', symbol: 'ENA-WETH', poolMeta: '0.3%' },
  'ethena-susde': { project: 'uniswap-v3', chain: 'Base', symbol: 'WETH-TOSHI', poolMeta: '0.3%' },
  'resolv-stusr': { project: 'ston.fi', chain: 'Ton', symbol: 'FPIBANK-USD₮' },
};

/** Real charts served for the resolved pools (the recordings hold no chart of these pools). */
const CHARTS: Record<string, string> = {
  // aerodrome-slipstream WETH-LSETH: 6584.78676% on 2025-08-07, 2889.80453% on 2025-08-08.
  [REAL_POOLS.synthetixUsdc]: 'chart-f9458688-7736-4dde-bc82-6ef9e8aa1951.json',
  [REAL_POOLS.uniswapEnaWeth]: 'chart-acc2047c-b479-4efd-97a9-1f65781da2b7.json',
  [REAL_POOLS.toshi03]: 'chart-bf0f9782-b1cb-419e-9ec2-e107ae8d71e1.json',
  [REAL_POOLS.toshi1]: 'chart-bf0f9782-b1cb-419e-9ec2-e107ae8d71e1.json',
  [REAL_POOLS.stonfi]: 'chart-78742f38-acd4-4be3-a536-2e563fa49a08.json',
};

/** sources.json with only the test selectors as feeds (every other feed removed). */
async function writeTestSources(
  dir: string,
  selectors: Record<string, PoolSelector>,
): Promise<void> {
  const sources = await readSources(dir);
  for (const { feeds } of seriesFeeds(sources)) feeds?.splice(0);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const record = node as { series?: string; feeds?: unknown[] };
    if (typeof record.series === 'string' && record.series in selectors)
      record.feeds = [{ provider: 'defillama', select: selectors[record.series] }];
    else if (record.feeds) delete record.feeds;
    Object.values(node).forEach(visit);
  };
  visit(sources);
  await editFile(path.join(dir, 'sources.json'), JSON.stringify(sources, null, 2));
}

/** A replay of DeFiLlama answering /pools with a real recording and the resolved pools' charts. */
async function realReplay(poolsFile: string): Promise<ReplayServer> {
  const server = await startReplayServer();
  server.setPools({ kind: 'json', body: await readReal(poolsFile) });
  for (const [pool, chart] of Object.entries(CHARTS))
    server.set(pool, { kind: 'json', body: await readChart(chart) });
  return server;
}

async function readChart(file: string): Promise<unknown> {
  if (!existsSync(real(file))) throw new Error(`no recorded chart ${real(file)}`);
  return readReal(file);
}

interface FeedRow {
  series: string;
  pool: string | null;
  ok: boolean;
  reason: string | null;
  candidates?: string[];
  leftOut?: { date: string | null; value: number | null; reason: string }[];
}
interface Health {
  status: string;
  import: {
    lastRun: {
      feeds: FeedRow[];
      pools?: { accepted: number; dropped: number; leftOut?: unknown[] };
    } | null;
  };
}

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

describe('data:import on real DeFiLlama recordings', () => {
  it('imports all 3,225 real pools of pools.json: nulls in token lists do not drop a pool, the scanner serves every one', async () => {
    const recorded = (await readReal('pools.json')) as { data: { pool: string }[] };
    expect(recorded.data).toHaveLength(3225);
    t = await setup({ now: () => NOW });
    await writeTestSources(t.dir, SELECTORS);
    await t.deps.store.refreshFile('sources');
    server = await realReplay('pools.json');
    const result = await importWith(t, server, { now: () => NOW });

    expect(result.pools).toEqual({
      ok: true,
      reason: null,
      received: 3225,
      accepted: 3225,
      dropped: 0,
      asOf: NOW.toISOString(),
    });
    const scan = (await t.http.get('/api/scanner?includeOutliers=true').expect(200)).body as {
      total: number;
    };
    expect(scan.total).toBe(3225);
    // The two pools with null token elements are among them.
    const written = JSON.parse(await readFile(path.join(t.dir, 'pools.json'), 'utf8')) as {
      data: { pool: string; rewardTokens?: unknown; underlyingTokens?: unknown }[];
    };
    const byId = new Map(written.data.map((p) => [p.pool, p]));
    expect(byId.get(REAL_POOLS.stonfi)?.rewardTokens).toEqual([null]);
    expect(byId.get(REAL_POOLS.astroport)?.underlyingTokens).toEqual([null, null]);
  });

  it('resolves selectors to the recorded pools, records the id and the day, and shows them in /api/sources', async () => {
    t = await setup({ now: () => NOW });
    await writeTestSources(t.dir, SELECTORS);
    await t.deps.store.refreshFile('sources');
    server = await realReplay('pools.json');
    const result = await importWith(t, server, { now: () => NOW });

    const feed = (series: string) => result.feeds.find((f) => f.series === series)!;
    expect(feed('lido-steth')).toMatchObject({ ok: true, pool: REAL_POOLS.synthetixUsdc });
    expect(feed('sky-susds')).toMatchObject({ ok: true, pool: REAL_POOLS.uniswapEnaWeth });
    expect(feed('ethena-susde')).toMatchObject({ ok: true, pool: REAL_POOLS.toshi03 });
    expect(feed('resolv-stusr')).toMatchObject({ ok: true, pool: REAL_POOLS.stonfi });
    expect(result.feeds.every((f) => f.ok)).toBe(true);

    const history = await readHistory(t.dir);
    expect(history.provenance?.['sky-susds']).toMatchObject({
      kind: 'defillama',
      pool: REAL_POOLS.uniswapEnaWeth,
      resolvedOn: '2025-10-07',
    });
    const sources = (await t.http.get('/api/sources').expect(200)).body as {
      id: number;
      feeds: { pool: string | null; url: string | null; select?: unknown; resolvedOn?: string }[];
    }[];
    expect(sources.find((s) => s.id === 2)!.feeds).toEqual([
      {
        provider: 'defillama',
        pool: REAL_POOLS.uniswapEnaWeth,
        url: `https://defillama.com/yields/pool/${REAL_POOLS.uniswapEnaWeth}`,
        series: 'sky-susds',
        select: SELECTORS['sky-susds'],
        resolvedOn: '2025-10-07',
      },
    ]);
  });

  it('leaves a real 1,000%+ day out of the series, names it in the output and health, and imports the rest', async () => {
    t = await setup({ now: () => NOW });
    await writeTestSources(t.dir, SELECTORS);
    await t.deps.store.refreshFile('sources');
    server = await realReplay('pools.json');
    const result = await importWith(t, server, { now: () => NOW });

    const lido = result.feeds.find((f) => f.series === 'lido-steth')!;
    expect(lido.ok).toBe(true);
    expect(lido.leftOut).toEqual([
      { date: '2025-08-07', value: 6584.78676, reason: 'APY 6584.78676% is above 1000%' },
      { date: '2025-08-08', value: 2889.80453, reason: 'APY 2889.80453% is above 1000%' },
    ]);
    const rows = (await readHistory(t.dir)).series['lido-steth']!;
    expect(rows.map((r) => r.date)).not.toContain('2025-08-07');
    expect(rows.map((r) => r.date)).toContain('2025-08-06');
    expect(rows.map((r) => r.date)).toContain('2025-08-09');
    expect(rows.at(-1)!.date).toBe('2025-10-06');
    expect(rows.every((r) => r.apy <= 1000)).toBe(true);

    const health = (await t.http.get('/api/health').expect(200)).body as Health;
    expect(health.import.lastRun!.feeds.find((f) => f.series === 'lido-steth')!.leftOut).toEqual(
      lido.leftOut,
    );
    expect(t.logger.lines).toContainEqual({
      level: 'warn',
      message: 'day left out of a feed',
      fields: {
        series: 'lido-steth',
        pool: REAL_POOLS.synthetixUsdc,
        date: '2025-08-07',
        value: 6584.78676,
        reason: 'APY 6584.78676% is above 1000%',
      },
    });
  });

  it('still refuses a real feed whose every day is implausible (and an empty one): the series keeps its last good data', async () => {
    t = await setup({ now: () => NOW });
    await writeTestSources(t.dir, SELECTORS);
    await t.deps.store.refreshFile('sources');
    server = await realReplay('pools.json');
    expect((await importWith(t, server, { now: () => NOW })).ok).toBe(true);
    const good = await readHistory(t.dir);

    // The real chart cut down to its two days above 1,000%; Ethena's answer is empty.
    const chart = (await readReal(CHARTS[REAL_POOLS.synthetixUsdc]!)) as {
      status: string;
      data: { timestamp: string; apy: number | null }[];
    };
    const spikes = chart.data.filter((p) => (p.apy ?? 0) > 1000);
    expect(spikes.map((p) => p.timestamp.slice(0, 10))).toEqual(['2025-08-07', '2025-08-08']);
    server.set(REAL_POOLS.synthetixUsdc, { kind: 'json', body: { ...chart, data: spikes } });
    server.set(REAL_POOLS.toshi03, { kind: 'json', body: { status: 'success', data: [] } });
    const result = await importWith(t, server, { now: () => NOW });

    const feed = (series: string) => result.feeds.find((f) => f.series === series)!;
    expect(feed('lido-steth')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^implausible value at \$\.data\[0\] \(2025-08-07\): APY 6584\.78676% is above 1000% \(and 1 more day\(s\)\)$/,
      ),
    });
    expect(feed('ethena-susde')).toMatchObject({ ok: false, reason: 'no data points' });
    const after = await readHistory(t.dir);
    for (const s of ['lido-steth', 'ethena-susde']) {
      expect(after.series[s]).toEqual(good.series[s]);
      expect(after.provenance?.[s]).toEqual(good.provenance?.[s]);
    }
  });

  it('names an ambiguous selector (with its candidates) and a missing one; their series keep their last good data', async () => {
    t = await setup({ now: () => NOW });
    await writeTestSources(t.dir, SELECTORS);
    await t.deps.store.refreshFile('sources');
    server = await realReplay('pools.json');
    expect((await importWith(t, server, { now: () => NOW })).ok).toBe(true);
    const good = await readHistory(t.dir);

    // sUSDS's selector now matches both WETH-TOSHI pools (no poolMeta); Ethena's names a pool
    // that is not in the list.
    await writeTestSources(t.dir, {
      ...SELECTORS,
      'sky-susds': { project: 'uniswap-v3', chain: 'Base', symbol: 'WETH-TOSHI' },
      'ethena-susde': { project: 'lido', chain: 'Ethereum', symbol: 'stETH' },
    });
    await t.deps.store.refreshFile('sources');
    server.setPools({ kind: 'json', body: await readReal('pools-later.json') });
    const later = new Date(NOW.getTime() + 86_400_000);
    const result = await importWith(t, server, { now: () => later });

    const feed = (series: string) => result.feeds.find((f) => f.series === series)!;
    expect(result.ok).toBe(false);
    expect(feed('sky-susds')).toMatchObject({ ok: false, pool: null });
    expect([...feed('sky-susds').candidates!].sort()).toEqual(
      [REAL_POOLS.toshi03, REAL_POOLS.toshi1].sort(),
    );
    expect(feed('sky-susds').reason).toMatch(
      /^selector matches 2 pools of the pools list \(project=uniswap-v3 chain=Base symbol=WETH-TOSHI\): /,
    );
    expect(feed('sky-susds').reason).toContain(REAL_POOLS.toshi03);
    expect(feed('sky-susds').reason).toContain(REAL_POOLS.toshi1);
    expect(feed('ethena-susde')).toMatchObject({
      ok: false,
      pool: null,
      reason:
        'selector matches no pool of the pools list (project=lido chain=Ethereum symbol=stETH)',
    });

    const after = await readHistory(t.dir);
    for (const s of ['sky-susds', 'ethena-susde']) {
      expect(after.series[s]).toEqual(good.series[s]);
      expect(after.provenance?.[s]).toEqual(good.provenance?.[s]);
    }
    const health = (await t.http.get('/api/health').expect(200)).body as Health;
    expect(health.status).toBe('degraded');
    const named = health.import.lastRun!.feeds.filter((f) => !f.ok);
    expect(named.map((f) => f.series).sort()).toEqual(['ethena-susde', 'sky-susds']);
    expect(named.find((f) => f.series === 'sky-susds')!.reason).toBe(feed('sky-susds').reason);
  });
});

describe('data:import --check-selectors', () => {
  it('prints each selector’s matches in a saved /pools answer; exits 1 when one matches none or several', async () => {
    const dir = await tempDataDir();
    await writeTestSources(dir, SELECTORS);
    const run = (...argv: string[]) => runImportCli([...argv, '--data-dir', dir], {}, () => NOW);
    const ok = await run('--check-selectors', '--pools', real('pools.json'));
    expect(ok.output).toContain(
      `Checked 4 selectors against /pools from file:${real('pools.json')}`,
    );
    expect(ok.output).toContain('Every selector matches exactly one pool.');
    expect(ok.output).toMatch(
      new RegExp(
        `ok +sky-susds  project=uniswap-v3 chain=Ethereum symbol=ENA-WETH poolMeta="0.3%"\\n {8}match ${REAL_POOLS.uniswapEnaWeth}  uniswap-v3 Ethereum ENA-WETH \\(0.3%\\)`,
      ),
    );
    expect(ok.exitCode).toBe(0);
    // Nothing was written.
    expect((await readHistory(dir)).provenance).toBeUndefined();

    await writeTestSources(dir, {
      ...SELECTORS,
      'sky-susds': { project: 'uniswap-v3', chain: 'Base', symbol: 'WETH-TOSHI' },
    });
    const many = await run('--check-selectors', '--pools', real('pools.json'));
    expect(many.exitCode).toBe(1);
    expect(many.output).toMatch(
      /MANY {2}sky-susds {2}project=uniswap-v3 chain=Base symbol=WETH-TOSHI\n/,
    );
    expect(many.output).toContain(`match ${REAL_POOLS.toshi03}  uniswap-v3 Base WETH-TOSHI (0.3%)`);
    expect(many.output).toContain(`match ${REAL_POOLS.toshi1}  uniswap-v3 Base WETH-TOSHI (1%)`);
    expect(many.output).toContain('Not every selector matches exactly one (expected) pool');
    await rm(dir, { recursive: true, force: true });
  });

  it('data:import --from names each day left out in its output, and takes all 3,225 real pools', async () => {
    const dir = await tempDataDir();
    const saved = await mkdtemp(path.join(os.tmpdir(), 'yield-real-saved-'));
    try {
      await writeTestSources(dir, { 'lido-steth': SELECTORS['lido-steth']! });
      await mkdir(path.join(saved, 'chart'));
      await copyFile(real('pools.json'), path.join(saved, 'pools.json'));
      await copyFile(
        real(CHARTS[REAL_POOLS.synthetixUsdc]!),
        path.join(saved, 'chart', `${REAL_POOLS.synthetixUsdc}.json`),
      );
      const { exitCode, output } = await runImportCli(
        ['--from', saved, '--data-dir', dir],
        {},
        () => NOW,
      );
      expect(output).toMatch(
        new RegExp(
          `ok {4}lido-steth +${REAL_POOLS.synthetixUsdc}  \\d+ days, \\d+ new, 0 updated, newest 2025-10-06, selector resolved, 2 day\\(s\\) left out\\n {8}left out 2025-08-07: APY 6584\\.78676% is above 1000%\\n {8}left out 2025-08-08: APY 2889\\.80453% is above 1000%`,
        ),
      );
      expect(output).toMatch(/ok {4}pools +\/pools {2}3225 pools \(0 malformed left out\)/);
      expect(exitCode).toBe(1); // the coins API has no recording: the prices fail, as they should
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(saved, { recursive: true, force: true });
    }
  });
});
