import { describe, expect, it } from 'vitest';
import { RA30_V1, sampleStdDev } from './ra30.ts';
import {
  apyStdDevOfSigma,
  computeRapool,
  RAPOOL_V1,
  rewardShareOf,
  type PoolInput,
} from './rapool.ts';

const SQRT_365 = 19.1049731745428;

const pool = (overrides: Partial<PoolInput>): PoolInput => ({
  apy: 5,
  apyReward: null,
  apyMean30d: null,
  sigma: 0,
  count: 400,
  tvlUsd: 1e9,
  ilRisk: 'no',
  exposure: 'single',
  ...overrides,
});

describe('rapool-v1 parameters', () => {
  it('is versioned and frozen, and shares ra30-v1 tables and weights where the snapshot allows', () => {
    expect(RAPOOL_V1.method).toBe('rapool-v1');
    expect(Object.isFrozen(RAPOOL_V1)).toBe(true);
    expect(RAPOOL_V1.safetyCharge).toBe(RA30_V1.safetyCharge);
    expect(RAPOOL_V1.incentivesWeight).toBe(RA30_V1.incentivesWeight);
    expect(RAPOOL_V1.sizeWeight).toBe(RA30_V1.sizeWeight);
    expect(RAPOOL_V1.sizeReferenceUsd).toBe(RA30_V1.sizeReferenceUsd);
    expect(RAPOOL_V1.minCount).toBe(RA30_V1.minDays);
    expect(RAPOOL_V1.unlistedSafety).toBe(2);
  });
});

describe("DeFiLlama's sigma", () => {
  it('× √365 is the standard deviation of the APY in points (exactly so for small APYs)', () => {
    expect(apyStdDevOfSigma(1)).toBeCloseTo(SQRT_365, 12);
    expect(apyStdDevOfSigma(-1)).toBe(0);
    // Their formula: daily return r = (1 + apy/100)^(1/365) - 1, sigma = sqrt(365 · var(r)) · 100.
    const apys = Array.from({ length: 200 }, (_, i) => 4 + Math.sin(i / 5) + (i % 7) / 10);
    const returns = apys.map((apy) => Math.pow(1 + apy / 100, 1 / 365) - 1);
    const sigma = Math.sqrt(365 * sampleStdDev(returns) ** 2) * 100;
    const measured = sampleStdDev(apys);
    expect(apyStdDevOfSigma(sigma) / measured).toBeGreaterThan(0.95);
    expect(apyStdDevOfSigma(sigma) / measured).toBeLessThan(1.0);
  });
});

describe('reward share', () => {
  it('is apyReward / apy, clamped to 0..1, 0 without a positive APY or a reward figure', () => {
    expect(rewardShareOf(5, 1)).toBeCloseTo(0.2, 15);
    expect(rewardShareOf(2, 5)).toBe(1);
    expect(rewardShareOf(5, null)).toBe(0);
    expect(rewardShareOf(5, undefined)).toBe(0);
    expect(rewardShareOf(0, 0)).toBe(0);
    expect(rewardShareOf(-1, 1)).toBe(0);
  });
});

describe('computeRapool: hand-computed cases', () => {
  it('a mature single-asset lending pool: the 30-day mean is the basis, every charge as in the docs', () => {
    const r = computeRapool(
      pool({ apy: 5, apyReward: 1, apyMean30d: 4, sigma: 0.1, count: 400, tvlUsd: 1e8 }),
      4,
    );
    // volatility 0.1·√365 = 1.91049731745428; incentives 0.5 · (1/5) · 4 = 0.4; size 0.25 ·
    // log10(1e9/1e8) = 0.25; safety 4 → 0.75; risk 3.31049731745428; 4 − risk = 0.68950268254572.
    expect(r.method).toBe('rapool-v1');
    expect(r.apy).toBe(4);
    expect(r.apyBasis).toBe('mean30d');
    expect(r.charges.volatility).toBeCloseTo(1.91049731745428, 12);
    expect(r.charges.incentives).toBeCloseTo(0.4, 12);
    expect(r.charges.impermanentLoss).toBe(0);
    expect(r.charges.size).toBeCloseTo(0.25, 12);
    expect(r.charges.safety).toBe(0.75);
    expect(r.risk).toBeCloseTo(3.31049731745428, 12);
    expect(r.riskAdjustedApy).toBeCloseTo(0.68950268254572, 12);
    expect(r.inputs).toEqual({
      apyStdDev: expect.closeTo(1.91049731745428, 12) as number,
      rewardShare: expect.closeTo(0.2, 12) as number,
      safety: 4,
    });
  });

  it('a young incentivised pair of an unlisted project with no TVL', () => {
    const r = computeRapool(
      pool({
        apy: 40,
        apyReward: 30,
        apyMean30d: null,
        sigma: 0.5,
        count: 5,
        tvlUsd: 0,
        ilRisk: 'yes',
        exposure: 'multi',
      }),
      RAPOOL_V1.unlistedSafety,
    );
    // spot basis 40; volatility max(0.5·√365 = 9.55, 0.5 · 40 = 20) = 20 (fewer than 20 days);
    // incentives 0.5 · 0.75 · 40 = 15; impermanent loss 2.0; size 0.25 · log10(1e9 / 1) = 2.25;
    // safety 2 → 3.0; risk 42.25; 40 − 42.25 = −2.25.
    expect(r.apyBasis).toBe('spot');
    expect(r.charges).toEqual({
      volatility: 20,
      incentives: 15,
      impermanentLoss: 2,
      size: 2.25,
      safety: 3,
    });
    expect(r.risk).toBe(42.25);
    expect(r.riskAdjustedApy).toBe(-2.25);
  });

  it('the young-pool floor applies below 20 observations only, and never lowers a measured charge', () => {
    const at = (count: number, sigma = 0.01) =>
      computeRapool(pool({ apy: 10, sigma, count }), 5).charges.volatility;
    expect(at(19)).toBe(5);
    expect(at(20)).toBeCloseTo(0.01 * SQRT_365, 12);
    expect(at(1, 1)).toBeCloseTo(SQRT_365, 12);
  });

  it('a stablecoin pair: no impermanent loss, but the multi-asset charge; no size charge above $1B', () => {
    const r = computeRapool(
      pool({ apy: 3, sigma: 0, count: 100, tvlUsd: 2e9, ilRisk: 'no', exposure: 'multi' }),
      5,
    );
    // 0 + 0 + 0.25 + max(0, 0.25·log10(0.5)) = 0 + 0.2 → risk 0.45, 3 − 0.45 = 2.55.
    expect(r.charges).toEqual({
      volatility: 0,
      incentives: 0,
      impermanentLoss: 0.25,
      size: 0,
      safety: 0.2,
    });
    expect(r.riskAdjustedApy).toBeCloseTo(2.55, 12);
  });

  it('an options-style pool flagged ilRisk with single exposure pays the impermanent-loss charge', () => {
    const r = computeRapool(pool({ ilRisk: 'yes', exposure: 'single' }), 5);
    expect(r.charges.impermanentLoss).toBe(2);
  });

  it('a reward figure above the APY is charged as the whole APY, never more', () => {
    const r = computeRapool(pool({ apy: 2, apyReward: 5 }), 5);
    expect(r.charges.incentives).toBe(1);
  });

  it('a negative APY is shown as it is; no charge goes below 0', () => {
    const r = computeRapool(pool({ apy: -1, apyReward: 0.5, count: 3, sigma: 0 }), 3);
    expect(r.apy).toBe(-1);
    for (const charge of Object.values(r.charges)) expect(charge).toBeGreaterThanOrEqual(0);
    expect(r.charges.incentives).toBe(0);
    expect(r.charges.volatility).toBe(0);
    expect(r.riskAdjustedApy).toBeCloseTo(-1 - 1.5, 12);
  });

  it('every safety score is charged by the ra30-v1 table', () => {
    for (const score of [1, 2, 3, 4, 5] as const) {
      expect(computeRapool(pool({}), score).charges.safety).toBe(RA30_V1.safetyCharge[score]);
    }
  });
});
