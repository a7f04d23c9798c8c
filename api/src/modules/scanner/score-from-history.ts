/**
 * The one place the scanner turns a pool (its `/pools` row) and the pool's own trailing daily
 * history (pool-history.ts, oldest first) into its figures.
 *
 * Method rapool-v3 (api/src/engine/rapool2.ts: rapool-v2 read in APR, every figure an APR). With
 * at least MIN_HISTORY_DAYS days of its own history, the method runs on that history (its trailing
 * window, each day's APYs turned into their APRs); `sigma` and `count`, shown as
 * inputs, are those of the last 30 days' daily returns (DeFiLlama's formula: sqrt(365 · var(r)) ·
 * 100 with r = (1 + apy/100)^(1/365) − 1). With less, the method's snapshot path on the `/pools`
 * row (its APYs turned into their APRs), with DeFiLlama's whole-life sigma and count. The scanner calls nothing else to score a pool.
 */
import {
  rapoolV3OfHistory,
  rapoolV3OfSnapshot,
  type RapoolV2Result,
  type Score,
} from '../../engine/index.ts';
import type { Pool } from '../import/index.ts';
import type { PoolDay } from '../import/index.ts';

/** Days of a pool's own history from which its figures are computed from it. */
export const MIN_HISTORY_DAYS = 30;
/** Days of history the scanner loads per pool. */
export const TRAILING_DAYS = 30;

export interface HistoryScore {
  result: RapoolV2Result;
  /** The sigma and count the result was computed with. */
  sigma: number;
  count: number;
  /** The 30-day mean APY shown: of the pool's own last 30 days, else DeFiLlama's (null: none). */
  apyMean30d: number | null;
  /** `history`: from the pool's own trailing days; `snapshot`: DeFiLlama's whole-life figures. */
  basis: 'history' | 'snapshot';
}

function sampleVariance(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  return values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
}

/** DeFiLlama's sigma of a run of daily APYs (percent). */
export function sigmaOfApys(apys: readonly number[]): number {
  const returns = apys.map((apy) => Math.pow(1 + Math.max(apy, -99.99) / 100, 1 / 365) - 1);
  return Math.sqrt(365 * sampleVariance(returns)) * 100;
}

export function scoreFromHistory(
  pool: Pool,
  history: readonly PoolDay[] | undefined,
  safety: Score,
): HistoryScore {
  const meta = { stablecoin: pool.stablecoin, ilRisk: pool.ilRisk, exposure: pool.exposure };
  const own =
    history && history.length >= MIN_HISTORY_DAYS
      ? rapoolV3OfHistory(history, { ...meta }, safety)
      : null;
  if (own) {
    const window = history!.slice(-TRAILING_DAYS).map((d) => d.apy);
    return {
      result: own,
      sigma: sigmaOfApys(window),
      count: window.length,
      apyMean30d: window.reduce((sum, apy) => sum + apy, 0) / window.length,
      basis: 'history',
    };
  }
  const result = rapoolV3OfSnapshot(
    {
      apy: pool.apy,
      apyBase: pool.apyBase,
      apyReward: pool.apyReward,
      apyMean30d: pool.apyMean30d,
      count: pool.count,
      tvlUsd: pool.tvlUsd,
      il7d: pool.il7d,
      ...meta,
    },
    safety,
  );
  return {
    result,
    sigma: pool.sigma,
    count: pool.count,
    apyMean30d: pool.apyMean30d ?? null,
    basis: 'snapshot',
  };
}
