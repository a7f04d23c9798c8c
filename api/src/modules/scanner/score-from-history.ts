/**
 * The one place the scanner turns a pool (its `/pools` row) and the pool's own trailing daily
 * history (pool-history.ts, oldest first) into its figures.
 *
 * With at least MIN_HISTORY_DAYS days of its own history, the inputs of the method come from that
 * history: the mean APY of the last 30 days, sigma of the last 30 days' daily returns (DeFiLlama's
 * formula: sqrt(365 · var(r)) · 100 with r = (1 + apy/100)^(1/365) − 1), the number of those days
 * as `count`, and the latest day's reward APY. With less, DeFiLlama's whole-life figures of the
 * `/pools` row are used, as before.
 *
 * NOTE: the method is rapool-v1 until rapool-v2 (api/src/engine/rapool-v2.ts, computed from the
 * pool's own trailing history) lands: then this function's body is replaced by a call to it. The
 * scanner calls nothing else to score a pool.
 */
import { computeRapool, RAPOOL_V1, type RapoolResult, type Score } from '../../engine/index.ts';
import type { Pool } from './schemas.ts';
import type { PoolDay } from './pool-history.ts';

/** Days of a pool's own history from which its figures are computed from it. */
export const MIN_HISTORY_DAYS = 30;
/** Days of history the scanner loads per pool. */
export const TRAILING_DAYS = 30;

export interface HistoryScore {
  result: RapoolResult;
  /** The sigma and count the result was computed with. */
  sigma: number;
  count: number;
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
  const base = {
    apy: pool.apy,
    apyReward: pool.apyReward,
    tvlUsd: pool.tvlUsd,
    ilRisk: pool.ilRisk,
    exposure: pool.exposure,
  };
  if (!history || history.length < MIN_HISTORY_DAYS) {
    const result = computeRapool(
      { ...base, apyMean30d: pool.apyMean30d, sigma: pool.sigma, count: pool.count },
      safety,
      RAPOOL_V1,
    );
    return { result, sigma: pool.sigma, count: pool.count, basis: 'snapshot' };
  }
  const window = history.slice(-TRAILING_DAYS).map((d) => d.apy);
  const apyMean30d = window.reduce((s, v) => s + v, 0) / window.length;
  const sigma = sigmaOfApys(window);
  const count = window.length;
  const result = computeRapool({ ...base, apyMean30d, sigma, count }, safety, RAPOOL_V1);
  return { result, sigma, count, basis: 'history' };
}
