/**
 * Token prices from a local replay of DeFiLlama's coins API (api/src/modules/import/coins.ts) and the
 * warnings detected from the imported data (api/src/engine/warnings.ts) as the API serves them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DetectedWarning } from '@yield/contract';
import type { PricesFile } from '../src/modules/yields/schemas.ts';
import { hasBlockingWarning } from '../src/modules/yields/snapshot.ts';
import { editFile, setup, type TestContext } from './helpers.ts';
import {
  closeAll,
  importWith,
  NOW,
  POOL,
  readSources,
  replayAllFeeds,
  TODAY,
} from './import-fixtures.ts';
import {
  chartBody,
  coinsBody,
  dailyPoints,
  dailyPrices,
  type ReplayServer,
} from './replay-server.ts';

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

const USDE = 'ethereum:0x4c9EDD5852cd905f086C759E8383e09bff1E68B3';
const STUSR = 'ethereum:0x6c8984bc7DBBeDAf4F6b2FD766f16eBB7d10AAb4';
const USDS = 'ethereum:0xdC035D45d973E3EC169d2276DDab16f1e407384F';
const USD0PP = 'ethereum:0x35D8949372D46B7a3D5A56006AE77B215fc69bC0';
const GHO = 'ethereum:0x40D16FC0246aD3160Ccc09B8D0D3A2cD28aE6C2f';

async function readPrices(dir: string): Promise<PricesFile> {
  return JSON.parse(await readFile(path.join(dir, 'prices.json'), 'utf8')) as PricesFile;
}

interface Row {
  id: number;
  great: boolean;
  warnings?: DetectedWarning[];
}
async function rowOf(t: TestContext, endpoint: string, id: number): Promise<Row> {
  const rows = (await t.http.get(endpoint).expect(200)).body as Row[];
  return rows.find((r) => r.id === id)!;
}

describe('token prices from the coins API', () => {
  it('imports a price a day per token; a missing day stays missing; points below confidence 0.9 are left out and counted', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const prices = dailyPrices({ lastDay: TODAY, days: 40, price: (i) => 1 + i / 10_000 })
      .filter((p) => new Date(p.timestamp * 1000).toISOString().slice(0, 10) !== '2026-11-19')
      .map((p, i) => (i >= 10 && i < 13 ? { ...p, confidence: 0.5 } : p));
    server.setCoin(USDE, { kind: 'json', body: coinsBody(USDE, prices) });
    // A coin whose confidence is below 0.9: every point is left out, nothing is imported.
    const before = (await readPrices(t.dir)).coins[STUSR];
    server.setCoin(STUSR, {
      kind: 'json',
      body: coinsBody(STUSR, dailyPrices({ lastDay: TODAY, days: 40, price: 1 }), 0.8),
    });

    const result = await importWith(t, server);
    const usde = result.prices.find((p) => p.coin === USDE)!;
    expect(usde).toEqual({
      coin: USDE,
      ok: true,
      reason: null,
      days: 36,
      lowConfidence: 3,
      added: 36,
      updated: 0,
      newestDay: TODAY,
    });
    expect(server.requests.some((r) => r.startsWith(`/chart/${USDE}?start=`))).toBe(true);
    expect(server.requests.find((r) => r.startsWith(`/chart/${USDE}`))).toMatch(/&period=1d$/);

    const file = await readPrices(t.dir);
    const days = file.coins[USDE]!.map((p) => p.date);
    expect(days).toHaveLength(36);
    expect(days).not.toContain('2026-11-19');
    expect(file.coins[USDE]!.at(-1)).toEqual({ date: TODAY, price: 1.0039 });
    expect(file.provenance?.[USDE]).toEqual({
      kind: 'defillama',
      asOf: TODAY,
      importedAt: NOW.toISOString(),
    });

    const stusr = result.prices.find((p) => p.coin === STUSR)!;
    expect(stusr.ok).toBe(false);
    expect(stusr.reason).toBe('no price with confidence 0.9 or more (40 left out)');
    expect(file.coins[STUSR]).toEqual(before);
    expect(file.provenance?.[STUSR]).toBeUndefined();
    expect(result.ok).toBe(false);

    const health = (await t.http.get('/api/health').expect(200)).body as {
      status: string;
      import: { lastRun: { ok: boolean; prices: { coin: string; ok: boolean }[] } };
    };
    expect(health.status).toBe('degraded');
    expect(health.import.lastRun.prices.map((p) => [p.coin, p.ok])).toContainEqual([STUSR, false]);
    expect(health.import.lastRun.prices.map((p) => [p.coin, p.ok])).toContainEqual([USDE, true]);
  });

  it('a malformed or failing answer keeps the token’s last good prices and says why', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    expect((await importWith(t, server)).ok).toBe(true);
    const good = await readPrices(t.dir);

    server.setCoin(USDE, { kind: 'raw', status: 200, body: '<html>rate limited</html>' });
    server.setCoin(STUSR, { kind: 'json', body: { coins: { [STUSR]: { prices: 'none' } } } });
    server.setCoin(USDS, { kind: 'raw', status: 502, body: '{}' });
    server.setCoin(USD0PP, { kind: 'json', body: { coins: {} } });
    server.setCoin(GHO, {
      kind: 'json',
      body: coinsBody(GHO, dailyPrices({ lastDay: TODAY, days: 5, price: -1 })),
    });
    const result = await importWith(t, server);
    const reason = (coin: string) => result.prices.find((p) => p.coin === coin)!.reason;
    expect(reason(USDE)).toMatch(/^malformed JSON: /);
    expect(reason(STUSR)).toBe(
      `unexpected response shape: $.coins.${STUSR}.prices: Invalid input: expected array, received string`,
    );
    expect(reason(USDS)).toBe('HTTP 502 Bad Gateway');
    expect(reason(USD0PP)).toBe(`no prices for ${USD0PP} in the response`);
    expect(reason(GHO)).toMatch(/^implausible value at .*: price -1$/);
    expect(result.ok).toBe(false);
    const after = await readPrices(t.dir);
    for (const coin of [USDE, STUSR, USDS, USD0PP, GHO])
      expect(after.coins[coin]).toEqual(good.coins[coin]);
  });

  it('prices that stop arriving are stale in /api/health after 48 h', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    server.setCoin(USDE, {
      kind: 'json',
      body: coinsBody(USDE, dailyPrices({ lastDay: '2026-11-20', days: 30, price: 1 })),
    });
    await importWith(t, server);
    const health = (await t.http.get('/api/health').expect(200)).body as {
      stale: { series: string; asOf: string | null }[];
    };
    expect(health.stale).toContainEqual({ series: `price:${USDE}`, asOf: '2026-11-20' });
    expect(health.stale.filter((s) => s.series.startsWith('price:'))).toHaveLength(1);
  });
});

describe('warnings detected from the imported data', () => {
  it('a 60% TVL drop and a 0.97 stablecoin open outflow and depeg warnings in /api/strategies and /api/sources', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    server.set(POOL.susds, {
      kind: 'json',
      body: chartBody(
        dailyPoints({ lastDay: TODAY, days: 60, apy: 4.5, tvlUsd: (i) => (i < 55 ? 1e9 : 4e8) }),
      ),
    });
    server.setCoin(USDS, {
      kind: 'json',
      body: coinsBody(
        USDS,
        dailyPrices({ lastDay: TODAY, days: 60, price: (i) => (i < 58 ? 1 : 0.97) }),
      ),
    });
    await importWith(t, server);
    for (const endpoint of ['/api/strategies', '/api/sources']) {
      const row = await rowOf(t, endpoint, 2);
      const open = row.warnings!.filter((w) => w.closedOn === null);
      expect(open.map((w) => [w.kind, w.openedOn])).toEqual([
        ['outflow', '2026-11-19'],
        ['depeg', '2026-11-22'],
      ]);
      expect(open[0]!.figures).toMatchObject({ tvl: 4e8, tvl7dAgo: 1e9, drop7dPct: 60 });
      expect(open[1]!.text).toBe('The token traded at $0.97, 3% below its $1 peg.');
      expect(open.every((w) => w.detected)).toBe(true);
    }
    expect((await rowOf(t, '/api/strategies', 2)).great).toBe(false);
  });
});

describe('GREAT and dismissals', () => {
  it('an open depeg or outflow warning takes GREAT away; an operator’s dated dismissal gives it back', async () => {
    t = await setup({ now: () => NOW });
    expect((await rowOf(t, '/api/strategies', 2)).great).toBe(true);

    // USDS at $0.97 on the sample's last two days.
    const pricesFile = path.join(t.dir, 'prices.json');
    const prices = await readPrices(t.dir);
    const usds = prices.coins[USDS]!;
    for (const p of usds.slice(-2)) p.price = 0.97;
    await editFile(pricesFile, JSON.stringify(prices));
    await t.deps.store.refreshFile('prices');
    const warned = await rowOf(t, '/api/strategies', 2);
    expect(warned.great).toBe(false);
    const depeg = warned.warnings!.find((w) => w.kind === 'depeg')!;
    expect(depeg).toMatchObject({ openedOn: usds.at(-2)!.date, closedOn: null, detected: true });
    const breakdown = (await t.http.get('/api/strategies/2/breakdown').expect(200)).body as {
      great: boolean;
    };
    expect(breakdown.great).toBe(false);

    const sources = await readSources(t.dir);
    sources.sources.find((s) => s.id === 2)!.warningDismissals = [
      {
        kind: 'depeg',
        openedOn: depeg.openedOn,
        on: TODAY,
        note: 'A pricing glitch of one venue.',
      },
    ];
    await editFile(path.join(t.dir, 'sources.json'), JSON.stringify(sources));
    await t.deps.store.refreshFile('sources');
    const dismissed = await rowOf(t, '/api/sources', 2);
    expect(dismissed.warnings!.find((w) => w.kind === 'depeg')!.dismissed).toEqual({
      on: TODAY,
      note: 'A pricing glitch of one venue.',
    });
    expect((await rowOf(t, '/api/strategies', 2)).great).toBe(true);
  });

  it('only an open, undismissed outflow or depeg warning blocks GREAT (not a spike)', () => {
    const w = (kind: DetectedWarning['kind'], more: Partial<DetectedWarning> = {}) => ({
      kind,
      openedOn: '2026-11-01',
      closedOn: null,
      figures: {},
      text: 'x',
      detected: true as const,
      ...more,
    });
    expect(hasBlockingWarning([w('outflow')])).toBe(true);
    expect(hasBlockingWarning([w('depeg')])).toBe(true);
    expect(hasBlockingWarning([w('spike')])).toBe(false);
    expect(hasBlockingWarning([w('depeg', { closedOn: '2026-11-05' })])).toBe(false);
    expect(hasBlockingWarning([w('outflow', { dismissed: { on: TODAY, note: 'n' } })])).toBe(false);
  });
});
