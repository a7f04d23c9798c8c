/**
 * No live data: once the site has imported from DeFiLlama (the replay server of api/test), a
 * series without a feed the import could use answers provenance kind `none`: no figures, no
 * history points, never GREAT, left out of its base rate's mean. The shipped sample data stays
 * as it is while nothing was imported, and rows an operator typed stay `operator`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apyToApr } from '../src/engine/index.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import {
  closeAll,
  importWith,
  NOW,
  POOL,
  readHistory,
  replayAllFeeds,
  strategies,
  TODAY,
} from './import-fixtures.ts';
import type { ReplayServer } from './replay-server.ts';
import { premiumToken } from './scanner-fixtures.ts';

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

/** Sources left without a feed here (Liquity has none; the others lose theirs in unfedDir). */
const UNFED_IDS = [3, 4, 7, 9, 11, 12];

/**
 * A data directory whose sources UNFED_IDS and the base rate's Spark DAI venue have no feed (the
 * shipped ones are found by selector; an operator may equally remove one).
 */
async function unfedDir(): Promise<string> {
  const dir = await tempDataDir();
  const file = path.join(dir, 'sources.json');
  const sources = JSON.parse(await readFile(file, 'utf8')) as {
    sources: { id: number; feeds?: unknown }[];
    baseRates: { components: { coins?: { venues: { series: string; feeds?: unknown }[] }[] } }[];
  };
  for (const s of sources.sources) if (UNFED_IDS.includes(s.id)) delete s.feeds;
  for (const rate of sources.baseRates)
    for (const coin of rate.components.coins ?? [])
      for (const venue of coin.venues) if (venue.series === 'spark-dai') delete venue.feeds;
  await writeFile(file, JSON.stringify(sources, null, 2));
  return dir;
}

interface Provenance {
  kind: string;
  asOf: string | null;
  stale: boolean;
  series?: string;
  components?: { series: string; kind: string; asOf: string | null; stale: boolean }[];
}
interface HistoryBody {
  data: { timestamp: number; tvl: number; apr: number }[];
  lastTvl: number;
  lastHolders: number | null;
  lastApr: number;
  lastRaApr: number;
  status: string;
  asOf: string | null;
  provenance: Provenance;
}
interface BaseRatesBody {
  baserateStable: number;
  baserateDefi: number;
  status: { stablecoin: string; defi: string };
  provenance: { stablecoin: Provenance; defi: Provenance };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('no live data after an import', () => {
  it('a fresh clone serves the shipped sample data, labelled sample, with its figures', async () => {
    t = await setup({ now: () => NOW });
    const rows = await strategies(t);
    expect(rows).toHaveLength(11);
    for (const row of rows) {
      expect(row.provenance.kind).toBe('sample');
      expect(row.status).toBe('ok');
      expect(row.yield30d).not.toBe(0);
    }
    const history = (await t.http.get('/api/history?id=3&range=30D').expect(200))
      .body as HistoryBody;
    expect(history.data.length).toBeGreaterThan(0);
    const settings = (await t.http.get('/api/settings').expect(200)).body as {
      data: { sample: boolean };
    };
    expect(settings.data.sample).toBe(true);
  });

  it('sources without a feed answer kind none, with no figures, no points and no GREAT', async () => {
    t = await setup({ dir: await unfedDir(), now: () => NOW });
    server = await replayAllFeeds(t.dir);
    expect((await importWith(t, server)).ok).toBe(true);

    const rows = await strategies(t);
    const unfed = rows.filter((r) => UNFED_IDS.includes(r.id));
    expect(unfed).toHaveLength(UNFED_IDS.length);
    for (const row of unfed) {
      expect(row).toMatchObject({
        yield30d: 0,
        riskAdjustedYield30d: 0,
        status: 'insufficient_data',
        great: false,
        asOf: null,
        provenance: { kind: 'none', asOf: null, stale: false },
      });
      expect((row as unknown as { tvl: number }).tvl).toBe(0);
    }
    // Every other source is live.
    for (const row of rows.filter((r) => !UNFED_IDS.includes(r.id))) {
      expect(row.provenance.kind).toBe('defillama');
      expect(row.status).toBe('ok');
    }

    for (const id of UNFED_IDS) {
      const history = (await t.http.get(`/api/history?id=${id}&range=180D`).expect(200))
        .body as HistoryBody;
      expect(history).toMatchObject({
        data: [],
        lastTvl: 0,
        lastHolders: null,
        lastApr: 0,
        lastRaApr: 0,
        status: 'insufficient_data',
        asOf: null,
        provenance: { kind: 'none', series: expect.any(String) },
      });
      const breakdown = (await t.http.get(`/api/strategies/${id}/breakdown`).expect(200)).body as {
        status: string;
        great: boolean;
        window: { days: number };
        provenance: Provenance;
      };
      expect(breakdown).toMatchObject({
        status: 'insufficient_data',
        great: false,
        window: { days: 0 },
        provenance: { kind: 'none' },
      });
    }

    const sources = (await t.http.get('/api/sources').expect(200)).body as {
      id: number;
      feeds: unknown[];
      provenance: Provenance;
    }[];
    for (const id of UNFED_IDS) {
      const source = sources.find((s) => s.id === id)!;
      expect(source.feeds).toEqual([]);
      expect(source.provenance.kind).toBe('none');
    }

    // The premium analysis of such a source says so instead of a made-up window.
    const token = await premiumToken(t);
    const analysis = (
      await t.http
        .get('/api/premium/strategies/7')
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body as { summary: string; history: unknown[]; breakdown: { provenance: Provenance } };
    expect(analysis.history).toEqual([]);
    expect(analysis.breakdown.provenance.kind).toBe('none');
    expect(analysis.summary).toBe(
      'Fluid (InstaDapp) - GHO Lending has no live data yet: the site imports its figures from DeFiLlama and has no feed for this source, so no APR or risk-adjusted APR is published.',
    );

    // Nothing shown is sample any more: the site's data note no longer says so.
    const settings = (await t.http.get('/api/settings').expect(200)).body as {
      data: { sample: boolean; asOf: string; stale: boolean };
    };
    expect(settings.data).toEqual({ sample: false, asOf: TODAY, stale: false });
  });

  it("a base rate's component without live data is left out of its mean, and the rate says so", async () => {
    t = await setup({ dir: await unfedDir(), now: () => NOW });
    server = await replayAllFeeds(t.dir);
    expect((await importWith(t, server)).ok).toBe(true);
    const history = await readHistory(t.dir);
    const last = (series: string) => history.series[series]!.at(-1)!.apy;

    const rates = (await t.http.get('/api/baserate').expect(200)).body as BaseRatesBody;
    expect(rates.status.stablecoin).toBe('ok');
    const stable = rates.provenance.stablecoin;
    expect(stable.kind).toBe('defillama');
    expect(stable.components).toContainEqual({
      series: 'spark-dai',
      kind: 'none',
      asOf: null,
      stale: false,
    });
    expect(stable.components!.filter((c) => c.kind !== 'none').map((c) => c.series)).toEqual([
      'aave-v3-usdc',
      'compound-v3-usdc',
      'aave-v3-usdt',
      'compound-v3-usdt',
      'sky-dsr-dai',
    ]);

    // Every replayed feed has the same TVL on a day, so a coin's venues weigh alike; DAI is the
    // DSR alone (Spark DAI, without live data, is not averaged in with its sample figures).
    const expected = mean([
      mean([last('aave-v3-usdc'), last('compound-v3-usdc')]),
      mean([last('aave-v3-usdt'), last('compound-v3-usdt')]),
      last('sky-dsr-dai'),
    ]);
    const base = (await t.http.get('/api/history?id=base-stablecoin&range=7D').expect(200))
      .body as HistoryBody;
    expect(base.data.at(-1)!.apr).toBeCloseTo(apyToApr(expected), 10);
    expect(base.data.at(-1)!.tvl).toBe(
      ['aave-v3-usdc', 'compound-v3-usdc', 'aave-v3-usdt', 'compound-v3-usdt', 'sky-dsr-dai']
        .map((s) => history.series[s]!.at(-1)!.tvlUsd)
        .reduce((a, b) => a + b, 0),
    );

    // The crypto base rate has a feed for each of its components: all live.
    expect(rates.provenance.defi.kind).toBe('defillama');
    expect(rates.provenance.defi.components!.every((c) => c.kind === 'defillama')).toBe(true);
  });

  it('a feed that fails on its first import leaves its series without live data', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    server.set(POOL.susds, { kind: 'raw', status: 502, body: 'Bad Gateway' });
    await importWith(t, server);
    const sky = (await strategies(t)).find((s) => s.id === 2)!;
    expect(sky).toMatchObject({
      status: 'insufficient_data',
      great: false,
      yield30d: 0,
      provenance: { kind: 'none' },
    });
  });

  it('rows an operator typed stay operator, with their figures', async () => {
    const dir = await tempDataDir();
    const shipped = await readHistory(dir);
    await writeFile(
      path.join(dir, 'history.json'),
      JSON.stringify({ ...shipped, sample: false }, null, 2),
    );
    t = await setup({ dir, now: () => NOW });
    server = await replayAllFeeds(t.dir);
    expect((await importWith(t, server)).ok).toBe(true);
    const liquity = (await strategies(t)).find((s) => s.id === 3)!;
    expect(liquity.provenance.kind).toBe('operator');
    expect(liquity.status).toBe('ok');
    expect(liquity.yield30d).not.toBe(0);
  });
});
