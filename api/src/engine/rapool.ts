/**
 * Risk-adjusted APY of one DeFiLlama pool from its `/pools` snapshot row, method `rapool-v1`
 * (docs/methodology.md, "Pools: rapool-v1").
 *
 * Pure, like ra30.ts: a pool's snapshot fields and its project's safety score in, charges out.
 * No Koa, no lowdb, no clock. The scanner computes every pool with it once per snapshot.
 *
 * Where ra30-v1 has 30 days of daily history per source, a snapshot has one row per pool with
 * DeFiLlama's own statistics of the pool's whole tracked history: `sigma`, the annualised
 * standard deviation of its daily returns in percent, and `count`, the number of daily
 * observations behind it. The charges follow ra30-v1's where the snapshot allows it (volatility,
 * incentives, size, safety, same tables and weights) and add one for impermanent loss, which
 * ra30-v1's single-asset sources do not carry.
 */
import { RA30_V1, type Score } from './ra30.ts';

export const RAPOOL_METHOD = 'rapool-v1';

/** The snapshot fields the method reads (DeFiLlama's names; percentages in percent, 5 = 5%). */
export interface PoolInput {
  /** Current APY (apyBase + apyReward). */
  apy: number;
  apyReward?: number | null | undefined;
  /** Mean of the APY readings of the last 30 days; null for a pool DeFiLlama has just listed. */
  apyMean30d?: number | null | undefined;
  /** Annualised standard deviation of daily returns over the pool's tracked history, in %. */
  sigma: number;
  /** Daily observations behind sigma (the pool's tracked age in days). */
  count: number;
  tvlUsd: number;
  ilRisk: 'yes' | 'no';
  exposure: 'single' | 'multi';
}

export interface RapoolParams {
  method: string;
  /** Charge per point of the APY's standard deviation (ra30-v1: 1.0 per point of sigma30). */
  volatilityWeight: number;
  /** Fewer daily observations than this and sigma is not yet a measurement (ra30-v1's minDays). */
  minCount: number;
  /** Below minCount the volatility charge is at least this share of the APY. */
  youngPoolShare: number;
  /** Share of the incentive part of the APY that is charged (ra30-v1: 0.5). */
  incentivesWeight: number;
  /** Impermanent loss: pools DeFiLlama flags ilRisk "yes". */
  impermanentLossCharge: number;
  /** Several assets without impermanent loss (ilRisk "no", exposure "multi"): one may depeg. */
  multiExposureCharge: number;
  sizeWeight: number;
  sizeReferenceUsd: number;
  /** Safety score to charge by (ra30-v1's table). */
  safetyCharge: Record<Score, number>;
  /** The safety score of a project that is neither a scored source's nor in project-tiers.json. */
  unlistedSafety: Score;
}

/** Coefficients of rapool-v1. Changing any of them means a new method version. */
export const RAPOOL_V1: RapoolParams = Object.freeze({
  method: RAPOOL_METHOD,
  volatilityWeight: 1.0,
  minCount: RA30_V1.minDays,
  youngPoolShare: 0.5,
  incentivesWeight: RA30_V1.incentivesWeight,
  impermanentLossCharge: 2.0,
  multiExposureCharge: 0.25,
  sizeWeight: RA30_V1.sizeWeight,
  sizeReferenceUsd: RA30_V1.sizeReferenceUsd,
  safetyCharge: RA30_V1.safetyCharge,
  unlistedSafety: 2,
});

export interface PoolCharges {
  volatility: number;
  incentives: number;
  impermanentLoss: number;
  size: number;
  safety: number;
}

export interface RapoolResult {
  method: string;
  /** The APY the charges are taken from: apyMean30d when DeFiLlama has one, else the current apy. */
  apy: number;
  apyBasis: 'mean30d' | 'spot';
  riskAdjustedApy: number;
  /** Sum of the charges, never negative. */
  risk: number;
  charges: PoolCharges;
  inputs: {
    /** sigma · √365: about the standard deviation of the APY in points. */
    apyStdDev: number;
    /** apyReward / apy of the current reading, 0..1. */
    rewardShare: number;
    safety: Score;
  };
}

/**
 * DeFiLlama's sigma is sqrt(365 · var(daily return)) · 100 with daily return (1 + apy/100)^(1/365)
 * − 1 ≈ apy / 36500, so sigma ≈ std(apy) / √365: multiplying by √365 gives the standard
 * deviation of the APY in percentage points (exactly so for small APYs).
 */
export function apyStdDevOfSigma(sigma: number): number {
  return Math.max(0, sigma) * Math.sqrt(365);
}

/** The incentive part of the current APY as a share 0..1 (0 without a positive APY). */
export function rewardShareOf(apy: number, apyReward: number | null | undefined): number {
  if (!(apy > 0) || apyReward === null || apyReward === undefined) return 0;
  return Math.min(1, Math.max(0, apyReward / apy));
}

export function computeRapool(
  pool: PoolInput,
  safety: Score,
  params: RapoolParams = RAPOOL_V1,
): RapoolResult {
  const hasMean = pool.apyMean30d !== null && pool.apyMean30d !== undefined;
  const apy = hasMean ? (pool.apyMean30d as number) : pool.apy;
  const positiveApy = Math.max(0, apy);

  const apyStdDev = apyStdDevOfSigma(pool.sigma);
  let volatility = params.volatilityWeight * apyStdDev;
  if (pool.count < params.minCount) {
    volatility = Math.max(volatility, params.youngPoolShare * positiveApy);
  }

  const rewardShare = rewardShareOf(pool.apy, pool.apyReward);
  // A zero TVL is priced as a $1 pool, as ra30-v1 does with a zero median TVL.
  const sizeBase = pool.tvlUsd > 0 ? pool.tvlUsd : 1;

  const charges: PoolCharges = {
    volatility,
    incentives: params.incentivesWeight * rewardShare * positiveApy,
    impermanentLoss:
      pool.ilRisk === 'yes'
        ? params.impermanentLossCharge
        : pool.exposure === 'multi'
          ? params.multiExposureCharge
          : 0,
    size: params.sizeWeight * Math.max(0, Math.log10(params.sizeReferenceUsd / sizeBase)),
    safety: params.safetyCharge[safety],
  };
  const risk =
    charges.volatility +
    charges.incentives +
    charges.impermanentLoss +
    charges.size +
    charges.safety;

  return {
    method: params.method,
    apy,
    apyBasis: hasMean ? 'mean30d' : 'spot',
    riskAdjustedApy: apy - risk,
    risk,
    charges,
    inputs: { apyStdDev, rewardShare, safety },
  };
}
