import { describe, expect, it } from 'vitest';
import {
  apyToApr,
  chartPoint,
  clampSpikes,
  computeRa30,
  isGreat,
  mad,
  maxDrawdown,
  median,
  RA30_V1,
  sampleStdDev,
  type DailyRow,
  type Ra30Result,
} from './ra30.ts';

/** `n` consecutive days ending 2026-01-31 (or starting where told), filled by `row(i)`. */
function days(
  n: number,
  row: (i: number) => Omit<DailyRow, 'date'>,
  start = Date.UTC(2026, 0, 2),
): DailyRow[] {
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    ...row(i),
  }));
}

// Hand-computed reference values (100·365·((1 + apy/100)^(1/365) − 1), evaluated to 15 digits).
const APR_OF_APY_5 = 4.879342524642616;
const APR_OF_APY_50 = 40.56903996791716;
const APR_OF_APY_3 = 2.955999915440932;
const APR_OF_APY_1 = 0.995046648326281;

describe('step 1: APY to APR', () => {
  it('converts daily-compounded APY to simple APR', () => {
    expect(apyToApr(5)).toBeCloseTo(APR_OF_APY_5, 12);
    expect(apyToApr(50)).toBeCloseTo(APR_OF_APY_50, 12);
    expect(apyToApr(0)).toBe(0);
  });
  it('keeps negative yields negative', () => {
    expect(apyToApr(-1)).toBeLessThan(0);
  });
});

describe('statistics', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('sample standard deviation uses n - 1', () => {
    // mean 5, squared deviations sum 32, 32 / 7 = 4.5714..., sqrt = 2.13809
    expect(sampleStdDev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138089935299395, 12);
  });
  it('MAD is the median absolute deviation from the median', () => {
    // median 3; |x - 3| = 2, 1, 0, 1, 97 -> median 1
    expect(mad([1, 2, 3, 4, 100])).toBe(1);
  });
  it('drawdown is the largest fall from a running peak to a later day', () => {
    // peak 120, later low 60 -> 50%; the earlier 100 -> 90 fall (10%) is smaller
    expect(maxDrawdown([100, 90, 120, 100, 60, 110])).toBeCloseTo(0.5, 12);
    expect(maxDrawdown([1, 2, 3])).toBe(0);
  });
});

describe('step 2: spike control', () => {
  it('clamps into median ± 5 · 1.4826 · MAD', () => {
    // median 3, MAD 1 -> bounds 3 ± 7.413 = [-4.413, 10.413]
    const { values, clamped } = clampSpikes([1, 2, 3, 4, 100]);
    expect(clamped).toBe(1);
    expect(values.slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(values[4]).toBeCloseTo(10.413, 12);
  });
  it('clamps nothing when MAD is 0, even with a spike', () => {
    const { values, clamped } = clampSpikes([5, 5, 5, 5, 50]);
    expect(clamped).toBe(0);
    expect(values).toEqual([5, 5, 5, 5, 50]);
  });
});

describe('computeRa30 (steps 1-5)', () => {
  it('MAD = 0: the spike stays, and every statistic matches the hand computation', () => {
    // 29 days at 5% APY and one at 50%: median APR = APR(5), MAD = 0, so nothing is clamped.
    const rows = days(30, (i) => ({ apy: i === 10 ? 50 : 5, tvlUsd: 2e9 }));
    const r = computeRa30(rows, { safety: 5, liquidity: 5 });
    expect(r.status).toBe('ok');
    expect(r.inputs.clampedDays).toBe(0);
    // mean = (29 · 4.879342524642616 + 40.56903996791716) / 30
    expect(r.yield30d).toBeCloseTo(6.0689991060851, 10);
    expect(r.inputs.sigma30).toBeCloseTo(6.516017453405308, 10);
    expect(r.charges).toEqual({
      volatility: r.inputs.sigma30,
      incentives: 0,
      safety: 0.2,
      liquidity: 0,
      size: 0, // TVL 2B is above $1B: max(0, log10(0.5)) = 0
      outflow: 0,
    });
    expect(r.riskAdjustedYield30d).toBeCloseTo(6.0689991060851 - 6.516017453405308 - 0.2, 10);
    expect(r.risk).toBeCloseTo(r.yield30d - r.riskAdjustedYield30d, 12);
  });

  it('clamp active: a one-day spike is pulled to the upper bound', () => {
    // APRs alternate 4 / 6 (APY chosen so APR is exact enough), one day at 40 APR equivalent.
    const aprToApy = (apr: number) => 100 * (Math.pow(1 + apr / 36500, 365) - 1);
    const rows = days(30, (i) => ({
      apy: aprToApy(i === 29 ? 40 : i % 2 === 0 ? 4 : 6),
      tvlUsd: 1e9,
    }));
    const r = computeRa30(rows, { safety: 5, liquidity: 5 });
    // Window APRs: fifteen 4s, fourteen 6s and 40. Median = (6 + 4) / 2 = 5 (sorted: 15×4, 14×6, 40),
    // |x - 5| = 1 for 29 values and 35 once -> MAD = 1; upper bound 5 + 7.413 = 12.413.
    expect(r.inputs.clampedDays).toBe(1);
    const expectedMean = (15 * 4 + 14 * 6 + 12.413) / 30;
    expect(r.yield30d).toBeCloseTo(expectedMean, 9);
  });

  it('fewer than 20 days in the window: insufficient_data, no numbers', () => {
    const r = computeRa30(
      days(19, () => ({ apy: 5, tvlUsd: 1e9 })),
      { safety: 5, liquidity: 5 },
    );
    expect(r.status).toBe('insufficient_data');
    expect(r.window.days).toBe(19);
    expect(r.yield30d).toBe(0);
    expect(r.riskAdjustedYield30d).toBe(0);
    expect(r.inputs.tvl).toBe(1e9);
    expect(
      computeRa30(
        days(20, () => ({ apy: 5, tvlUsd: 1e9 })),
        { safety: 5, liquidity: 5 },
      ).status,
    ).toBe('ok');
    expect(computeRa30([], { safety: 5, liquidity: 5 })).toMatchObject({
      status: 'insufficient_data',
      asOf: null,
    });
  });

  it('a negative result is returned as it is', () => {
    // APR(3) = 2.956; charges: safety(1) 6.0 + liquidity(1) 2.0 + size 0.25·log10(1e9/1e6) = 0.75
    const r = computeRa30(
      days(30, () => ({ apy: 3, tvlUsd: 1e6 })),
      { safety: 1, liquidity: 1 },
    );
    expect(r.charges.size).toBeCloseTo(0.75, 12);
    expect(r.riskAdjustedYield30d).toBeCloseTo(APR_OF_APY_3 - 8.75, 12);
    expect(r.riskAdjustedYield30d).toBeLessThan(0);
  });

  it('TVL drawdown becomes the outflow charge', () => {
    // TVL 100M rising to 120M on day 10, falling to 60M on day 20, recovering to 90M.
    const tvl = (i: number) =>
      i < 10 ? 100e6 : i === 10 ? 120e6 : i < 20 ? 100e6 : i === 20 ? 60e6 : 90e6;
    const r = computeRa30(
      days(30, (i) => ({ apy: 5, tvlUsd: tvl(i) })),
      { safety: 4, liquidity: 4 },
    );
    expect(r.inputs.tvlDrawdown).toBeCloseTo(0.5, 12);
    expect(r.charges.outflow).toBeCloseTo(0.5, 12);
    expect(r.inputs.tvl).toBe(90e6);
    // median TVL = 100M (most days) -> size 0.25 · log10(10) = 0.25
    expect(r.inputs.tvlMedian).toBe(100e6);
    expect(r.charges.size).toBeCloseTo(0.25, 12);
    expect(r.riskAdjustedYield30d).toBeCloseTo(APR_OF_APY_5 - 0.75 - 0.1 - 0.25 - 0.5, 12);
  });

  it('incentives are charged at half the reward APR', () => {
    const r = computeRa30(
      days(30, () => ({ apy: 5, apyReward: 1, tvlUsd: 1e9 })),
      { safety: 3, liquidity: 3 },
    );
    expect(r.inputs.reward30).toBeCloseTo(APR_OF_APY_1, 12);
    expect(r.charges.incentives).toBeCloseTo(APR_OF_APY_1 / 2, 12);
    expect(r.riskAdjustedYield30d).toBeCloseTo(APR_OF_APY_5 - APR_OF_APY_1 / 2 - 1.5 - 0.3, 12);
  });

  it('uses the newest 30 rows by date, whatever their order', () => {
    const old = days(10, () => ({ apy: 50, tvlUsd: 1e9 }), Date.UTC(2025, 0, 1));
    const recent = days(30, () => ({ apy: 5, tvlUsd: 1e9 }));
    const r = computeRa30([...recent.reverse(), ...old], { safety: 5, liquidity: 5 });
    expect(r.window).toEqual({ from: '2026-01-02', to: '2026-01-31', days: 30 });
    expect(r.yield30d).toBeCloseTo(APR_OF_APY_5, 12);
  });

  it('carries the method version', () => {
    expect(
      computeRa30(
        days(30, () => ({ apy: 5, tvlUsd: 1e9 })),
        { safety: 5, liquidity: 5 },
      ).method,
    ).toBe('ra30-v1');
    expect(RA30_V1.method).toBe('ra30-v1');
  });
});

describe('base rates and GREAT (steps 6-7)', () => {
  const base = computeRa30(
    days(30, () => ({ apy: 5, tvlUsd: 5e9 })),
    { safety: 5, liquidity: 5 },
  );

  it("a base rate's risk is above 0 even with no volatility, size or outflow (safety is never free)", () => {
    expect(base.inputs.sigma30).toBeCloseTo(0, 12);
    expect(base.risk).toBeCloseTo(0.2, 12);
    expect(base.risk).toBeGreaterThan(0);
  });

  it('chart point: reward = yield30d, risk = yield30d - riskAdjusted', () => {
    expect(chartPoint({ yield30d: 8, riskAdjustedYield30d: 5 })).toEqual({ reward: 8, risk: 3 });
  });

  it('GREAT when reward > (baseReward / baseRisk) · risk', () => {
    // base slope = 4.879 / 0.2 = 24.4; a point with risk 0.2 and reward 5 is above it
    const good: Pick<Ra30Result, 'status' | 'yield30d' | 'riskAdjustedYield30d'> = {
      status: 'ok',
      yield30d: 5,
      riskAdjustedYield30d: 4.8,
    };
    const poor: Pick<Ra30Result, 'status' | 'yield30d' | 'riskAdjustedYield30d'> = {
      status: 'ok',
      yield30d: 5,
      riskAdjustedYield30d: 4,
    };
    expect(isGreat(good, base, false)).toBe(true);
    expect(isGreat(poor, base, false)).toBe(false);
  });

  it('an active incident is never GREAT', () => {
    const good = { status: 'ok' as const, yield30d: 50, riskAdjustedYield30d: 49.99 };
    expect(isGreat(good, base, false)).toBe(true);
    expect(isGreat(good, base, true)).toBe(false);
  });

  it('no data is never GREAT', () => {
    expect(
      isGreat({ status: 'insufficient_data', yield30d: 0, riskAdjustedYield30d: 0 }, base, false),
    ).toBe(false);
  });
});
