/**
 * ?asOf of GET /api/strategies, /api/baserate and /api/strategies/{id}/breakdown, and
 * GET /api/track-record (JSON and CSV), over a hand-built history whose figures are known:
 * every series flat (3% APY, $2B TVL, no rewards), except Liquity (id 3, stablecoin), which pays
 * 5% until 2026-02-19 and 10% from 2026-02-20, whose safety score drops from 4 to 2 on
 * 2026-02-15, and whose token trades at $1 on 2026-02-01 and $0.90 from 2026-03-01.
 * The base-rate components pay 4%. The data runs from 2026-01-01 to 2026-04-01; today is
 * 2026-04-02.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, tempDataDir, type TestContext } from './helpers.ts';

let t: TestContext;

const DAY_MS = 86_400_000;
const days = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += DAY_MS)
    out.push(new Date(d).toISOString().slice(0, 10));
  return out;
};
/** ra30-v1 step 1, written out. */
const apr = (apy: number) => 100 * 365 * ((1 + apy / 100) ** (1 / 365) - 1);
const LUSD = 'ethereum:0x5f98805A4E8be255a32880FDeC7F6728C6568bA0';

beforeAll(async () => {
  const dir = await tempDataDir();
  const history = JSON.parse(await readFile(path.join(dir, 'history.json'), 'utf8')) as {
    series: Record<string, unknown[]>;
  };
  const baseSeries = [
    'aave-v3-usdc',
    'compound-v3-usdc',
    'aave-v3-usdt',
    'compound-v3-usdt',
    'sky-dsr-dai',
    'spark-dai',
    'rocketpool-reth',
    'coinbase-cbeth',
  ];
  const series: Record<string, unknown[]> = {};
  for (const key of Object.keys(history.series)) {
    series[key] = days('2026-01-01', '2026-04-01').map((date) => ({
      date,
      apy:
        key === 'liquity-sp'
          ? date < '2026-02-20'
            ? 5
            : 10
          : baseSeries.includes(key) || key === 'lido-steth'
            ? key === 'lido-steth'
              ? 3
              : 4
            : 3,
      tvlUsd: 2e9,
    }));
  }
  await writeFile(
    path.join(dir, 'history.json'),
    JSON.stringify({ sample: true, asOf: '2026-04-01', series }),
  );
  const sources = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8')) as {
    sources: { id: number; scores: Record<string, unknown>[] }[];
  };
  const liquity = sources.sources.find((s) => s.id === 3)!;
  liquity.scores.push({ ...liquity.scores[0], date: '2026-02-15', safety: 2 });
  await writeFile(path.join(dir, 'sources.json'), JSON.stringify(sources));
  await writeFile(
    path.join(dir, 'prices.json'),
    JSON.stringify({
      sample: true,
      coins: {
        [LUSD]: [
          { date: '2026-02-01', price: 1 },
          { date: '2026-03-01', price: 0.9 },
          { date: '2026-04-01', price: 0.9 },
        ],
      },
    }),
  );
  t = await setup({ dir, now: () => new Date('2026-04-02T12:00:00Z') });
});
afterAll(() => t.cleanup());

interface Metrics {
  id: number;
  yield30d: number;
  riskAdjustedYield30d: number;
  status: string;
  asOf: string;
  warnings: { kind: string; openedOn: string }[];
}
const strategiesAsOf = async (asOf: string) => {
  const res = await t.http.get(`/api/strategies?asOf=${asOf}`);
  expect(res.status).toBe(200);
  return res.body as Metrics[];
};
const liquity = (list: Metrics[]) => list.find((m) => m.id === 3)!;

describe('?asOf', () => {
  it('answers with the score in effect that day: safety 4 (0.75 pp) before 2026-02-15, 2 (3 pp) from it', async () => {
    const before = liquity(await strategiesAsOf('2026-02-14'));
    const after = liquity(await strategiesAsOf('2026-02-15'));
    // Flat 5% over both windows: no volatility, incentives, size, liquidity (5) or outflow charge.
    expect(before.asOf).toBe('2026-02-14');
    expect(before.yield30d).toBeCloseTo(apr(5), 9);
    expect(before.riskAdjustedYield30d).toBeCloseTo(apr(5) - 0.75, 9);
    expect(after.yield30d).toBeCloseTo(apr(5), 9);
    expect(after.riskAdjustedYield30d).toBeCloseTo(apr(5) - 3, 9);
    const breakdown = await t.http.get('/api/strategies/3/breakdown?asOf=2026-02-14');
    expect(breakdown.status).toBe(200);
    expect(breakdown.body.inputs.safety).toBe(4);
    expect(breakdown.body.charges.safety).toBe(0.75);
    expect(breakdown.body.window).toEqual({ from: '2026-01-16', to: '2026-02-14', days: 30 });
  });

  it('sees no later day: the 10% from 2026-02-20 and the depeg of 2026-03-01 are not in earlier answers', async () => {
    const on19 = liquity(await strategiesAsOf('2026-02-19'));
    expect(on19.yield30d).toBeCloseTo(apr(5), 9);
    expect(on19.warnings).toEqual([]);
    // The jump to 10% is a spike from Feb 21; on Feb 28 no depeg yet, on Mar 1 the depeg.
    const kinds = (m: Metrics) => m.warnings.map((w) => [w.kind, w.openedOn]);
    expect(kinds(liquity(await strategiesAsOf('2026-02-20')))).toEqual([]);
    expect(kinds(liquity(await strategiesAsOf('2026-02-28')))).toEqual([['spike', '2026-02-21']]);
    expect(kinds(liquity(await strategiesAsOf('2026-03-01')))).toEqual([
      ['spike', '2026-02-21'],
      ['depeg', '2026-03-01'],
    ]);
    // The current answer has the whole history: 30 days of 10%.
    const now = (await t.http.get('/api/strategies')).body as Metrics[];
    expect(liquity(now).yield30d).toBeCloseTo(apr(10), 9);
    expect(liquity(now).riskAdjustedYield30d).toBeCloseTo(apr(10) - 3, 9);
  });

  it('cuts the base rates too', async () => {
    const res = await t.http.get('/api/baserate?asOf=2026-01-10');
    expect(res.status).toBe(200);
    // Ten days: fewer than the 20 a figure needs.
    expect(res.body.status).toEqual({ stablecoin: 'insufficient_data', defi: 'insufficient_data' });
    const later = await t.http.get('/api/baserate?asOf=2026-02-10');
    expect(later.body.asOf).toBe('2026-02-10');
    expect(later.body.baserateStable).toBeCloseTo(apr(4), 9);
  });

  it('keys its cache by asOf: each day its own ETag and 304', async () => {
    const a = await t.http.get('/api/strategies?asOf=2026-02-14');
    const b = await t.http.get('/api/strategies?asOf=2026-02-15');
    expect(a.headers.etag).not.toBe(b.headers.etag);
    expect(a.headers['cache-control']).toBe('public, max-age=60');
    const again = await t.http
      .get('/api/strategies?asOf=2026-02-14')
      .set('If-None-Match', a.headers.etag as string);
    expect(again.status).toBe(304);
    const other = await t.http
      .get('/api/strategies?asOf=2026-02-15')
      .set('If-None-Match', a.headers.etag as string);
    expect(other.status).toBe(200);
  });

  it.each([
    ['/api/strategies?asOf=2026-2-1', /YYYY-MM-DD/],
    ['/api/strategies?asOf=2026-02-30', /YYYY-MM-DD/],
    ['/api/strategies?asOf=2026-02-01&asOf=2026-02-02', /one date/],
    ['/api/baserate?asOf=yesterday', /YYYY-MM-DD/],
    ['/api/strategies/3/breakdown?asOf=20260201', /YYYY-MM-DD/],
    ['/api/strategies?asOf=2025-12-31', /before the first day of data \(2026-01-01\)/],
    ['/api/baserate?asOf=2026-04-03', /after today \(2026-04-02, UTC\)/],
    ['/api/strategies/3/breakdown?asOf=2026-04-03', /after today/],
  ])('%s: 400 invalid_as_of', async (url, message) => {
    const res = await t.http.get(url);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body.error.code).toBe('invalid_as_of');
    expect(res.body.error.message).toMatch(message);
  });

  it('accepts today, after the newest day of data (the newest answer)', async () => {
    const res = await t.http.get('/api/strategies?asOf=2026-04-02');
    expect(res.status).toBe(200);
    expect(liquity(res.body as Metrics[]).asOf).toBe('2026-04-01');
  });
});

interface Pick {
  id: number;
  returnPct: number;
  yieldPct: number;
  priceChangePct: number | null;
  events: { kind: string; date: string }[];
  lossMeasured: boolean;
  riskAdjustedYield30d: number;
}
interface Month {
  decidedOn: string;
  until: string;
  days: number;
  riskAdjusted: Pick;
  rawApy: Pick;
  base: { key: string; returnPct: number };
  value: { riskAdjusted: number; rawApy: number; base: number };
}

describe('GET /api/track-record', () => {
  it('picks as published on the first of each month and pays what the month paid, depeg included', async () => {
    const res = await t.http.get('/api/track-record');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeDefined();
    const body = res.body as {
      sample: boolean;
      asOf: string;
      startValue: number;
      types: { type: string; months: Month[]; final: Month['value'] }[];
    };
    expect(body.sample).toBe(true);
    expect(body.asOf).toBe('2026-04-01');
    const stable = body.types.find((x) => x.type === 'stablecoin')!;
    // 2026-01-01 has one day of data (no figures): the months decided on Feb 1 and Mar 1.
    expect(stable.months.map((m) => [m.decidedOn, m.until, m.days])).toEqual([
      ['2026-02-01', '2026-03-01', 28],
      ['2026-03-01', '2026-04-01', 31],
    ]);
    const [feb, mar] = stable.months as [Month, Month];

    // Feb 1: Liquity leads both rankings (5% − 0.75 pp against Sky's 3% − 0.2 pp).
    expect(feb.riskAdjusted.id).toBe(3);
    expect(feb.rawApy.id).toBe(3);
    // Held Feb 2-19 at 5% and Feb 20-Mar 1 at 10%, token from $1 to $0.90.
    const yieldFactor = (1 + apr(5) / 36500) ** 18 * (1 + apr(10) / 36500) ** 10;
    expect(feb.riskAdjusted.yieldPct).toBeCloseTo(100 * (yieldFactor - 1), 9);
    expect(feb.riskAdjusted.priceChangePct).toBeCloseTo(-10, 9);
    expect(feb.riskAdjusted.returnPct).toBeCloseTo(100 * (yieldFactor * 0.9 - 1), 9);
    expect(feb.riskAdjusted.events).toEqual([
      expect.objectContaining({ kind: 'depeg', date: '2026-03-01' }),
    ]);
    expect(feb.riskAdjusted.lossMeasured).toBe(true);
    const baseFeb = (1 + apr(4) / 36500) ** 28;
    expect(feb.base.returnPct).toBeCloseTo(100 * (baseFeb - 1), 9);
    expect(feb.value.riskAdjusted).toBeCloseTo(10_000 * yieldFactor * 0.9, 6);
    expect(feb.value.base).toBeCloseTo(10_000 * baseFeb, 6);

    // Mar 1: safety 2 since Feb 15 puts Liquity below Sky risk-adjusted; it still pays the most.
    expect(mar.riskAdjusted.id).toBe(2);
    expect(mar.rawApy.id).toBe(3);
    const published = (await strategiesAsOf('2026-03-01')).filter((m) =>
      [2, 3, 6, 7, 8, 12].includes(m.id),
    );
    const topRa = published.reduce((a, b) =>
      b.riskAdjustedYield30d > a.riskAdjustedYield30d ? b : a,
    );
    expect(mar.riskAdjusted.riskAdjustedYield30d).toBe(topRa.riskAdjustedYield30d);
    const sky = (1 + apr(3) / 36500) ** 31;
    expect(mar.riskAdjusted.returnPct).toBeCloseTo(100 * (sky - 1), 9);
    // Liquity in March: 10% a day, token flat at $0.90, the depeg still open.
    expect(mar.rawApy.returnPct).toBeCloseTo(100 * ((1 + apr(10) / 36500) ** 31 - 1), 9);
    expect(mar.rawApy.priceChangePct).toBeCloseTo(0, 9);
    expect(stable.final.riskAdjusted).toBeCloseTo(10_000 * yieldFactor * 0.9 * sky, 6);

    // Defi: Lido leads risk-adjusted; every defi source pays 3%, so the tie goes to the lower id.
    const defi = body.types.find((x) => x.type === 'defi')!;
    expect(defi.months.map((m) => [m.riskAdjusted.id, m.rawApy.id])).toEqual([
      [13, 4],
      [13, 4],
    ]);
  });

  it('downloads as CSV: one line per month and type, same figures', async () => {
    const res = await t.http.get('/api/track-record?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="pigi-track-record-2026-04-01.csv"',
    );
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 4);
    const header = lines[0]!.split(',');
    const feb = lines[1]!.split(',');
    const cell = (name: string) => feb[header.indexOf(name)];
    expect(cell('type')).toBe('stablecoin');
    expect(cell('decidedOn')).toBe('2026-02-01');
    expect(cell('riskAdjustedPickId')).toBe('3');
    expect(cell('riskAdjustedPickPriceChangePct')).toBe('-10');
    expect(cell('riskAdjustedPickEvents')).toBe('depeg 2026-03-01');
    const json = (await t.http.get('/api/track-record')).body as {
      types: { months: Month[] }[];
    };
    expect(Number(cell('valueRiskAdjusted'))).toBeCloseTo(
      json.types[0]!.months[0]!.value.riskAdjusted,
      2,
    );
    const again = await t.http
      .get('/api/track-record?format=csv')
      .set('If-None-Match', res.headers.etag as string);
    expect(again.status).toBe(304);
  });

  it('refuses an unknown format', async () => {
    const res = await t.http.get('/api/track-record?format=xlsx');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
  });
});
