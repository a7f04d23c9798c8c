/**
 * What the site would have published on a past day (`?asOf=YYYY-MM-DD` of GET /api/strategies,
 * /api/baserate and /api/strategies/{id}/breakdown): the same engine run on the data as it was
 * known that day. The history is cut after that day, and only the dated facts known by then
 * count: scores, incidents and warning dismissals dated on or before it, prices up to it (the
 * warnings are detected from those). Nothing dated later reaches the answer.
 *
 * Answers are computed on the first request of a day and kept with the snapshot they were cut
 * from (a data change builds a new snapshot, so they never outlive the data they came from).
 */
import type { BaseRates, StrategyMetrics } from '@yield/contract';
import type { HistoryFile, PricesFile, SourcesFile } from './schemas.ts';
import { baseRatesBody, computeAllSeries, strategiesBody, type Snapshot } from './snapshot.ts';
import { cacheBody, type CachedBody } from '../../platform/http/cached-body.ts';

/** Everything one day's answers need. */
export interface AsOfAnswers {
  asOf: string;
  strategies: StrategyMetrics[];
  baseRates: BaseRates;
  bodies: { strategies: CachedBody; baserate: CachedBody; breakdown: Map<string, CachedBody> };
}

/** The history as known at the end of `asOf`: every series cut after that day. */
export function historyAsOf(history: HistoryFile, asOf: string): HistoryFile {
  const series: HistoryFile['series'] = {};
  for (const [key, rows] of Object.entries(history.series))
    series[key] = rows.filter((r) => r.date <= asOf);
  return { ...history, asOf, series };
}

/** Scores, incidents and dismissals dated on or before `asOf` only. */
export function sourcesAsOf(sources: SourcesFile, asOf: string): SourcesFile {
  // A score takes effect on its date; before the first one the oldest stands (as scoreAt does).
  const scores = <T extends { date: string }>(list: T[]): T[] => {
    const known = list.filter((s) => s.date <= asOf);
    if (known.length > 0) return known;
    const oldest = [...list].sort((a, b) => (a.date < b.date ? -1 : 1))[0];
    return oldest ? [oldest] : [];
  };
  return {
    ...sources,
    baseRates: sources.baseRates.map((b) => ({
      ...b,
      scores: scores(b.scores),
      incidents: b.incidents.filter((i) => i.date <= asOf),
    })),
    sources: sources.sources.map((s) => ({
      ...s,
      scores: scores(s.scores),
      incidents: s.incidents.filter((i) => i.date <= asOf),
      ...(s.warningDismissals
        ? { warningDismissals: s.warningDismissals.filter((d) => d.on <= asOf) }
        : {}),
    })),
  };
}

export function pricesAsOf(prices: PricesFile | null, asOf: string): PricesFile | null {
  if (!prices) return null;
  const coins: PricesFile['coins'] = {};
  for (const [coin, points] of Object.entries(prices.coins))
    coins[coin] = points.filter((p) => p.date <= asOf);
  return { ...prices, coins };
}

/** The first day of any series in the history (null without any data). */
export function firstDataDay(history: HistoryFile): string | null {
  let first: string | null = null;
  for (const rows of Object.values(history.series))
    for (const r of rows) if (first === null || r.date < first) first = r.date;
  return first;
}

/**
 * The engine on the data known at the end of `asOf`. Staleness is judged at the end of that day,
 * as a visitor reading the site that evening would have seen it.
 */
export function computeAsOf(snapshot: Snapshot, asOf: string): AsOfAnswers | null {
  const { sources, history, prices, settings } = snapshot.input;
  if (!sources || !history) return null;
  const series = computeAllSeries(
    sourcesAsOf(sources, asOf),
    historyAsOf(history, asOf),
    new Date(`${asOf}T23:59:59.999Z`),
    { prices: pricesAsOf(prices, asOf), thresholds: settings?.warnings ?? null },
  );
  const strategies = strategiesBody(series);
  const baseRates = baseRatesBody(series);
  const breakdown = new Map<string, CachedBody>();
  for (const s of series.values()) breakdown.set(String(s.id), cacheBody(s.breakdown));
  // The computed series (their cut rows) are dropped: only the bodies are kept.
  return {
    asOf,
    strategies,
    baseRates,
    bodies: { strategies: cacheBody(strategies), baserate: cacheBody(baseRates), breakdown },
  };
}

/** Days kept per snapshot; the oldest computed is dropped first. */
export const AS_OF_CACHE_DAYS = 64;
const cache = new WeakMap<Snapshot, Map<string, AsOfAnswers | null>>();

/** computeAsOf, kept with its snapshot (at most AS_OF_CACHE_DAYS days each). */
export function answersAsOf(snapshot: Snapshot, asOf: string): AsOfAnswers | null {
  let days = cache.get(snapshot);
  if (!days) cache.set(snapshot, (days = new Map()));
  if (days.has(asOf)) return days.get(asOf)!;
  const answers = computeAsOf(snapshot, asOf);
  if (days.size >= AS_OF_CACHE_DAYS) days.delete(days.keys().next().value!);
  days.set(asOf, answers);
  return answers;
}
