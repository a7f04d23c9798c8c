/**
 * Warnings detected from the data (docs/methodology.md, "Detected warnings"). Pure: a source's
 * daily rows, its priced token's daily prices and the operators' thresholds in, the warnings out.
 *
 * Each rule is judged day by day. A warning opens on the first day its rule holds (and no warning
 * of its kind is open), keeps the figures of that day, and closes on the day the data has been
 * back within the threshold for `closeAfterDays` consecutive days; a day on which the rule
 * cannot be judged (no price, no TVL a week before) neither breaks nor extends that count.
 *
 * - outflow: TVL down by at least `outflow7d` % against the row dated 7 days before, or by at
 *   least `outflow30d` % against the row dated 30 days before.
 * - depeg: a dollar token's price more than `depegStable` % away from $1; an ETH token's price
 *   (divided by ETH's price that day) more than `depegLst` % below 1.
 * - spike: the day's APR more than `spikeSigma` sample standard deviations above the mean of the
 *   30 days before it (at least 20 of them, and a spread above 0).
 * - feeds-disagree (a series with two feeds: the on-chain share price leads, DeFiLlama's feed is
 *   kept beside it): the mean APR of each feed over the 7 days up to the day (the days both feeds
 *   have, at least FEEDS_MIN_DAYS of them) differ by more than max(0.5 percentage points, 20 % of
 *   the larger of the two).
 */
import type { AmountUnit, WarningKind } from '@yield/contract';
import { apyToApr, mean, RA30_V1, sampleStdDev, type DailyRow } from './ra30.ts';

export interface WarningThresholds {
  outflow7d: number;
  outflow30d: number;
  depegStable: number;
  depegLst: number;
  spikeSigma: number;
  closeAfterDays: number;
}

export interface PricePoint {
  date: string;
  price: number;
}

export interface DetectedWarningResult {
  kind: WarningKind;
  openedOn: string;
  closedOn: string | null;
  figures: Record<string, number>;
  text: string;
}

export interface WarningInput {
  rows: readonly DailyRow[];
  /** The priced token's daily USD prices; empty when the source has none. */
  prices: readonly PricePoint[];
  /** ETH's daily USD prices, the reference of a token pegged to ETH. */
  ethPrices: readonly PricePoint[];
  /** What the priced token is meant to be worth: one dollar or one ETH (the source's unit). */
  pegTo: AmountUnit;
  /** DeFiLlama's rows of a series led by its on-chain feed (history.json `secondary`), else absent. */
  secondaryRows?: readonly DailyRow[] | undefined;
}

/** Comparisons at a threshold are exact to this many percent (floating point noise aside). */
const EPSILON = 1e-9;
const DAY_MS = 86_400_000;
/** Days before a day that the spike rule compares it with, and how many of them it needs. */
export const SPIKE_WINDOW_DAYS = RA30_V1.windowDays;
export const SPIKE_MIN_DAYS = RA30_V1.minDays;

export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A rule judged on one day: the figures when it holds, `false` when it does not, null when it cannot be judged. */
type Verdict = Record<string, number> | false | null;
interface DayVerdict {
  date: string;
  verdict: Verdict;
}

interface Episode {
  openedOn: string;
  closedOn: string | null;
  figures: Record<string, number>;
}

/** Turns the days' verdicts (in date order) into opened and closed episodes. */
export function episodes(days: readonly DayVerdict[], closeAfterDays: number): Episode[] {
  const out: Episode[] = [];
  let open: Episode | null = null;
  let within = 0;
  for (const { date, verdict } of days) {
    if (verdict === null) continue;
    if (verdict) {
      within = 0;
      if (!open) {
        open = { openedOn: date, closedOn: null, figures: verdict };
        out.push(open);
      }
    } else if (open && ++within >= closeAfterDays) {
      open.closedOn = date;
      open = null;
      within = 0;
    }
  }
  return out;
}

function outflowVerdicts(rows: readonly DailyRow[], t: WarningThresholds): DayVerdict[] {
  const tvlOn = new Map(rows.map((r) => [r.date, r.tvlUsd]));
  return rows.map((r): DayVerdict => {
    const week = tvlOn.get(shiftDay(r.date, -7));
    const month = tvlOn.get(shiftDay(r.date, -30));
    const drop = (before: number | undefined) =>
      before !== undefined && before > 0 ? round((100 * (before - r.tvlUsd)) / before, 6) : null;
    const drop7d = drop(week);
    const drop30d = drop(month);
    if (drop7d === null && drop30d === null) return { date: r.date, verdict: null };
    const hit7 = drop7d !== null && drop7d >= t.outflow7d - EPSILON;
    const hit30 = drop30d !== null && drop30d >= t.outflow30d - EPSILON;
    if (!hit7 && !hit30) return { date: r.date, verdict: false };
    const figures: Record<string, number> = { tvl: r.tvlUsd };
    if (drop7d !== null) Object.assign(figures, { tvl7dAgo: week!, drop7dPct: drop7d });
    if (drop30d !== null) Object.assign(figures, { tvl30dAgo: month!, drop30dPct: drop30d });
    return { date: r.date, verdict: figures };
  });
}

function depegVerdicts(input: WarningInput, t: WarningThresholds): DayVerdict[] {
  const eth = new Map(input.ethPrices.map((p) => [p.date, p.price]));
  return input.prices.map((p): DayVerdict => {
    if (input.pegTo === 'USD') {
      const deviationPct = round(100 * (p.price - 1), 6);
      const hit = Math.abs(deviationPct) > t.depegStable + EPSILON;
      return { date: p.date, verdict: hit ? { price: p.price, deviationPct } : false };
    }
    const ethPrice = eth.get(p.date);
    if (ethPrice === undefined) return { date: p.date, verdict: null };
    const ratio = p.price / ethPrice;
    const belowPct = round(100 * (1 - ratio), 6);
    const hit = belowPct > t.depegLst + EPSILON;
    return {
      date: p.date,
      verdict: hit ? { price: p.price, ethPrice, ratio: round(ratio, 6), belowPct } : false,
    };
  });
}

function spikeVerdicts(rows: readonly DailyRow[], t: WarningThresholds): DayVerdict[] {
  const aprs = rows.map((r) => apyToApr(r.apy));
  return rows.map((r, i): DayVerdict => {
    const from = shiftDay(r.date, -SPIKE_WINDOW_DAYS);
    const before: number[] = [];
    for (let j = i - 1; j >= 0 && rows[j]!.date >= from; j--) before.push(aprs[j]!);
    if (before.length < SPIKE_MIN_DAYS) return { date: r.date, verdict: null };
    const m = mean(before);
    const sd = sampleStdDev(before);
    if (!(sd > 1e-9)) return { date: r.date, verdict: null };
    const sigmas = round((aprs[i]! - m) / sd, 6);
    if (sigmas > t.spikeSigma + EPSILON)
      return {
        date: r.date,
        verdict: {
          apr: round(aprs[i]!, 4),
          mean30d: round(m, 4),
          stdDev30d: round(sd, 4),
          sigmas: round(sigmas, 2),
        },
      };
    return { date: r.date, verdict: false };
  });
}

/** The feeds-disagree rule: the window, the days both feeds need in it, and the tolerance. */
export const FEEDS_WINDOW_DAYS = 7;
export const FEEDS_MIN_DAYS = 5;
export const FEEDS_MIN_GAP_PP = 0.5;
export const FEEDS_MIN_GAP_SHARE = 0.2;

function feedsVerdicts(rows: readonly DailyRow[], secondary: readonly DailyRow[]): DayVerdict[] {
  if (secondary.length === 0) return [];
  const other = new Map(secondary.map((r) => [r.date, apyToApr(r.apy)]));
  const mine = new Map(rows.map((r) => [r.date, apyToApr(r.apy)]));
  return rows.map((r): DayVerdict => {
    const a: number[] = [];
    const b: number[] = [];
    for (let k = 0; k < FEEDS_WINDOW_DAYS; k++) {
      const day = shiftDay(r.date, -k);
      const x = mine.get(day);
      const y = other.get(day);
      if (x !== undefined && y !== undefined) {
        a.push(x);
        b.push(y);
      }
    }
    if (a.length < FEEDS_MIN_DAYS) return { date: r.date, verdict: null };
    const onchain = mean(a);
    const defillama = mean(b);
    const gap = Math.abs(onchain - defillama);
    const allowed = Math.max(
      FEEDS_MIN_GAP_PP,
      FEEDS_MIN_GAP_SHARE * Math.max(Math.abs(onchain), Math.abs(defillama)),
    );
    if (gap <= allowed + EPSILON) return { date: r.date, verdict: false };
    return {
      date: r.date,
      verdict: {
        onchainApr7d: round(onchain, 4),
        defillamaApr7d: round(defillama, 4),
        gapPp: round(gap, 4),
      },
    };
  });
}

const pct = (v: number) => `${round(v, 1)}%`;

function textOf(kind: WarningKind, f: Record<string, number>, pegTo: AmountUnit): string {
  if (kind === 'outflow') {
    const parts: string[] = [];
    if (f.drop7dPct !== undefined) parts.push(`${pct(f.drop7dPct)} over 7 days`);
    if (f.drop30dPct !== undefined) parts.push(`${pct(f.drop30dPct)} over 30 days`);
    return `Deposits are leaving fast: the value locked fell ${parts.join(' and ')}.`;
  }
  if (kind === 'depeg') {
    return pegTo === 'USD'
      ? `The token traded at $${round(f.price!, 4)}, ${pct(Math.abs(f.deviationPct!))} ${f.deviationPct! < 0 ? 'below' : 'above'} its $1 peg.`
      : `The token traded at ${round(f.ratio!, 4)} ETH, ${pct(f.belowPct!)} below the price of ETH.`;
  }
  if (kind === 'feeds-disagree')
    return `The two feeds disagree: the share price read from the chain gives a 7-day APR of ${pct(f.onchainApr7d!)}, DeFiLlama's feed ${pct(f.defillamaApr7d!)}; the share price is used.`;
  return `The day's APR of ${pct(f.apr!)} is ${round(f.sigmas!, 1)} standard deviations above its 30-day mean of ${pct(f.mean30d!)}; the 30-day APR already damps such a spike.`;
}

/** Every warning of a source, oldest first (open and closed). */
export function detectWarnings(
  input: WarningInput,
  thresholds: WarningThresholds,
): DetectedWarningResult[] {
  const rows = [...input.rows].sort((a, b) => (a.date < b.date ? -1 : 1));
  const prices = [...input.prices].sort((a, b) => (a.date < b.date ? -1 : 1));
  const rules: [WarningKind, DayVerdict[]][] = [
    ['outflow', outflowVerdicts(rows, thresholds)],
    ['depeg', depegVerdicts({ ...input, prices }, thresholds)],
    ['spike', spikeVerdicts(rows, thresholds)],
    ['feeds-disagree', feedsVerdicts(rows, input.secondaryRows ?? [])],
  ];
  return rules
    .flatMap(([kind, verdicts]) =>
      episodes(verdicts, thresholds.closeAfterDays).map((e) => ({
        kind,
        ...e,
        text: textOf(kind, e.figures, input.pegTo),
      })),
    )
    .sort((a, b) => (a.openedOn < b.openedOn ? -1 : a.openedOn > b.openedOn ? 1 : 0));
}
