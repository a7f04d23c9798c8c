import { describe, expect, it } from 'vitest';
import type { DailyRow } from './ra30.ts';
import {
  detectWarnings,
  shiftDay,
  type PricePoint,
  type WarningInput,
  type WarningThresholds,
} from './warnings.ts';

const T: WarningThresholds = {
  outflow7d: 30,
  outflow30d: 50,
  depegStable: 1,
  depegLst: 2,
  spikeSigma: 4,
  closeAfterDays: 3,
};
const START = '2026-09-01';
const day = (i: number) => shiftDay(START, i);

function rows(n: number, tvl: (i: number) => number, apy: (i: number) => number = () => 5) {
  return Array.from({ length: n }, (_, i): DailyRow => ({
    date: day(i),
    apy: apy(i),
    tvlUsd: tvl(i),
  }));
}
function prices(values: number[]): PricePoint[] {
  return values.map((price, i) => ({ date: day(i), price }));
}
function detect(input: Partial<WarningInput>) {
  return detectWarnings({ rows: [], prices: [], ethPrices: [], pegTo: 'USD', ...input }, T);
}
const kinds = (ws: { kind: string }[]) => ws.map((w) => w.kind);

describe('outflow', () => {
  /** TVL 100 for 10 days, then `after` from day 10 on. */
  const stepDown = (after: number, n = 14) => rows(n, (i) => (i < 10 ? 100 : after));

  it('opens at exactly 30% down over 7 days, on the first day it holds', () => {
    const [w, ...rest] = detect({ rows: stepDown(70) });
    expect(rest).toEqual([]);
    expect(w).toMatchObject({
      kind: 'outflow',
      openedOn: day(10),
      closedOn: null,
      figures: { tvl: 70, tvl7dAgo: 100, drop7dPct: 30 },
    });
    expect(w!.text).toBe('Deposits are leaving fast: the value locked fell 30% over 7 days.');
  });
  it('does not open just under 30% (29.99%), and opens just over (30.01%)', () => {
    expect(detect({ rows: stepDown(70.01) })).toEqual([]);
    expect(kinds(detect({ rows: stepDown(69.99) }))).toEqual(['outflow']);
  });
  it('opens at 50% over 30 days, not at 49.99%, although no 7-day fall reaches 30%', () => {
    // A slow slide: about 2% a day for 30 days from 100.
    const slide = (end: number) =>
      rows(40, (i) => (i <= 5 ? 100 : i >= 35 ? end : 100 - ((100 - end) * (i - 5)) / 30));
    expect(detect({ rows: slide(50.01) })).toEqual([]);
    const [w] = detect({ rows: slide(50) });
    expect(w).toMatchObject({ kind: 'outflow', openedOn: day(35) });
    expect(w!.figures.drop30dPct).toBe(50);
    expect(w!.figures.drop7dPct).toBeLessThan(30);
  });
  it('closes after 3 consecutive days back within both measures, on the third', () => {
    // 60% drop on day 40: the 7-day measure holds until day 46, the 30-day one until day 69.
    const drop = (n: number) => rows(n, (i) => (i < 40 ? 100 : 40));
    expect(detect({ rows: drop(60) })[0]).toMatchObject({ openedOn: day(40), closedOn: null });
    expect(detect({ rows: drop(80) })[0]).toMatchObject({ openedOn: day(40), closedOn: day(72) });
  });
  it('while the 30-day measure cannot be judged (younger data), the 7-day one decides', () => {
    const [w] = detect({ rows: stepDown(40, 30) });
    expect(w).toMatchObject({ openedOn: day(10), closedOn: day(19) });
  });
  it('a relapse before the third day back within keeps it open', () => {
    const tvl = (i: number) => (i < 40 ? 100 : i < 47 ? 69 : i < 49 ? 100 : 48);
    // 40-46 breached, 47-48 within, 49-55 breached again (48 against 69, then 100), 56-58 within.
    const ws = detectWarnings(
      { rows: rows(70, tvl), prices: [], ethPrices: [], pegTo: 'USD' },
      { ...T, outflow30d: 90 },
    );
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ openedOn: day(40), closedOn: day(58) });
  });
});

describe('depeg', () => {
  const steady = Array(10).fill(1) as number[];
  it('a dollar token opens just over 1% from $1 (0.9899), not at 0.99 nor at 1.01', () => {
    expect(detect({ prices: prices([...steady, 0.99]) })).toEqual([]);
    expect(detect({ prices: prices([...steady, 1.01]) })).toEqual([]);
    const [w] = detect({ prices: prices([...steady, 0.9899]) });
    expect(w).toMatchObject({ kind: 'depeg', openedOn: day(10), figures: { price: 0.9899 } });
    expect(w!.figures.deviationPct).toBeCloseTo(-1.01, 9);
    expect(detect({ prices: prices([...steady, 1.0101]) })).toHaveLength(1);
  });
  it('a 0.97 stablecoin opens, and closes on the third day back at $1', () => {
    const [w] = detect({ prices: prices([...steady, 0.97, 0.97, 1, 1, 1, 1]) });
    expect(w).toMatchObject({ openedOn: day(10), closedOn: day(14) });
    expect(w!.text).toBe('The token traded at $0.97, 3% below its $1 peg.');
  });
  it('two days back within do not close it', () => {
    const [w] = detect({ prices: prices([...steady, 0.97, 1, 1]) });
    expect(w).toMatchObject({ openedOn: day(10), closedOn: null });
  });
  it('a missing day is neither a day within nor a breach', () => {
    const p = prices([...steady, 0.97, 1, 1, 1, 1]).filter((x) => x.date !== day(12));
    expect(detect({ prices: p })[0]).toMatchObject({ closedOn: day(14) });
  });
  it('an ETH token against ETH: opens more than 2% below, not at 2% nor above ETH', () => {
    const eth = prices(Array(12).fill(2000) as number[]);
    const lst = (last: number) => prices([...(Array(11).fill(2000) as number[]), last]);
    expect(detect({ pegTo: 'ETH', prices: lst(1960), ethPrices: eth })).toEqual([]);
    expect(detect({ pegTo: 'ETH', prices: lst(2100), ethPrices: eth })).toEqual([]);
    const [w] = detect({ pegTo: 'ETH', prices: lst(1959.8), ethPrices: eth });
    expect(w).toMatchObject({ kind: 'depeg', openedOn: day(11), figures: { ethPrice: 2000 } });
    expect(w!.figures.belowPct).toBeCloseTo(2.01, 9);
  });
  it('an ETH token without ETH price that day cannot be judged', () => {
    expect(detect({ pegTo: 'ETH', prices: prices([1000]), ethPrices: [] })).toEqual([]);
  });
});

describe('spike', () => {
  // 30 days alternating 4 and 6 % APR: mean 5, sample sd ≈ 1.017 (in APR terms, near enough).
  const apy = (last: number) => (i: number) => (i < 30 ? (i % 2 === 0 ? 4 : 6) : last);
  const spikeRows = (last: number) => rows(31, () => 1e8, apy(last));
  /** The APY whose APR is exactly `sigmas` standard deviations above the 30 days' mean. */
  function apyAt(sigmas: number): number {
    const aprs = spikeRows(0)
      .slice(0, 30)
      .map((r) => 100 * 365 * (Math.pow(1 + r.apy / 100, 1 / 365) - 1));
    const m = aprs.reduce((a, b) => a + b, 0) / aprs.length;
    const sd = Math.sqrt(aprs.reduce((a, b) => a + (b - m) ** 2, 0) / (aprs.length - 1));
    const apr = m + sigmas * sd;
    return 100 * (Math.pow(1 + apr / 100 / 365, 365) - 1);
  }
  it('opens just over 4 standard deviations, not at 4 nor just under', () => {
    expect(detect({ rows: spikeRows(apyAt(4)) })).toEqual([]);
    expect(detect({ rows: spikeRows(apyAt(3.99)) })).toEqual([]);
    const [w] = detect({ rows: spikeRows(apyAt(4.01)) });
    expect(w).toMatchObject({ kind: 'spike', openedOn: day(30), closedOn: null });
    expect(w!.figures.sigmas).toBeCloseTo(4.01, 2);
    expect(w!.text).toMatch(/the 30-day APR already damps such a spike\.$/);
  });
  it('closes after 3 ordinary days', () => {
    const r = rows(
      34,
      () => 1e8,
      (i) => (i < 30 ? (i % 2 === 0 ? 4 : 6) : i === 30 ? 40 : 5),
    );
    expect(detect({ rows: r })[0]).toMatchObject({ openedOn: day(30), closedOn: day(33) });
  });
  it('needs 20 days before the day and a spread above 0', () => {
    expect(
      detect({
        rows: rows(
          20,
          () => 1e8,
          (i) => (i < 19 ? (i % 2 ? 4 : 6) : 40),
        ),
      }),
    ).toEqual([]);
    expect(
      detect({
        rows: rows(
          31,
          () => 1e8,
          (i) => (i < 30 ? 5 : 40),
        ),
      }),
    ).toEqual([]);
  });
});

it('warnings come oldest first, each kind on its own', () => {
  const r = rows(14, (i) => (i < 10 ? 100 : 40));
  const ws = detect({ rows: r, prices: prices([1, 1, 1, 1, 1, 0.97]) });
  expect(ws.map((w) => [w.kind, w.openedOn])).toEqual([
    ['depeg', day(5)],
    ['outflow', day(10)],
  ]);
});

describe('feeds-disagree', () => {
  /** APY whose ra30-v1 APR is `apr` exactly. */
  const apyOf = (apr: number) => 100 * (Math.pow(1 + apr / 36500, 365) - 1);
  const flat = (n: number, apr: (i: number) => number) =>
    rows(
      n,
      () => 1e8,
      (i) => apyOf(apr(i)),
    );

  it('opens when the 7-day mean APRs differ by more than 20% of the larger, with both figures', () => {
    // 10% vs 7.9%: 2.1 points apart, more than 2 (20% of 10) and 0.5.
    const [w, ...rest] = detect({ rows: flat(10, () => 10), secondaryRows: flat(10, () => 7.9) });
    expect(rest).toEqual([]);
    expect(w).toMatchObject({
      kind: 'feeds-disagree',
      openedOn: day(4),
      closedOn: null,
      figures: { onchainApr7d: 10, defillamaApr7d: 7.9, gapPp: 2.1 },
    });
    expect(w!.text).toBe(
      "The two feeds disagree: the share price read from the chain gives a 7-day APR of 10%, DeFiLlama's feed 7.9%; the share price is used.",
    );
    // 10% vs 8.1%: within 20% of the larger.
    expect(detect({ rows: flat(10, () => 10), secondaryRows: flat(10, () => 8.1) })).toEqual([]);
  });

  it('at low rates the tolerance is 0.5 points', () => {
    expect(detect({ rows: flat(10, () => 1), secondaryRows: flat(10, () => 1.45) })).toEqual([]);
    expect(kinds(detect({ rows: flat(10, () => 1), secondaryRows: flat(10, () => 1.55) }))).toEqual(
      ['feeds-disagree'],
    );
  });

  it('needs 5 days both feeds have in the window, and closes once they agree again', () => {
    const few = flat(10, () => 5).filter((_, i) => i % 2 === 0);
    expect(detect({ rows: flat(10, () => 10), secondaryRows: few })).toEqual([]);
    // Apart for the first 10 days, together from day 10: the 7-day means meet again by day 16.
    const [w] = detect({
      rows: flat(30, () => 10),
      secondaryRows: flat(30, (i) => (i < 10 ? 5 : 10)),
    });
    expect(w).toMatchObject({ kind: 'feeds-disagree', openedOn: day(4) });
    expect(w!.closedOn).not.toBeNull();
  });

  it('is not judged without a second feed', () => {
    expect(detect({ rows: flat(10, () => 10) })).toEqual([]);
  });
});
