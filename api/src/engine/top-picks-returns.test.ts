import { describe, expect, it } from 'vitest';
import {
  decisionDays,
  realized,
  topPick,
  trackRecord,
  type Decision,
  type RankedRow,
  type RealizedSeries,
} from './top-picks-returns.ts';

const row = (over: Partial<RankedRow> & { id: number }): RankedRow => ({
  name: `Source ${over.id}`,
  type: 'stablecoin',
  unit: 'USD',
  status: 'ok',
  yield30d: 5,
  riskAdjustedYield30d: 3,
  ...over,
});
const aprs = (entries: Record<string, number>) => new Map(Object.entries(entries));
const base = (status = 'ok') => ({
  stablecoin: { key: 'base-stablecoin', status, yield30d: 4, riskAdjustedYield30d: 3 },
  defi: { key: 'base-defi', status, yield30d: 3, riskAdjustedYield30d: 2 },
});

describe('decisionDays', () => {
  it('takes the first of each month from the first whole month on, while the next month has begun', () => {
    expect(decisionDays('2025-08-29', '2025-11-21')).toEqual([
      { day: '2025-09-01', until: '2025-10-01' },
      { day: '2025-10-01', until: '2025-11-01' },
    ]);
    expect(decisionDays('2025-09-01', '2025-10-01')).toEqual([
      { day: '2025-09-01', until: '2025-10-01' },
    ]);
    expect(decisionDays('2025-11-15', '2026-02-01')).toEqual([
      { day: '2025-12-01', until: '2026-01-01' },
      { day: '2026-01-01', until: '2026-02-01' },
    ]);
    expect(decisionDays('2025-09-01', '2025-09-30')).toEqual([]);
  });
});

describe('realized', () => {
  it('compounds the APR of each day after the decision day up to the end, skipping days without data', () => {
    // 36.5% APR is 0.1% a day; Jan 3 has no row.
    const series: RealizedSeries = {
      aprByDay: aprs({ '2026-01-01': 99, '2026-01-02': 36.5, '2026-01-04': 36.5 }),
    };
    const r = realized(series, '2026-01-01', '2026-01-04');
    expect(r.days).toBe(2);
    expect(r.yieldPct).toBeCloseTo(100 * (1.001 ** 2 - 1), 12);
    expect(r.returnPct).toBeCloseTo(0.2001, 12);
    expect(r.priceChangePct).toBeNull();
    expect(r.lossMeasured).toBe(true);
  });

  it('multiplies by the change in value of the token: a depeg is a loss', () => {
    const series: RealizedSeries = {
      aprByDay: aprs({ '2026-01-02': 36.5 }),
      valueByDay: aprs({ '2026-01-01': 1, '2026-01-02': 0.8 }),
      depegs: [{ openedOn: '2026-01-02', closedOn: null, text: 'The token traded at $0.8.' }],
    };
    const r = realized(series, '2026-01-01', '2026-01-02');
    expect(r.priceChangePct).toBeCloseTo(-20, 12);
    // 1.001 × 0.8 = 0.8008
    expect(r.returnPct).toBeCloseTo(-19.92, 12);
    expect(r.events).toEqual([
      { kind: 'depeg', date: '2026-01-02', summary: 'The token traded at $0.8.' },
    ]);
    expect(r.lossMeasured).toBe(true);
  });

  it('takes the newest price up to 3 days before each end, no older', () => {
    const series: RealizedSeries = {
      aprByDay: new Map(),
      valueByDay: aprs({ '2026-01-07': 1, '2026-01-28': 1.1 }),
    };
    expect(realized(series, '2026-01-10', '2026-01-31').priceChangePct).toBeCloseTo(10, 12);
    expect(realized(series, '2026-01-11', '2026-01-31').priceChangePct).toBeNull();
  });

  it('says when an incident fell in the month and no prices measure its loss', () => {
    const incidents = [{ date: '2026-01-15', kind: 'exploit', summary: 'Drained.' }];
    const r = realized({ aprByDay: new Map(), incidents }, '2026-01-01', '2026-02-01');
    expect(r.events).toEqual([{ kind: 'incident', date: '2026-01-15', summary: 'Drained.' }]);
    expect(r.lossMeasured).toBe(false);
    // The decision day's own incident was known when picking: not an event of the holding.
    expect(realized({ aprByDay: new Map(), incidents }, '2026-01-15', '2026-02-01').events).toEqual(
      [],
    );
    // A depeg that closed before the holding began is not one of its events.
    const closed = realized(
      {
        aprByDay: new Map(),
        depegs: [{ openedOn: '2025-12-01', closedOn: '2026-01-01', text: 'x' }],
      },
      '2026-01-01',
      '2026-02-01',
    );
    expect(closed.events).toEqual([]);
  });
});

describe('topPick', () => {
  it('takes the highest ok row of the type, the lower id on a tie', () => {
    const rows = [
      row({ id: 5, riskAdjustedYield30d: 4, yield30d: 9 }),
      row({ id: 2, riskAdjustedYield30d: 4, yield30d: 6 }),
      row({ id: 7, riskAdjustedYield30d: 8, status: 'insufficient_data' }),
      row({ id: 9, riskAdjustedYield30d: 9, type: 'defi' }),
      row({ id: 4, riskAdjustedYield30d: 1, yield30d: 12, status: 'stale' }),
    ];
    expect(topPick(rows, 'stablecoin', 'riskAdjustedYield30d')?.id).toBe(2);
    expect(topPick(rows, 'stablecoin', 'yield30d')?.id).toBe(5);
    expect(topPick(rows, 'defi', 'yield30d')?.id).toBe(9);
    expect(topPick([], 'defi', 'yield30d')).toBeNull();
  });
});

describe('trackRecord', () => {
  it('follows each pick month by month from 10,000 against the base rate of the type', () => {
    // Source 1 is the safer pick, 2 pays more; 2 loses 50% of its token value in February.
    const series = new Map<string, RealizedSeries>([
      ['1', { aprByDay: aprs({ '2026-01-02': 36.5, '2026-02-02': 36.5 }) }],
      [
        '2',
        {
          aprByDay: aprs({ '2026-01-02': 73, '2026-02-02': 73 }),
          valueByDay: aprs({ '2026-01-01': 1, '2026-02-01': 1, '2026-03-01': 0.5 }),
        },
      ],
      ['base-stablecoin', { aprByDay: aprs({ '2026-01-02': 3.65, '2026-02-02': 3.65 }) }],
    ]);
    const rows = [
      row({ id: 1, yield30d: 5, riskAdjustedYield30d: 4 }),
      row({ id: 2, yield30d: 10, riskAdjustedYield30d: 2 }),
    ];
    const decisions: Decision[] = [
      { day: '2026-01-01', until: '2026-02-01', rows, base: base() },
      { day: '2026-02-01', until: '2026-03-01', rows, base: base() },
      // No base rate figure that day: the month is left out.
      { day: '2026-03-01', until: '2026-04-01', rows, base: base('insufficient_data') },
    ];
    const [stable, defi] = trackRecord(decisions, series);
    expect(defi!.months).toEqual([]);
    expect(defi!.final).toEqual({ riskAdjusted: 10_000, rawApy: 10_000, base: 10_000 });
    expect(stable!.months).toHaveLength(2);
    const [jan, feb] = stable!.months;
    expect(jan!.days).toBe(31);
    expect(feb!.days).toBe(28);
    expect(jan!.riskAdjusted.id).toBe(1);
    expect(jan!.rawApy.id).toBe(2);
    // Jan: 1 pays 0.1% (one day), 2 pays 0.2% with its token flat, the base 0.01%.
    expect(jan!.value.riskAdjusted).toBeCloseTo(10_010, 9);
    expect(jan!.value.rawApy).toBeCloseTo(10_020, 9);
    expect(jan!.value.base).toBeCloseTo(10_001, 9);
    // Feb: 2 pays 0.2% but its token halves: 10,020 × 1.002 × 0.5 = 5,020.02.
    expect(feb!.rawApy.returnPct).toBeCloseTo(-49.9, 9);
    expect(feb!.value.rawApy).toBeCloseTo(5020.02, 9);
    expect(feb!.value.riskAdjusted).toBeCloseTo(10_020.01, 9);
    expect(feb!.value.base).toBeCloseTo(10_002.0001, 9);
    expect(stable!.final).toEqual(feb!.value);
    expect(feb!.base).toEqual({
      key: 'base-stablecoin',
      yield30d: 4,
      riskAdjustedYield30d: 3,
      returnPct: expect.closeTo(0.01, 12) as number,
    });
  });
});
