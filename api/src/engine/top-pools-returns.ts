/**
 * The scanner's track record (docs/methodology.md, "Track record", "The scanner's top 10"):
 * month by month, what following the scanner's top 10 pools would have paid. Pure: the pools'
 * own daily histories, their descriptions and the base rates' daily APYs in, the months and the
 * value of a starting amount out. No Koa, no files, no clock.
 *
 * - Decision days are the first day of each month (as for the sources' track record); the holding
 *   runs over the days after it, up to and including the first day of the next month.
 * - On a decision day a pool is a candidate when its history up to that day only has at least
 *   `minDays` days and a row of that day, and it passes the scanner's default query (outliers
 *   left out). Its figure is computed as the scanner computes it today (rapool-v3, in APR): on
 *   its last `trailingDays` days up to that day, each day's APYs turned into their APRs, with the
 *   safety of its project as of that day. Every past day is computed with today's method.
 * - The picks: the top `size` candidates by risk-adjusted APR, and the top `size` by that day's
 *   APY (ties: the lower pool id).
 * - What a pool paid: its realized mean APY over the holding, the mean of its daily APYs where a
 *   day without a row counts as 0 (a pool whose history stops mid-month paid nothing after it).
 *   A group paid the equal-weight mean of its pools' realized mean APYs.
 * - The base: as the scanner's "vs base" column, a stablecoin pool is set against the stablecoin
 *   DeFi Base Rate and any other pool against the crypto (defi) one; a group's base is the mean
 *   over its pools of the realized mean APY of their base rate over the same days.
 * - Value: a starting amount grows each month by (1 + APY/100)^(days/365) with the group's (or
 *   its base's) realized mean APY.
 */
import {
  aprPoint,
  rapoolV2OfHistory,
  RAPOOL_V3,
  type DayPoint,
  type RapoolV2Params,
} from './rapool2.ts';
import { decisionDays, TRACK_START_VALUE } from './top-picks-returns.ts';
import type { Score } from './ra30.ts';

export type PoolKind = 'stablecoin' | 'crypto';

export interface TrackPool {
  pool: string;
  project: string;
  chain: string;
  symbol: string;
  stablecoin: boolean;
  ilRisk: 'yes' | 'no';
  exposure: 'single' | 'multi';
  outlier: boolean;
  /** One row per day, oldest first. */
  history: readonly DayPoint[];
}

export interface ScannerTrackOptions {
  /** Picks per group (10). */
  size?: number;
  /** Days of history a pool needs on a decision day (30, as the scanner). */
  minDays?: number;
  /** Days of history the figure is computed on (30, as the scanner). */
  trailingDays?: number;
  startValue?: number;
  params?: RapoolV2Params;
}

export interface ScannerTrackPick {
  pool: string;
  project: string;
  chain: string;
  symbol: string;
  kind: PoolKind;
  /** That day's APY, %. */
  apy: number;
  /** Its rapool-v3 risk-adjusted APR computed that day, %. */
  riskAdjustedApr: number;
  /** Mean of its daily APYs over the holding (missing days count as 0), %. */
  realizedApy: number;
  /** Days of the holding it has a row for. */
  daysWithData: number;
}

export interface ScannerTrackGroup {
  picks: ScannerTrackPick[];
  /** Equal-weight mean of the picks' realizedApy, %. */
  realizedApy: number;
  /** The mean over the picks of their base rate's realized mean APY, %. */
  baseApy: number;
}

export interface ScannerTrackMonth {
  decidedOn: string;
  until: string;
  days: number;
  /** Pools that were candidates on the decision day. */
  candidates: number;
  riskAdjusted: ScannerTrackGroup;
  rawApy: ScannerTrackGroup;
  /** The value of the starting amount following each; base follows the risk-adjusted group's. */
  value: { riskAdjusted: number; rawApy: number; base: number };
}

export interface ScannerTrackSkipped {
  decidedOn: string;
  until: string;
  candidates: number;
  reason: 'history_too_short' | 'no_base_rate';
}

export interface ScannerTrack {
  /** The first and last day of any pool's history (null without any). */
  firstDay: string | null;
  lastDay: string | null;
  months: ScannerTrackMonth[];
  skipped: ScannerTrackSkipped[];
  final: { riskAdjusted: number; rawApy: number; base: number };
}

export const SCANNER_TRACK_SIZE = 10;

const DAY_MS = 86_400_000;
const dayAfter = (day: string, n = 1) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The rows of `history` up to and including `day` (the history is oldest first). */
export function historyUpTo<T extends { date: string }>(history: readonly T[], day: string): T[] {
  let hi = history.length;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (history[mid]!.date <= day) lo = mid + 1;
    else hi = mid;
  }
  return history.slice(0, lo);
}

/** Mean of the daily values over the days after `from` up to `until`; a missing day is 0. */
export function realizedMeanApy(
  byDay: ReadonlyMap<string, number>,
  from: string,
  until: string,
): { apy: number; daysWithData: number; days: number } {
  let sum = 0;
  let days = 0;
  let daysWithData = 0;
  for (let d = dayAfter(from); d <= until; d = dayAfter(d)) {
    days++;
    const v = byDay.get(d);
    if (v === undefined) continue;
    sum += v;
    daysWithData++;
  }
  return { apy: days > 0 ? sum / days : 0, daysWithData, days };
}

/** Mean of the base rate's APYs over the days it has in the holding (null without any). */
function baseMeanApy(byDay: ReadonlyMap<string, number>, from: string, until: string) {
  let sum = 0;
  let n = 0;
  for (let d = dayAfter(from); d <= until; d = dayAfter(d)) {
    const v = byDay.get(d);
    if (v === undefined) continue;
    sum += v;
    n++;
  }
  return n > 0 ? sum / n : null;
}

/** The first day of the month after the one of `day`. */
function nextMonthStart(day: string): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

const kindOf = (pool: TrackPool): PoolKind => (pool.stablecoin ? 'stablecoin' : 'crypto');

/**
 * One pool on every first day of a month on which it is a candidate: its figures from its history
 * up to that day only, and what it paid over the month after it (realizedApy, the only figure
 * read from later days). Computed one pool at a time, so that a caller keeps these and not the
 * pool's whole history.
 */
export function poolDecisions(
  pool: TrackPool,
  safetyOf: (project: string, day: string) => Score,
  options: ScannerTrackOptions = {},
): Map<string, ScannerTrackPick> {
  const minDays = options.minDays ?? 30;
  const trailingDays = options.trailingDays ?? 30;
  const params = options.params ?? RAPOOL_V3;
  const out = new Map<string, ScannerTrackPick>();
  const history = pool.history;
  if (pool.outlier || history.length < minDays) return out;
  const meta = { stablecoin: pool.stablecoin, ilRisk: pool.ilRisk, exposure: pool.exposure };
  const last = history[history.length - 1]!.date;
  let apyByDay: Map<string, number> | null = null;
  let day = `${history[0]!.date.slice(0, 7)}-01`;
  for (; day <= last; day = nextMonthStart(day)) {
    const seen = historyUpTo(history, day);
    if (seen.length < minDays || seen[seen.length - 1]!.date !== day) continue;
    const result = rapoolV2OfHistory(
      seen.slice(-trailingDays).map(aprPoint),
      meta,
      safetyOf(pool.project, day),
      params,
    );
    if (!result) continue;
    apyByDay ??= new Map(history.map((d) => [d.date, d.apy]));
    const paid = realizedMeanApy(apyByDay, day, nextMonthStart(day));
    out.set(day, {
      pool: pool.pool,
      project: pool.project,
      chain: pool.chain,
      symbol: pool.symbol,
      kind: kindOf(pool),
      apy: seen[seen.length - 1]!.apy,
      riskAdjustedApr: result.riskAdjusted,
      realizedApy: paid.apy,
      daysWithData: paid.daysWithData,
    });
  }
  return out;
}

/** The candidates of a decision day, each from its history up to that day only. */
export function candidatesOn(
  pools: readonly TrackPool[],
  day: string,
  safetyOf: (project: string, day: string) => Score,
  options: ScannerTrackOptions = {},
): ScannerTrackPick[] {
  const out: ScannerTrackPick[] = [];
  for (const pool of pools) {
    const on = poolDecisions(
      { ...pool, history: historyUpTo(pool.history, day) },
      safetyOf,
      options,
    );
    const pick = on.get(day);
    if (pick) out.push(pick);
  }
  return out;
}

/** The top `size` candidates by `key`, value descending, ties by pool id. */
export function topOf(
  candidates: readonly ScannerTrackPick[],
  key: 'apy' | 'riskAdjustedApr',
  size: number,
): ScannerTrackPick[] {
  return [...candidates]
    .sort((a, b) =>
      a[key] !== b[key] ? b[key] - a[key] : a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0,
    )
    .slice(0, size);
}

/** The span of a set of histories, to be widened pool by pool. */
export interface HistorySpan {
  firstDay: string | null;
  lastDay: string | null;
}

export function widenSpan(span: HistorySpan, history: readonly { date: string }[]): void {
  const first = history[0]?.date;
  const last = history[history.length - 1]?.date;
  if (first !== undefined && (span.firstDay === null || first < span.firstDay))
    span.firstDay = first;
  if (last !== undefined && (span.lastDay === null || last > span.lastDay)) span.lastDay = last;
}

/**
 * The months from every pool's decisions (poolDecisions) and the span of all histories: the top
 * groups of each decision day, what they paid against the base rates, and the value lines.
 */
export function assembleScannerTrack(
  decisions: Iterable<ReadonlyMap<string, ScannerTrackPick>>,
  span: HistorySpan,
  base: Readonly<Record<PoolKind, ReadonlyMap<string, number>>>,
  options: ScannerTrackOptions = {},
): ScannerTrack {
  const size = options.size ?? SCANNER_TRACK_SIZE;
  const startValue = options.startValue ?? TRACK_START_VALUE;
  const { firstDay, lastDay } = span;
  const value = { riskAdjusted: startValue, rawApy: startValue, base: startValue };
  const months: ScannerTrackMonth[] = [];
  const skipped: ScannerTrackSkipped[] = [];
  if (firstDay === null || lastDay === null) {
    return { firstDay, lastDay, months, skipped, final: { ...value } };
  }
  const byDay = new Map<string, ScannerTrackPick[]>();
  for (const pool of decisions) {
    for (const [day, pick] of pool) {
      let list = byDay.get(day);
      if (!list) byDay.set(day, (list = []));
      list.push(pick);
    }
  }

  for (const { day, until } of decisionDays(firstDay, lastDay)) {
    const candidates = byDay.get(day) ?? [];
    if (candidates.length === 0) {
      skipped.push({ decidedOn: day, until, candidates: 0, reason: 'history_too_short' });
      continue;
    }
    const baseApy = {
      stablecoin: baseMeanApy(base.stablecoin, day, until),
      crypto: baseMeanApy(base.crypto, day, until),
    };
    const group = (picks: ScannerTrackPick[]): ScannerTrackGroup | null => {
      let baseSum = 0;
      for (const p of picks) {
        const b = baseApy[p.kind];
        if (b === null) return null;
        baseSum += b;
      }
      return {
        picks,
        realizedApy: picks.reduce((s, p) => s + p.realizedApy, 0) / picks.length,
        baseApy: baseSum / picks.length,
      };
    };
    const riskAdjusted = group(topOf(candidates, 'riskAdjustedApr', size));
    const rawApy = group(topOf(candidates, 'apy', size));
    if (!riskAdjusted || !rawApy) {
      skipped.push({
        decidedOn: day,
        until,
        candidates: candidates.length,
        reason: 'no_base_rate',
      });
      continue;
    }
    const days = Math.round((Date.parse(until) - Date.parse(day)) / DAY_MS);
    const grow = (apy: number) => Math.pow(1 + Math.max(apy, -100) / 100, days / 365);
    value.riskAdjusted *= grow(riskAdjusted.realizedApy);
    value.rawApy *= grow(rawApy.realizedApy);
    value.base *= grow(riskAdjusted.baseApy);
    months.push({
      decidedOn: day,
      until,
      days,
      candidates: candidates.length,
      riskAdjusted,
      rawApy,
      value: { ...value },
    });
  }
  return { firstDay, lastDay, months, skipped, final: { ...value } };
}

/** The scanner's track record of these pools (their whole histories in memory). */
export function scannerTrackRecord(
  pools: readonly TrackPool[],
  base: Readonly<Record<PoolKind, ReadonlyMap<string, number>>>,
  safetyOf: (project: string, day: string) => Score,
  options: ScannerTrackOptions = {},
): ScannerTrack {
  const span: HistorySpan = { firstDay: null, lastDay: null };
  for (const p of pools) widenSpan(span, p.history);
  return assembleScannerTrack(
    pools.map((p) => poolDecisions(p, safetyOf, options)),
    span,
    base,
    options,
  );
}
