/**
 * GET /api/track-record/scanner (JSON and CSV) over hand-built pool histories written to a temp
 * data directory's pool-history store, whose figures are known:
 *
 * - every series of history.json pays 4% from 2026-01-01 to 2026-04-01: both DeFi Base Rates
 *   pay 4%;
 * - pools P1..P11 (stablecoin, same project and TVL) pay 1%..11% every day from 2026-01-01 to
 *   2026-03-10, except P11, whose history stops on 2026-02-15;
 * - P12 pays 0.5% except 100% on 2026-02-01 (the top APY that day, the bottom by risk-adjusted
 *   APY); an outlier pays 200%; a pool starting on 2026-01-13 pays 50% (20 days on 2026-02-01).
 *
 * Decision days: 2026-01-01 (no pool has 30 days: skipped) and 2026-02-01, held 2026-02-02 ..
 * 2026-03-01 (28 days). Top 10 by risk-adjusted APY: P11..P2; P11 paid 11 on 14 of 28 days (5.5),
 * so the group paid (2 + … + 10 + 5.5) / 10 = 5.95. Top 10 by APY: P12, P11..P3: (0.5 + 3 + … +
 * 10 + 5.5) / 10 = 5.8.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannerTrackRecordSchema } from '@yield/contract';
import { PoolHistoryStore } from '../src/modules/import/pool-history.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';

const DAY_MS = 86_400_000;
const days = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += DAY_MS)
    out.push(new Date(d).toISOString().slice(0, 10));
  return out;
};
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rows = (from: string, to: string, apy: (day: string) => number) =>
  days(from, to).map((date) => ({
    date,
    apy: apy(date),
    apyBase: apy(date),
    apyReward: null,
    tvlUsd: 5e8,
  }));

let t: TestContext;
let empty: TestContext;

beforeAll(async () => {
  const dir = await tempDataDir();
  const history = JSON.parse(await readFile(path.join(dir, 'history.json'), 'utf8')) as {
    series: Record<string, unknown[]>;
  };
  const series: Record<string, unknown[]> = {};
  for (const key of Object.keys(history.series))
    series[key] = days('2026-01-01', '2026-04-01').map((date) => ({ date, apy: 4, tvlUsd: 2e9 }));
  await writeFile(
    path.join(dir, 'history.json'),
    JSON.stringify({ sample: true, asOf: '2026-04-01', series }),
  );

  const pools = JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as {
    asOf: string;
    data: Record<string, unknown>[];
  };
  const template = pools.data[0]!;
  const pool = (n: number, over: Record<string, unknown> = {}) => ({
    ...template,
    pool: id(n),
    project: 'aave-v3',
    chain: 'Ethereum',
    symbol: `USD${n}`,
    tvlUsd: 5e8,
    apy: 5,
    apyBase: 5,
    apyReward: null,
    rewardTokens: null,
    stablecoin: true,
    ilRisk: 'no',
    exposure: 'single',
    outlier: false,
    il7d: null,
    ...over,
  });
  pools.asOf = '2026-03-10T00:00:00.000Z';
  pools.data = [
    ...Array.from({ length: 12 }, (_, k) => pool(k + 1)),
    pool(13, { outlier: true }),
    pool(14),
  ];
  await writeFile(path.join(dir, 'pools.json'), JSON.stringify(pools));

  const store = new PoolHistoryStore(dir);
  for (let n = 1; n <= 10; n++)
    await store.replace(
      id(n),
      rows('2026-01-01', '2026-03-10', () => n),
    );
  await store.replace(
    id(11),
    rows('2026-01-01', '2026-02-15', () => 11),
  );
  await store.replace(
    id(12),
    rows('2026-01-01', '2026-03-10', (d) => (d === '2026-02-01' ? 100 : 0.5)),
  );
  await store.replace(
    id(13),
    rows('2026-01-01', '2026-03-10', () => 200),
  );
  await store.replace(
    id(14),
    rows('2026-01-13', '2026-03-10', () => 50),
  );

  t = await setup({ dir, now: () => new Date('2026-03-11T12:00:00Z') });
  await t.deps.scanner.settled();
  empty = await setup();
  await empty.deps.scanner.settled();
});

afterAll(async () => {
  await t?.cleanup();
  await empty?.cleanup();
});

interface Pick {
  pool: string;
  apy: number;
  realizedApy: number;
  daysWithData: number;
  kind: string;
}
interface Group {
  picks: Pick[];
  realizedApy: number;
  baseApy: number;
}
interface Answer {
  method: string;
  firstDay: string | null;
  asOf: string | null;
  size: number;
  minDays: number;
  startValue: number;
  months: {
    decidedOn: string;
    until: string;
    days: number;
    candidates: number;
    riskAdjusted: Group;
    rawApy: Group;
    value: { riskAdjusted: number; rawApy: number; base: number };
  }[];
  skipped: { decidedOn: string; reason: string; candidates: number }[];
  final: { riskAdjusted: number; rawApy: number; base: number };
}

describe('GET /api/track-record/scanner', () => {
  it('answers the scanner’s top 10 of each month from the pools’ histories', async () => {
    const res = await t.http.get('/api/track-record/scanner');
    expect(res.status).toBe(200);
    // Every field is the contract's (strict schema).
    expect(scannerTrackRecordSchema.safeParse(res.body).error).toBeUndefined();
    const body = res.body as Answer;
    expect(body).toMatchObject({
      method: 'rapool-v3',
      firstDay: '2026-01-01',
      asOf: '2026-03-10',
      size: 10,
      minDays: 30,
      startValue: 10_000,
    });
    expect(body.skipped).toEqual([
      {
        decidedOn: '2026-01-01',
        until: '2026-02-01',
        candidates: 0,
        reason: 'history_too_short',
      },
    ]);
    expect(body.months).toHaveLength(1);
    const m = body.months[0]!;
    expect(m).toMatchObject({ decidedOn: '2026-02-01', until: '2026-03-01', days: 28 });
    // P1..P12 (the outlier is left out; the pool from 2026-01-13 has 20 days).
    expect(m.candidates).toBe(12);
    expect(m.riskAdjusted.picks.map((p) => p.pool)).toEqual(
      [11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map(id),
    );
    expect(m.rawApy.picks.map((p) => p.pool)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map(id));
    expect(m.rawApy.picks[0]).toMatchObject({ apy: 100, realizedApy: 0.5, kind: 'stablecoin' });
    expect(m.riskAdjusted.picks[0]).toMatchObject({ realizedApy: 5.5, daysWithData: 14 });
    expect(m.riskAdjusted.realizedApy).toBeCloseTo(5.95, 9);
    expect(m.rawApy.realizedApy).toBeCloseTo(5.8, 9);
    expect(m.riskAdjusted.baseApy).toBeCloseTo(4, 9);
    expect(m.value.riskAdjusted).toBeCloseTo(10_000 * 1.0595 ** (28 / 365), 6);
    expect(m.value.rawApy).toBeCloseTo(10_000 * 1.058 ** (28 / 365), 6);
    expect(m.value.base).toBeCloseTo(10_000 * 1.04 ** (28 / 365), 6);
    expect(body.final).toEqual(m.value);
  });

  it('answers the same as CSV, one line per month, group and pick', async () => {
    const res = await t.http.get('/api/track-record/scanner?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="pigi-scanner-track-record-2026-03-10.csv"',
    );
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'decidedOn,until,days,candidates,group,rank,pool,project,chain,symbol,kind,apy,riskAdjustedApr,realizedApy,daysWithData,groupRealizedApy,groupBaseApy,groupValue,baseValue',
    );
    expect(lines).toHaveLength(21);
    const first = lines[1]!.split(',');
    expect(first.slice(0, 11)).toEqual([
      '2026-02-01',
      '2026-03-01',
      '28',
      '12',
      'riskAdjusted',
      '1',
      id(11),
      'aave-v3',
      'Ethereum',
      'USD11',
      'stablecoin',
    ]);
    expect(first.slice(13, 17)).toEqual(['5.5', '14', '5.95', '4']);
    const raw = lines[11]!.split(',');
    expect(raw.slice(4, 7)).toEqual(['rawApy', '1', id(12)]);
    expect(raw[11]).toBe('100');
  });

  it('is computed once per snapshot (same ETag) and refuses an unknown format', async () => {
    const a = await t.http.get('/api/track-record/scanner');
    const b = await t.http.get('/api/track-record/scanner').set('If-None-Match', a.headers.etag!);
    expect(b.status).toBe(304);
    const bad = await t.http.get('/api/track-record/scanner?format=xlsx');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_query');
  });

  it('has no months on the shipped sample (no pool histories)', async () => {
    const res = await empty.http.get('/api/track-record/scanner');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sample: true,
      firstDay: null,
      asOf: null,
      months: [],
      skipped: [],
      final: { riskAdjusted: 10_000, rawApy: 10_000, base: 10_000 },
    });
    const csv = await empty.http.get('/api/track-record/scanner?format=csv');
    expect(csv.text.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('answers 503 while the pools snapshot never loaded', async () => {
    const dir = await tempDataDir();
    await writeFile(path.join(dir, 'pools.json'), '{"broken": true}');
    const broken = await setup({ dir });
    try {
      const res = await broken.http.get('/api/track-record/scanner');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBeTypeOf('string');
    } finally {
      await broken.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
