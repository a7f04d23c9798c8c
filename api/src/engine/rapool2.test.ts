import { describe, expect, it } from 'vitest';
import { RA30_V1 } from './ra30.ts';
import {
  aprOfApy,
  aprPoint,
  apyOfApr,
  backtestSeries,
  computeRapoolV2,
  dailySeries,
  RAPOOL_V2,
  RAPOOL_V3,
  rapoolV2OfHistory,
  rapoolV2OfSnapshot,
  rapoolV3OfSnapshot,
  trimmedMean,
  windowStats,
  type DayPoint,
  type RapoolV2Params,
  type WindowStats,
} from './rapool2.ts';

/** Simple coefficients, so that every figure below can be worked out by hand. */
const P: RapoolV2Params = {
  ...RAPOOL_V2,
  trim: 0.1,
  rewardKeep: 0.5,
  beta: 0.5,
  ageHalfDays: 30,
  snapshotWeight: 0.25,
  priors: { stablecoin: 5, ilRisk: 20, rewardHeavy: 20, other: 10 },
};

const stats = (o: Partial<WindowStats>): WindowStats => ({
  ageDays: 100,
  base: 5,
  reward: 0,
  apyCv: 0,
  tvlNow: 1e9,
  tvlMedian: 1e9,
  il7d: null,
  ...o,
});

describe('rapool-v2 parameters', () => {
  it('is versioned, frozen, and takes the size and safety tables of ra30-v1', () => {
    expect(RAPOOL_V2.method).toBe('rapool-v2');
    expect(Object.isFrozen(RAPOOL_V2)).toBe(true);
    expect(RAPOOL_V2.safetyCharge).toBe(RA30_V1.safetyCharge);
    expect(RAPOOL_V2.sizeWeight).toBe(RA30_V1.sizeWeight);
    expect(RAPOOL_V2.windowDays).toBe(30);
    expect(RAPOOL_V2.minDays).toBe(30);
  });
});

describe('trimmed mean', () => {
  it('drops floor(n · trim) values at each end', () => {
    // 10 values, trim 0.1: drop 1 low (0) and 1 high (1000): (1+2+…+8)/8 = 36/8 = 4.5.
    expect(trimmedMean([1000, 1, 2, 3, 4, 5, 6, 7, 8, 0], 0.1)).toBe(4.5);
    // 9 values, trim 0.1: floor(0.9) = 0 dropped: plain mean 45/9 = 5.
    expect(trimmedMean([1, 2, 3, 4, 5, 6, 7, 8, 9], 0.1)).toBe(5);
    expect(trimmedMean([], 0.1)).toBe(0);
  });

  it('keeps a three-day spike out of the level of a 30-day window', () => {
    // 27 days at 4% base, 3 days at 400%: trim 0.1 of 30 drops the 3 highest: level 4.
    const days: DayPoint[] = Array.from({ length: 30 }, (_, i) => ({
      date: `2025-01-${String(i + 1).padStart(2, '0')}`,
      apy: i >= 10 && i < 13 ? 400 : 4,
      apyBase: i >= 10 && i < 13 ? 400 : 4,
      apyReward: null,
      tvlUsd: 1e6,
    }));
    const s = windowStats(days, 30, 0.1);
    expect(s.base).toBe(4);
    expect(s.reward).toBe(0);
    expect(s.tvlMedian).toBe(1e6);
  });
});

describe('rapool-v2, hand-computed', () => {
  it('a steady single-asset pool: pulled a little towards its prior, fixed charges only', () => {
    // base 8, reward 2 (share 0.2 ≤ 0.5, not reward-heavy), no facts → category "other", prior 10.
    // level = 8 + 0.5 × 2 = 9. w = 0.5 × 100 / (100 + 30) = 0.384615…
    // expected = 1.10^(1 − w) × 1.09^w − 1.
    const r = computeRapoolV2(
      stats({ ageDays: 100, base: 8, reward: 2, tvlNow: 1e8, tvlMedian: 1e8 }),
      { ilRisk: 'no', exposure: 'single' },
      4,
      P,
    );
    const w = (0.5 * 100) / 130;
    const expected = (Math.pow(1.1, 1 - w) * Math.pow(1.09, w) - 1) * 100;
    expect(r.inputs.category).toBe('other');
    expect(r.inputs.level).toBe(9);
    expect(r.inputs.weight).toBeCloseTo(w, 15);
    expect(r.expected).toBeCloseTo(expected, 10);
    // Reward part of expected: kept reward 1 of level 9. Reward price: 0.3 × expected / 9.
    expect(r.charges.rewardPrice).toBeCloseTo((0.3 * expected) / 9, 10);
    expect(r.charges.impermanentLoss).toBe(0);
    expect(r.charges.outflow).toBe(0);
    expect(r.charges.size).toBeCloseTo(0.25 * 1, 12); // log10(1e9 / 1e8) = 1
    expect(r.charges.safety).toBe(0.75);
    expect(r.riskAdjusted).toBeCloseTo(expected - (0.3 * expected) / 9 - 0.25 - 0.75, 10);
  });

  it('a 300% incentivised pair loses most of it: the charges are shares of what it pays', () => {
    // base 100, reward 200 (share 2/3 > 0.5) → reward-heavy, prior 20.
    // level = 100 + 0.5 × 200 = 200. age 30: w = 0.5 × 30 / 60 = 0.25.
    // expected = 1.2^0.75 × 3^0.25 − 1 = 50.892…%.
    const r = computeRapoolV2(
      stats({ ageDays: 30, base: 100, reward: 200, apyCv: 0.5, tvlNow: 5e5, tvlMedian: 1e6 }),
      { ilRisk: 'yes', exposure: 'multi', stablecoin: false },
      2,
      P,
    );
    const expected = (Math.pow(1.2, 0.75) * Math.pow(3, 0.25) - 1) * 100;
    expect(expected).toBeCloseTo(50.892, 3);
    expect(r.inputs.category).toBe('rewardHeavy');
    expect(r.expected).toBeCloseTo(expected, 10);
    // Fee and reward parts: kept reward 100 of level 200 → half each.
    expect(r.charges.impermanentLoss).toBeCloseTo(0.5 * 0.5 * expected, 10);
    expect(r.charges.rewardPrice).toBeCloseTo(0.3 * 0.5 * expected, 10);
    // TVL at half its window median: 0.5 × (1 − 0.5) × expected.
    expect(r.charges.outflow).toBeCloseTo(0.25 * expected, 10);
    expect(r.charges.size).toBeCloseTo(0.25 * Math.log10(2000), 12);
    expect(r.charges.safety).toBe(3);
    // 50.892 × (1 − 0.25 − 0.15 − 0.25) − 0.825 − 3 = 13.987…
    const risk = 0.65 * expected + 0.25 * Math.log10(2000) + 3;
    expect(r.risk).toBeCloseTo(risk, 10);
    expect(r.riskAdjusted).toBeCloseTo(expected - risk, 10);
    expect(r.riskAdjusted).toBeCloseTo(13.987, 2);
  });

  it("takes DeFiLlama's il7d over a week, annualised, where it has one", () => {
    // il7d −0.07% over 7 days → 0.07 × 365 / 7 = 3.65 points a year.
    const r = computeRapoolV2(stats({ il7d: -0.07 }), { ilRisk: 'yes' }, 5, P);
    expect(r.charges.impermanentLoss).toBeCloseTo(3.65, 12);
  });

  it("without facts, the pool's own swings stand in for its assets' (IL = 0.5 × min(1, cv) × fee part)", () => {
    // base 10, no reward, other prior 10: level = prior → expected 10 whatever w.
    const r = computeRapoolV2(stats({ base: 10, apyCv: 0.4 }), {}, 5, P);
    expect(r.expected).toBeCloseTo(10, 10);
    expect(r.charges.impermanentLoss).toBeCloseTo(0.5 * 0.4 * 10, 10);
    // A single-asset pool or a stablecoin pool: no IL charge.
    expect(
      computeRapoolV2(stats({ base: 10, apyCv: 0.4 }), { exposure: 'single' }, 5, P).charges
        .impermanentLoss,
    ).toBe(0);
    expect(
      computeRapoolV2(stats({ base: 10, apyCv: 0.4 }), { stablecoin: true }, 5, P).charges
        .impermanentLoss,
    ).toBe(0);
  });

  it('is never above expected, even with an il7d gain', () => {
    const r = computeRapoolV2(stats({ il7d: 0.5, base: 3 }), {}, 5, P);
    expect(r.riskAdjusted).toBeLessThanOrEqual(r.expected);
  });

  it('snapshot path: apyMean30d split in the current proportions, pulled hard to the prior', () => {
    // apy 300 = 100 base + 200 reward (share 2/3); apyMean30d 240 → base 80, reward 160.
    // level = 80 + 0.5 × 160 = 160; reward-heavy, prior 20.
    // w = 0.5 × 200 / 230 × 0.25 = 0.108696…; expected = 1.2^(1 − w) × 2.6^w − 1.
    const r = rapoolV2OfSnapshot(
      {
        apy: 300,
        apyBase: 100,
        apyReward: 200,
        apyMean30d: 240,
        count: 200,
        tvlUsd: 1e9,
        ilRisk: 'no',
        exposure: 'single',
        stablecoin: false,
      },
      5,
      P,
    );
    const w = ((0.5 * 200) / 230) * 0.25;
    const expected = (Math.pow(1.2, 1 - w) * Math.pow(2.6, w) - 1) * 100;
    expect(r.inputs.basis).toBe('snapshot');
    expect(r.inputs.level).toBeCloseTo(160, 10);
    expect(r.expected).toBeCloseTo(expected, 10);
    expect(r.expected).toBeCloseTo(30.521, 3); // from a 240% month
    // Reward price: 0.3 × half of expected (kept reward 80 of level 160); safety 5: 0.2.
    expect(r.riskAdjusted).toBeCloseTo(expected - 0.15 * expected - 0.2, 10);
  });
});

describe('rapool-v2 snapshot path below the prior', () => {
  it('keeps its own level: the pull from a snapshot only lowers a figure', () => {
    // A 4% stablecoin pool (prior 5): pulled would be 1.05^(1 − w) × 1.04^w − 1 > 4%, so the
    // level, 4, stays. The same pool computed from a history is pulled up (symmetric, fitted).
    const pool = {
      apy: 4,
      apyBase: 4,
      apyReward: 0,
      apyMean30d: 4,
      count: 400,
      tvlUsd: 1e9,
      ilRisk: 'no' as const,
      exposure: 'single' as const,
      stablecoin: true,
    };
    const r = rapoolV2OfSnapshot(pool, 5, P);
    expect(r.inputs.category).toBe('stablecoin');
    expect(r.expected).toBe(4);
    expect(r.riskAdjusted).toBeCloseTo(4 - 0.2, 12);
    const w = (0.5 * 400) / 430;
    const fromHistory = computeRapoolV2(stats({ ageDays: 400, base: 4 }), pool, 5, P);
    expect(fromHistory.expected).toBeCloseTo(
      (Math.pow(1.05, 1 - w) * Math.pow(1.04, w) - 1) * 100,
      10,
    );
    expect(fromHistory.expected).toBeGreaterThan(4);
  });
});

describe('daily series and history', () => {
  it('keeps the last point of each UTC day, oldest first', () => {
    const days = dailySeries([
      { timestamp: '2025-01-02T01:00:00.000Z', apy: 2, tvlUsd: 1 },
      { timestamp: '2025-01-01T23:59:00.000Z', apy: 9, tvlUsd: 1 },
      { timestamp: '2025-01-01T00:01:00.000Z', apy: 1, tvlUsd: 1 },
      { timestamp: '2025-01-02T00:30:00.000Z', apy: 5, tvlUsd: 1 },
      { timestamp: 'nonsense', apy: 5, tvlUsd: 1 },
      { timestamp: '2025-01-03T00:30:00.000Z', apy: null, tvlUsd: 1 },
    ]);
    expect(days.map((d) => [d.date, d.apy])).toEqual([
      ['2025-01-01', 9],
      ['2025-01-02', 2],
    ]);
  });

  it('needs 30 days of history; the backtest row of a day is the figure of the history up to it', () => {
    const days: DayPoint[] = Array.from({ length: 45 }, (_, i) => {
      const d = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
      return { date: d, apy: 5 + (i % 7), apyBase: 3 + (i % 7), apyReward: 2, tvlUsd: 1e6 + i };
    }).filter((_, i) => i % 5 !== 3); // gaps
    expect(
      rapoolV2OfHistory(
        days.filter((d) => d.date <= '2025-01-29'),
        {},
        3,
        P,
      ),
    ).toBeNull();
    const rows = backtestSeries(days, {}, 3, P);
    expect(rows[0]!.date).toBe('2025-01-30');
    for (const row of rows) {
      const upTo = days.filter((d) => d.date <= row.date);
      const r = rapoolV2OfHistory(upTo, {}, 3, P)!;
      expect(row.expected).toBeCloseTo(r.expected, 12);
      expect(row.riskAdjusted).toBeCloseTo(r.riskAdjusted, 12);
    }
  });
});

describe('rapool-v3: one unit, the APR', () => {
  it('turns a daily-compounded APY into the APR behind it and back', () => {
    // 300% APY = (1 + r/365)^365 = 4: r = 365 × (4^(1/365) − 1) = 138.893%.
    expect(aprOfApy(300)).toBeCloseTo(138.893, 3);
    expect(apyOfApr(138.89303164958633)).toBeCloseTo(300, 6);
    expect(aprOfApy(0)).toBe(0);
    expect(aprOfApy(apyOfApr(12))).toBeCloseTo(12, 9);
    const p = aprPoint({ date: '2025-01-01', apy: 300, apyBase: 300, apyReward: null, tvlUsd: 1 });
    expect(p.apy).toBeCloseTo(138.893, 3);
    expect(p.apyBase).toBeCloseTo(138.893, 3);
    expect(p.apyReward).toBeNull();
  });

  it('cuts the pulled level by volShare × cv, and rapool-v2 does not', () => {
    // beta 1, no age pull: pulled = level = 10; cut = min(1, 0.5 × 0.4) = 0.2 → 8.
    const params = { ...P, beta: 1, ageHalfDays: 0, volShare: 0.5 };
    expect(computeRapoolV2(stats({ base: 10, apyCv: 0.4 }), {}, 5, params).expected).toBeCloseTo(
      8,
      9,
    );
    // A cv of 3 would cut more than the whole: capped at all of it, 0.
    expect(computeRapoolV2(stats({ base: 10, apyCv: 3 }), {}, 5, params).expected).toBeCloseTo(
      0,
      9,
    );
    expect(
      computeRapoolV2(stats({ base: 10, apyCv: 0.4 }), {}, 5, { ...params, volShare: undefined })
        .expected,
    ).toBeCloseTo(10, 9);
    expect(RAPOOL_V2.volShare).toBeUndefined();
    expect(RAPOOL_V3.method).toBe('rapool-v3');
    expect(Object.isFrozen(RAPOOL_V3)).toBe(true);
  });

  it('the snapshot path of rapool-v3 reads the APRs behind DeFiLlama’s APYs', () => {
    // A 300% 30-day mean APY is a 138.893% APR: the level, and the most expected can be.
    const r = rapoolV3OfSnapshot(
      { apy: 300, apyBase: 300, apyReward: null, apyMean30d: 300, count: 400, tvlUsd: 1e9 },
      5,
    );
    expect(r.method).toBe('rapool-v3');
    expect(r.inputs.level).toBeCloseTo(138.893, 3);
    expect(r.inputs.base).toBeCloseTo(138.893, 3);
    expect(r.expected).toBeLessThanOrEqual(r.inputs.level);
    expect(
      rapoolV2OfSnapshot({ apy: 300, apyMean30d: 300, count: 400, tvlUsd: 1e9 }, 5).inputs.level,
    ).toBe(300);
  });
});
