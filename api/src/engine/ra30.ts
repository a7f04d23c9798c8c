/**
 * Risk-adjusted 30-day APR, method `ra30-v1` (docs/methodology.md).
 *
 * Pure: history rows + static scores + parameters in, metrics out. No Koa, no lowdb, no clock,
 * so the API, the data generator and any batch job compute identical numbers.
 */

export const METHOD = 'ra30-v1';

/** One UTC day of a source (or base-rate component). Percentages are in percent (5 = 5%). */
export interface DailyRow {
  date: string;
  apy: number;
  apyReward?: number | undefined;
  tvlUsd: number;
  pricePerShare?: number | undefined;
  /** Addresses holding a position that day (sample data only; not used by the method). */
  holders?: number | undefined;
}

export type Score = 1 | 2 | 3 | 4 | 5;

export interface Scores {
  safety: Score;
  liquidity: Score;
}

export interface Ra30Params {
  method: string;
  windowDays: number;
  minDays: number;
  /** Clamp half-width in robust standard deviations (k in median ± k·1.4826·MAD). */
  clampK: number;
  madScale: number;
  volatilityWeight: number;
  incentivesWeight: number;
  safetyCharge: Record<Score, number>;
  liquidityCharge: Record<Score, number>;
  sizeWeight: number;
  sizeReferenceUsd: number;
  outflowWeight: number;
}

/** Coefficients of ra30-v1. Changing any of them means a new method version. */
export const RA30_V1: Ra30Params = Object.freeze({
  method: METHOD,
  windowDays: 30,
  minDays: 20,
  clampK: 5,
  madScale: 1.4826,
  volatilityWeight: 1.0,
  incentivesWeight: 0.5,
  safetyCharge: { 5: 0.2, 4: 0.75, 3: 1.5, 2: 3.0, 1: 6.0 },
  liquidityCharge: { 5: 0, 4: 0.1, 3: 0.3, 2: 0.75, 1: 2.0 },
  sizeWeight: 0.25,
  sizeReferenceUsd: 1e9,
  outflowWeight: 1.0,
});

export interface Charges {
  volatility: number;
  incentives: number;
  safety: number;
  liquidity: number;
  size: number;
  outflow: number;
}

export interface Ra30Result {
  method: string;
  status: 'ok' | 'insufficient_data';
  /** Newest day of the window (YYYY-MM-DD), or null without any data. */
  asOf: string | null;
  window: { from: string | null; to: string | null; days: number };
  inputs: {
    safety: Score;
    liquidity: Score;
    sigma30: number;
    reward30: number;
    tvl: number;
    tvlMedian: number;
    tvlDrawdown: number;
    clampedDays: number;
  };
  yield30d: number;
  riskAdjustedYield30d: number;
  risk: number;
  charges: Charges;
}

/** Step 1: compounded daily APY (%) to the simple APR (%) that pays the same per day. */
export function apyToApr(apy: number): number {
  return 100 * 365 * (Math.pow(1 + apy / 100, 1 / 365) - 1);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n - 1 in the denominator), 0 for fewer than two values. */
export function sampleStdDev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (values.length - 1));
}

/** Median absolute deviation from the median. */
export function mad(values: readonly number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m)));
}

/**
 * Step 2: clamp each value into median ± k·scale·MAD. With MAD = 0 nothing is clamped (a flat
 * series with one jump would otherwise be flattened completely).
 */
export function clampSpikes(
  values: readonly number[],
  k = RA30_V1.clampK,
  scale = RA30_V1.madScale,
): { values: number[]; clamped: number } {
  const m = median(values);
  const d = mad(values);
  if (!(d > 0)) return { values: [...values], clamped: 0 };
  const lo = m - k * scale * d;
  const hi = m + k * scale * d;
  let clamped = 0;
  const out = values.map((v) => {
    if (v < lo) {
      clamped++;
      return lo;
    }
    if (v > hi) {
      clamped++;
      return hi;
    }
    return v;
  });
  return { values: out, clamped };
}

/** Largest fall from a running peak to a later value, as a fraction 0..1. */
export function maxDrawdown(values: readonly number[]): number {
  let peak = Number.NEGATIVE_INFINITY;
  let worst = 0;
  for (const v of values) {
    if (v > peak) peak = v;
    if (peak > 0) {
      const fall = (peak - v) / peak;
      if (fall > worst) worst = fall;
    }
  }
  return Math.min(1, Math.max(0, worst));
}

/** The window: the newest `windowDays` rows by date (not "days before now"). */
export function latestWindow<T extends { date: string }>(
  rows: readonly T[],
  windowDays: number,
): T[] {
  const sorted = [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return sorted.slice(Math.max(0, sorted.length - windowDays));
}

const ZERO_CHARGES: Charges = {
  volatility: 0,
  incentives: 0,
  safety: 0,
  liquidity: 0,
  size: 0,
  outflow: 0,
};

/** Steps 1-5 of ra30-v1 for one source or base-rate series. */
export function computeRa30(
  rows: readonly DailyRow[],
  scores: Scores,
  params: Ra30Params = RA30_V1,
): Ra30Result {
  const window = latestWindow(rows, params.windowDays);
  const first = window[0];
  const last = window[window.length - 1];
  const base = {
    method: params.method,
    asOf: last?.date ?? null,
    window: { from: first?.date ?? null, to: last?.date ?? null, days: window.length },
  };
  if (window.length < params.minDays) {
    return {
      ...base,
      status: 'insufficient_data',
      inputs: {
        safety: scores.safety,
        liquidity: scores.liquidity,
        sigma30: 0,
        reward30: 0,
        tvl: last?.tvlUsd ?? 0,
        tvlMedian: 0,
        tvlDrawdown: 0,
        clampedDays: 0,
      },
      yield30d: 0,
      riskAdjustedYield30d: 0,
      risk: 0,
      charges: { ...ZERO_CHARGES },
    };
  }

  const rawApr = window.map((r) => apyToApr(r.apy));
  const { values: apr, clamped } = clampSpikes(rawApr, params.clampK, params.madScale);
  const rewardApr = window.map((r) => apyToApr(r.apyReward ?? 0));
  const tvls = window.map((r) => r.tvlUsd);

  const yield30d = mean(apr);
  const sigma30 = sampleStdDev(apr);
  const reward30 = mean(rewardApr);
  const tvl = last!.tvlUsd;
  const tvlMedian = median(tvls);
  const tvlDrawdown = maxDrawdown(tvls);

  // A zero or negative median TVL would make log10 infinite; price it as a $1 pool instead.
  const sizeBase = tvlMedian > 0 ? tvlMedian : 1;
  const charges: Charges = {
    volatility: params.volatilityWeight * sigma30,
    incentives: params.incentivesWeight * reward30,
    safety: params.safetyCharge[scores.safety],
    liquidity: params.liquidityCharge[scores.liquidity],
    size: params.sizeWeight * Math.max(0, Math.log10(params.sizeReferenceUsd / sizeBase)),
    outflow: params.outflowWeight * tvlDrawdown,
  };
  const risk =
    charges.volatility +
    charges.incentives +
    charges.safety +
    charges.liquidity +
    charges.size +
    charges.outflow;

  return {
    ...base,
    status: 'ok',
    inputs: {
      safety: scores.safety,
      liquidity: scores.liquidity,
      sigma30,
      reward30,
      tvl,
      tvlMedian,
      tvlDrawdown,
      clampedDays: clamped,
    },
    yield30d,
    riskAdjustedYield30d: yield30d - risk,
    risk,
    charges,
  };
}

/** Step 6: the comparison chart's point. */
export function chartPoint(result: Pick<Ra30Result, 'yield30d' | 'riskAdjustedYield30d'>): {
  reward: number;
  risk: number;
} {
  return { reward: result.yield30d, risk: result.yield30d - result.riskAdjustedYield30d };
}

/**
 * Step 7: GREAT when reward > (baseReward / baseRisk) · risk against the base rate of the same
 * type. Never GREAT with an active incident, without data, or against a base without data.
 */
export function isGreat(
  point: Pick<Ra30Result, 'status' | 'yield30d' | 'riskAdjustedYield30d'>,
  baseRate: Pick<Ra30Result, 'status' | 'yield30d' | 'riskAdjustedYield30d'>,
  hasActiveIncident: boolean,
): boolean {
  if (hasActiveIncident) return false;
  if (point.status !== 'ok' || baseRate.status !== 'ok') return false;
  const p = chartPoint(point);
  const b = chartPoint(baseRate);
  if (!(b.risk > 0)) return false;
  return p.reward > (b.reward / b.risk) * p.risk;
}
