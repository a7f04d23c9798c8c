/**
 * Method `rapool-v2` (docs/methodology.md, "Pools: rapool-v2"): a DeFi pool's expected APR over
 * the next 30 days and its risk-adjusted APR, from the pool's own trailing daily history.
 *
 * Pure: days in, figures out. No Koa, no files, no clock.
 *
 * - `expected`: the robust level of the trailing 30 days (median of the base part plus a kept
 *   share of the median reward part), pulled towards the prior of the pool's category in
 *   log-growth terms (ln(1 + APR)) by a weight that grows with the pool's age. The coefficients
 *   (`rewardKeep`, `beta`, `ageHalfDays`, the priors) are fitted on real histories by
 *   `api/scripts/method-fit.ts`.
 * - `riskAdjusted`: `expected` minus charges for losses the reported APY does not show:
 *   impermanent loss and the reward tokens' price risk and outflows as shares of the part of
 *   `expected` they eat into, hacks and small size as fixed points (they take principal, not
 *   yield). Never above `expected`.
 */
import { median, RA30_V1, type Score } from './ra30.ts';

export const RAPOOL_V2_METHOD = 'rapool-v2';

/** One UTC day of a pool's history (percent: 5 = 5%). */
export interface DayPoint {
  /** YYYY-MM-DD (UTC). */
  date: string;
  apy: number;
  apyBase?: number | null | undefined;
  apyReward?: number | null | undefined;
  tvlUsd: number;
  /** DeFiLlama's 7-day impermanent loss in percent (negative is a loss), when it has one. */
  il7d?: number | null | undefined;
}

/** What a /pools answer says about the pool, when known. */
export interface PoolMetaV2 {
  stablecoin?: boolean | undefined;
  ilRisk?: 'yes' | 'no' | undefined;
  exposure?: 'single' | 'multi' | undefined;
}

export const POOL_CATEGORIES = ['stablecoin', 'ilRisk', 'rewardHeavy', 'other'] as const;
export type PoolCategory = (typeof POOL_CATEGORIES)[number];

export interface RapoolV2Params {
  method: string;
  /** Trailing window, days. */
  windowDays: number;
  /** Share of the window's days dropped at each end before averaging (the trimmed mean). */
  trim: number;
  /** Days of own history a pool needs before its history is used (else the snapshot path). */
  minDays: number;
  /** Share of the reward part's trailing median that is expected to keep being paid. */
  rewardKeep: number;
  /** Weight of the pool's own level against its category prior for an old pool (0..1). */
  beta: number;
  /** Age (days) at which the own level's weight is half of beta. */
  ageHalfDays: number;
  /**
   * Share of the pulled level taken off per unit of the window's APY coefficient of variation
   * (a swinging yield is expected lower; 0 in rapool-v2). Capped so expected keeps its sign.
   */
  volShare?: number | undefined;
  /** Pools without 30 days of history (snapshot path): the weight is further multiplied by this. */
  snapshotWeight: number;
  /** What comparable pools went on to pay over 30 days (median realized APR, percent). */
  priors: Record<PoolCategory, number>;
  /** Reward share of the level above which a pool is "reward-heavy". */
  rewardHeavyShare: number;
  /** Impermanent loss as a share of the expected base (fee) part, for a pool with IL risk. */
  ilShare: number;
  /** Reward tokens' price risk: share of the expected reward part lost. */
  rewardPriceShare: number;
  /** Shrinking deposits: share of expected charged per unit of the fall below the window's median TVL. */
  outflowShare: number;
  sizeWeight: number;
  sizeReferenceUsd: number;
  /** Expected yearly loss from hacks and failures by project safety score, points. */
  safetyCharge: Record<Score, number>;
}

/**
 * Coefficients of rapool-v2. `rewardKeep`, `beta`, `ageHalfDays` and `priors` are the values
 * `pnpm --filter @yield/api method:fit` prints (fit on days before its cut date); the charges'
 * shares are set, not fitted (no price histories of the assets or reward tokens to fit them on).
 */
export const RAPOOL_V2: RapoolV2Params = Object.freeze({
  method: RAPOOL_V2_METHOD,
  windowDays: 30,
  trim: 0.1,
  minDays: 30,
  rewardKeep: 1,
  beta: 0.95,
  ageHalfDays: 0,
  snapshotWeight: 0.25,
  priors: Object.freeze({ stablecoin: 9.5, ilRisk: 9.5, rewardHeavy: 43.9, other: 9.5 }),
  rewardHeavyShare: 0.5,
  ilShare: 0.5,
  rewardPriceShare: 0.3,
  outflowShare: 0.5,
  sizeWeight: RA30_V1.sizeWeight,
  sizeReferenceUsd: RA30_V1.sizeReferenceUsd,
  safetyCharge: RA30_V1.safetyCharge,
}) as RapoolV2Params;

export const RAPOOL_V3_METHOD = 'rapool-v3';

/**
 * Coefficients of rapool-v3: rapool-v2's method read in one unit, the APR (a day's APYs are turned
 * into the APRs behind them with `aprPoint` before the window is read; `expected` is an APR), and
 * the pulled level cut by `volShare` × the window's coefficient of variation. Fitted by
 * `pnpm --filter @yield/api method:fit` (the level's coefficients by the smallest error; volShare
 * the smallest whose top 10 disappoint, on the fit days, no more often than the baseline's).
 */
export const RAPOOL_V3: RapoolV2Params = Object.freeze({
  ...RAPOOL_V2,
  method: RAPOOL_V3_METHOD,
  trim: 0.1,
  rewardKeep: 0.9,
  beta: 0.95,
  ageHalfDays: 0,
  volShare: 0.125,
  priors: Object.freeze({ stablecoin: 8.5, ilRisk: 8.5, rewardHeavy: 34.9, other: 8.5 }),
}) as RapoolV2Params;

/** The statistics of a trailing window that the method reads. */
export interface WindowStats {
  /** Days from the pool's first day to this one, inclusive. */
  ageDays: number;
  /** Median of the base part (apyBase; apy − apyReward when apyBase is missing). */
  base: number;
  /** Median of the reward part (apyReward, 0 when missing). */
  reward: number;
  /** Coefficient of variation of the daily APY over the window (0 for a flat or zero APY). */
  apyCv: number;
  tvlNow: number;
  tvlMedian: number;
  /** Newest il7d in the window, null when DeFiLlama has none. */
  il7d: number | null;
}

export interface RapoolV2Charges {
  impermanentLoss: number;
  rewardPrice: number;
  outflow: number;
  size: number;
  safety: number;
}

export interface RapoolV2Result {
  method: string;
  expected: number;
  riskAdjusted: number;
  risk: number;
  charges: RapoolV2Charges;
  inputs: {
    category: PoolCategory;
    /** base + rewardKeep · reward: the pool's own level before the pull to the prior. */
    level: number;
    prior: number;
    /** Weight of the own level (0..1). */
    weight: number;
    base: number;
    reward: number;
    safety: Score;
    basis: 'history' | 'snapshot';
  };
}

/**
 * Mean of the values left after dropping floor(n · trim) of the smallest and as many of the
 * largest (trim 0.1 of 30 values: the 3 lowest and 3 highest). 0 for no values.
 */
export function trimmedMean(values: number[], trim: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const cut = Math.floor(s.length * trim);
  let sum = 0;
  for (let k = cut; k < s.length - cut; k++) sum += s[k]!;
  return sum / (s.length - 2 * cut);
}

function basePart(p: DayPoint): number {
  if (p.apyBase !== null && p.apyBase !== undefined && Number.isFinite(p.apyBase)) return p.apyBase;
  return p.apy - rewardPart(p);
}
function rewardPart(p: DayPoint): number {
  return p.apyReward !== null && p.apyReward !== undefined && Number.isFinite(p.apyReward)
    ? p.apyReward
    : 0;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

/** The statistics of `window` (the days of the trailing window, oldest first, newest last). */
export function windowStats(
  window: readonly DayPoint[],
  ageDays: number,
  trim: number = RAPOOL_V2.trim,
): WindowStats {
  const apys = window.map((p) => p.apy);
  const mean = apys.reduce((a, b) => a + b, 0) / Math.max(1, apys.length);
  const variance = apys.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, apys.length - 1);
  const last = window[window.length - 1]!;
  let il7d: number | null = null;
  for (let k = window.length - 1; k >= 0; k--) {
    const v = window[k]!.il7d;
    if (v !== null && v !== undefined && Number.isFinite(v)) {
      il7d = v;
      break;
    }
  }
  return {
    ageDays,
    base: trimmedMean(window.map(basePart), trim),
    reward: trimmedMean(window.map(rewardPart), trim),
    apyCv: mean > 0 && apys.length > 1 ? Math.sqrt(variance) / mean : 0,
    tvlNow: last.tvlUsd,
    tvlMedian: median(window.map((p) => p.tvlUsd)),
    il7d,
  };
}

/** The category whose prior a pool is pulled towards. */
export function categoryOf(
  stats: Pick<WindowStats, 'base' | 'reward'>,
  meta: PoolMetaV2,
  params: RapoolV2Params = RAPOOL_V2,
): PoolCategory {
  const total = Math.max(0, stats.base) + Math.max(0, stats.reward);
  if (total > 0 && Math.max(0, stats.reward) / total > params.rewardHeavyShare)
    return 'rewardHeavy';
  if (meta.stablecoin === true) return 'stablecoin';
  if (meta.ilRisk === 'yes') return 'ilRisk';
  return 'other';
}

/** ln(1 + apr/100), the growth a year; APRs at or below −100% are floored just above it. */
export function growth(apr: number): number {
  return Math.log(Math.max(1e-6, 1 + apr / 100));
}
export function aprOfGrowth(g: number): number {
  return (Math.exp(g) - 1) * 100;
}

/**
 * DeFiLlama's `apy` is an APR compounded daily (its yield-server: apy = ((1 + apr/365)^365 − 1)):
 * the APR behind an APY, percent. APYs at or below −100% give −36500%.
 */
export function aprOfApy(apy: number): number {
  return 365 * (Math.pow(Math.max(0, 1 + apy / 100), 1 / 365) - 1) * 100;
}
/** A day's point with its apy, apyBase and apyReward turned from APYs into APRs. */
export function aprPoint(p: DayPoint): DayPoint {
  const some = (v: number | null | undefined) =>
    v === null || v === undefined || !Number.isFinite(v) ? v : aprOfApy(v);
  return { ...p, apy: aprOfApy(p.apy), apyBase: some(p.apyBase), apyReward: some(p.apyReward) };
}
/** The APY (compounded daily) of an APR, percent. */
export function apyOfApr(apr: number): number {
  return (Math.pow(Math.max(0, 1 + apr / 36500), 365) - 1) * 100;
}

/** The own level's weight for a pool `ageDays` old: beta · age / (age + ageHalfDays). */
export function ownWeight(ageDays: number, params: RapoolV2Params = RAPOOL_V2): number {
  const age = Math.max(0, ageDays);
  return params.ageHalfDays > 0 ? (params.beta * age) / (age + params.ageHalfDays) : params.beta;
}

/** expected = prior pulled towards the level in ln(1 + APR): exp(p + w·(ln(1+L) − p)) − 1. */
export function expectedOf(level: number, prior: number, weight: number): number {
  const p = growth(prior);
  return aprOfGrowth(p + weight * (growth(level) - p));
}

export function computeRapoolV2(
  stats: WindowStats,
  meta: PoolMetaV2,
  safety: Score,
  params: RapoolV2Params = RAPOOL_V2,
  basis: 'history' | 'snapshot' = 'history',
): RapoolV2Result {
  const base = stats.base;
  const reward = Math.max(0, stats.reward);
  const keptReward = params.rewardKeep * reward;
  const level = base + keptReward;
  const category = categoryOf(stats, meta, params);
  const prior = params.priors[category];
  const weight =
    ownWeight(stats.ageDays, params) * (basis === 'snapshot' ? params.snapshotWeight : 1);
  // From a snapshot, the pull only ever lowers the level: it is there to stop a spike or a
  // launch incentive from being taken for a yield, and the fitted priors (pairs of exchanges)
  // say nothing of what a lending or staking pool below them would go on to pay.
  const pulledLevel = expectedOf(level, prior, weight);
  const volCut = Math.min(1, (params.volShare ?? 0) * stats.apyCv);
  const pulled = pulledLevel - volCut * Math.max(0, pulledLevel);
  const expected = basis === 'snapshot' ? Math.min(level, pulled) : pulled;

  // Split the expected figure into its fee and reward parts in the level's proportions.
  const positive = Math.max(0, expected);
  const levelPositive = Math.max(0, base) + keptReward;
  const rewardFraction = levelPositive > 0 ? keptReward / levelPositive : 0;
  const expectedReward = positive * rewardFraction;
  const expectedBase = positive - expectedReward;

  let impermanentLoss = 0;
  if (stats.il7d !== null) {
    impermanentLoss = (Math.max(0, -stats.il7d) * 365) / 7;
  } else if (meta.ilRisk === 'yes') {
    impermanentLoss = params.ilShare * expectedBase;
  } else if (meta.ilRisk === undefined && meta.exposure !== 'single' && meta.stablecoin !== true) {
    // Not known: the pool's own swings stand in for its assets' (a stable fee rate, little IL).
    impermanentLoss = params.ilShare * Math.min(1, stats.apyCv) * expectedBase;
  }
  const fall = stats.tvlMedian > 0 ? Math.max(0, 1 - stats.tvlNow / stats.tvlMedian) : 0;
  const sizeBase = stats.tvlNow > 0 ? stats.tvlNow : 1;
  const charges: RapoolV2Charges = {
    impermanentLoss,
    rewardPrice: params.rewardPriceShare * expectedReward,
    outflow: params.outflowShare * fall * positive,
    size: params.sizeWeight * Math.max(0, Math.log10(params.sizeReferenceUsd / sizeBase)),
    safety: params.safetyCharge[safety],
  };
  const risk =
    charges.impermanentLoss + charges.rewardPrice + charges.outflow + charges.size + charges.safety;
  return {
    method: params.method,
    expected,
    riskAdjusted: Math.min(expected, expected - risk),
    risk,
    charges,
    inputs: { category, level, prior, weight, base, reward, safety, basis },
  };
}

/** The trailing window of the newest day of `history` (oldest first, one point per day). */
export function trailingWindow(
  history: readonly DayPoint[],
  params: RapoolV2Params = RAPOOL_V2,
): { window: DayPoint[]; ageDays: number } {
  const last = history[history.length - 1]!;
  const end = dayNumber(last.date);
  const start = end - params.windowDays + 1;
  let k = history.length - 1;
  while (k > 0 && dayNumber(history[k - 1]!.date) >= start) k--;
  return { window: history.slice(k), ageDays: end - dayNumber(history[0]!.date) + 1 };
}

/** rapool-v2 of a pool on the newest day of its history (null with fewer than minDays). */
export function rapoolV2OfHistory(
  history: readonly DayPoint[],
  meta: PoolMetaV2,
  safety: Score,
  params: RapoolV2Params = RAPOOL_V2,
): RapoolV2Result | null {
  if (history.length === 0) return null;
  const { window, ageDays } = trailingWindow(history, params);
  if (ageDays < params.minDays) return null;
  return computeRapoolV2(
    windowStats(window, ageDays, params.trim),
    meta,
    safety,
    params,
    'history',
  );
}

/**
 * rapool-v3 of a pool on the newest day of its history (the scanner's method): the days' APYs
 * turned into the APRs behind them (`aprPoint`), then `RAPOOL_V3`; every figure is an APR.
 */
export function rapoolV3OfHistory(
  history: readonly DayPoint[],
  meta: PoolMetaV2,
  safety: Score,
): RapoolV2Result | null {
  return rapoolV2OfHistory(history.map(aprPoint), meta, safety, RAPOOL_V3);
}

/** The /pools fields the snapshot path reads (DeFiLlama's names). */
export interface SnapshotPoolV2 extends PoolMetaV2 {
  apy: number;
  apyBase?: number | null | undefined;
  apyReward?: number | null | undefined;
  apyMean30d?: number | null | undefined;
  /** Days DeFiLlama has tracked the pool. */
  count: number;
  tvlUsd: number;
  il7d?: number | null | undefined;
}

/**
 * rapool-v2 of a pool without 30 days of its own history in our data: the level is DeFiLlama's
 * 30-day mean (else the current APY) split into base and reward in the current reading's
 * proportions, the age is DeFiLlama's count, and the own level's weight is cut by
 * `snapshotWeight` (a pull towards the category prior stronger than with a history), and the
 * pull only lowers it: expected = min(level, pulled level).
 */
export function rapoolV2OfSnapshot(
  pool: SnapshotPoolV2,
  safety: Score,
  params: RapoolV2Params = RAPOOL_V2,
): RapoolV2Result {
  const hasMean = pool.apyMean30d !== null && pool.apyMean30d !== undefined;
  const level = hasMean ? (pool.apyMean30d as number) : pool.apy;
  const reward =
    pool.apyReward !== null && pool.apyReward !== undefined ? Math.max(0, pool.apyReward) : 0;
  const share = pool.apy > 0 ? Math.min(1, reward / pool.apy) : 0;
  const stats: WindowStats = {
    ageDays: Math.max(0, pool.count),
    base: level * (1 - share),
    reward: Math.max(0, level) * share,
    apyCv: 0,
    tvlNow: pool.tvlUsd,
    tvlMedian: pool.tvlUsd,
    il7d: pool.il7d ?? null,
  };
  return computeRapoolV2(stats, pool, safety, params, 'snapshot');
}

/**
 * The last point of each UTC day of a DeFiLlama `/chart/<pool>` answer, oldest first. Points
 * without a finite APY or timestamp are skipped.
 */
export function dailySeries(
  points: readonly {
    timestamp: string;
    apy?: number | null;
    apyBase?: number | null;
    apyReward?: number | null;
    tvlUsd?: number | null;
    il7d?: number | null;
  }[],
): DayPoint[] {
  const byDay = new Map<string, { t: number; p: DayPoint }>();
  for (const raw of points) {
    const t = Date.parse(raw.timestamp);
    if (!Number.isFinite(t) || typeof raw.apy !== 'number' || !Number.isFinite(raw.apy)) continue;
    const date = new Date(t).toISOString().slice(0, 10);
    const prev = byDay.get(date);
    if (prev && prev.t > t) continue;
    byDay.set(date, {
      t,
      p: {
        date,
        apy: raw.apy,
        apyBase: raw.apyBase ?? null,
        apyReward: raw.apyReward ?? null,
        tvlUsd: typeof raw.tvlUsd === 'number' && Number.isFinite(raw.tvlUsd) ? raw.tvlUsd : 0,
        il7d: raw.il7d ?? null,
      },
    });
  }
  return [...byDay.values()].map((v) => v.p).sort((a, b) => (a.date < b.date ? -1 : 1));
}

export interface BacktestRow {
  date: string;
  apy: number;
  expected: number;
  riskAdjusted: number;
  /** The window's statistics (for the fit; not written by method:backtest). */
  stats: WindowStats;
  category: PoolCategory;
}

/**
 * rapool-v2 on every day of a pool's daily series that has at least minDays of history up to
 * it, each from the days up to it only. The trailing window slides (its start only moves
 * forward), so a pool costs O(days · window), not O(days²).
 */
export function backtestSeries(
  days: readonly DayPoint[],
  meta: PoolMetaV2,
  safety: Score,
  params: RapoolV2Params = RAPOOL_V2,
): BacktestRow[] {
  const rows: BacktestRow[] = [];
  if (days.length === 0) return rows;
  const first = dayNumber(days[0]!.date);
  let start = 0;
  for (let k = 0; k < days.length; k++) {
    const d = dayNumber(days[k]!.date);
    while (dayNumber(days[start]!.date) < d - params.windowDays + 1) start++;
    const ageDays = d - first + 1;
    if (ageDays < params.minDays) continue;
    const stats = windowStats(days.slice(start, k + 1), ageDays, params.trim);
    const r = computeRapoolV2(stats, meta, safety, params, 'history');
    rows.push({
      date: days[k]!.date,
      apy: days[k]!.apy,
      expected: r.expected,
      riskAdjusted: r.riskAdjusted,
      stats,
      category: r.inputs.category,
    });
  }
  return rows;
}

/** An APY field turned into its APR; a missing value stays missing. */
function aprOrMissing<T extends number | null | undefined>(v: T): T {
  return (typeof v === 'number' && Number.isFinite(v) ? aprOfApy(v) : v) as T;
}

/**
 * rapool-v3 of a pool without 30 days of its own history: the snapshot path of `rapool-v2` on the
 * APRs behind DeFiLlama's `apy`, `apyBase`, `apyReward` and `apyMean30d`, with `RAPOOL_V3`.
 */
export function rapoolV3OfSnapshot(pool: SnapshotPoolV2, safety: Score): RapoolV2Result {
  return rapoolV2OfSnapshot(
    {
      ...pool,
      apy: aprOfApy(pool.apy),
      apyBase: aprOrMissing(pool.apyBase),
      apyReward: aprOrMissing(pool.apyReward),
      apyMean30d: aprOrMissing(pool.apyMean30d),
    },
    safety,
    RAPOOL_V3,
  );
}
