import { describe, expect, it } from 'vitest';
import { computeRa30, type DailyRow } from '../../engine/ra30.ts';
import { belowBaseSince, isBelowBase } from './crossings.ts';

const SCORES = [
  {
    date: '2026-01-01',
    safety: 4 as const,
    liquidity: 4 as const,
    safetyRationale: 'test',
    liquidityRationale: 'test',
    links: [],
  },
];

/** `n` consecutive days from 2026-01-02 with the APY of day i. */
function days(n: number, apy: (i: number) => number): DailyRow[] {
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2026, 0, 2) + i * 86_400_000).toISOString().slice(0, 10),
    apy: apy(i),
    tvlUsd: 5e8,
  }));
}

const ra = (rows: DailyRow[]) => computeRa30(rows, SCORES[0]!).riskAdjustedYield30d;

describe('a below-base crossing', () => {
  it('is strictly below: at the base rate is not below, just under is, just over is not', () => {
    const source = ra(days(40, () => 4));
    expect(isBelowBase(source, ra(days(40, () => 4)))).toBe(false);
    expect(isBelowBase(source, ra(days(40, () => 4.0001)))).toBe(true);
    expect(isBelowBase(source, ra(days(40, () => 3.9999)))).toBe(false);
  });

  it('is dated by the first day of the current run below, recomputed day by day', () => {
    const base = days(70, () => 3);
    const source = days(70, (i) => (i < 50 ? 5 : 1));
    const since = belowBaseSince({ rows: source, scores: SCORES }, { rows: base, scores: SCORES })!;
    const upTo = (rows: DailyRow[], day: string) => rows.filter((r) => r.date <= day);
    const i = source.findIndex((r) => r.date === since);
    expect(i).toBeGreaterThan(50);
    expect(ra(upTo(source, since))).toBeLessThan(ra(upTo(base, since)));
    const before = source[i - 1]!.date;
    expect(ra(upTo(source, before))).toBeGreaterThanOrEqual(ra(upTo(base, before)));
    // More days below later do not move it: the key of the crossing stays the same.
    const longer = days(80, (k) => (k < 50 ? 5 : 1));
    expect(
      belowBaseSince({ rows: longer, scores: SCORES }, { rows: days(80, () => 3), scores: SCORES }),
    ).toBe(since);
  });

  it('back above and below again is a new crossing with a new day', () => {
    const base = days(130, () => 3);
    const source = days(130, (i) => (i < 50 ? 5 : i < 80 ? 1 : i < 110 ? 5 : 1));
    const first = belowBaseSince(
      { rows: source.slice(0, 80), scores: SCORES },
      { rows: base.slice(0, 80), scores: SCORES },
    )!;
    const second = belowBaseSince(
      { rows: source, scores: SCORES },
      { rows: base, scores: SCORES },
    )!;
    expect(second > first).toBe(true);
    expect(second > source[110]!.date).toBe(true);
  });
});
