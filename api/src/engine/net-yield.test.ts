import { describe, expect, it } from 'vitest';
import { breakEvenDays, netYield, type NetYieldInput } from './net-yield.ts';

const base: NetYieldInput = {
  amount: 10_000,
  apr: 5,
  days: 30,
  unitPriceUsd: 1,
  entryRate: { value: 0.001 },
  exitRate: { value: 0.002 },
  gasInUsd: { value: 4 },
  gasOutUsd: { value: 3 },
};

describe('netYield: every cost taken out at the deposit', () => {
  it('costs in the unit and in USD, the net amount and APR of the documented formula', () => {
    const r = netYield(base);
    expect(r.costs.entry).toEqual({ amount: 10, usd: 10, unknown: null });
    expect(r.costs.exit).toEqual({ amount: 20, usd: 20, unknown: null });
    expect(r.costs.gasIn).toEqual({ amount: 4, usd: 4, unknown: null });
    expect(r.totalCost).toBe(37);
    const net = (10_000 - 37) * (1 + 5 / 100 / 365) ** 30;
    expect(r.netAmount).toBeCloseTo(net, 9);
    expect(r.netApr).toBeCloseTo((net / 10_000 - 1) * (365 / 30) * 100, 9);
  });

  it('converts gas to an ETH source with the unit price of the day', () => {
    const r = netYield({ ...base, amount: 2, unitPriceUsd: 2000, gasInUsd: { value: 6 } });
    expect(r.costs.gasIn.amount).toBeCloseTo(0.003, 12);
    expect(r.costs.gasIn.usd).toBeCloseTo(6, 12);
    expect(r.costs.entry.amount).toBeCloseTo(0.002, 12);
    expect(r.costs.entry.usd).toBeCloseTo(4, 12);
  });

  it('the break-even day is the first whole day on which the net reaches the deposit', () => {
    const r = netYield(base);
    const d = r.breakEvenDays!;
    const grown = (n: number) => (10_000 - 37) * (1 + 5 / 100 / 365) ** n;
    expect(grown(d)).toBeGreaterThanOrEqual(10_000);
    expect(grown(d - 1)).toBeLessThan(10_000);
    expect(d).toBe(28);
  });

  it('an unknown cost is said with its reason and no net figure is made up', () => {
    const r = netYield({ ...base, exitRate: { unknown: 'previewRedeem reverted' } });
    expect(r.costs.exit).toEqual({ amount: null, usd: null, unknown: 'previewRedeem reverted' });
    expect(r.costs.entry.amount).toBe(10);
    expect([r.totalCost, r.netAmount, r.netApr, r.breakEvenDays]).toEqual([null, null, null, null]);
  });
});

describe('breakEvenDays', () => {
  it('is 0 without costs, null when it never comes', () => {
    expect(breakEvenDays(100, 0, 5)).toBe(0);
    expect(breakEvenDays(100, 1, 0)).toBeNull();
    expect(breakEvenDays(100, 100, 5)).toBeNull();
  });
  it('agrees with a day-by-day walk', () => {
    for (const [cost, apr] of [
      [0.5, 3],
      [1, 10],
      [0.01, 4.2],
      [5, 50],
    ] as const) {
      let d = 0;
      while ((100 - cost) * (1 + apr / 100 / 365) ** d < 100) d++;
      expect(breakEvenDays(100, cost, apr)).toBe(d);
    }
  });
});
