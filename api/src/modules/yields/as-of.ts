/**
 * What the site would have published on a past day (`?asOf=YYYY-MM-DD` of GET /api/strategies,
 * /api/baserate and /api/strategies/{id}/breakdown): the same engine run on the data as it was
 * known that day. The history is cut after that day, and only the dated facts known by then
 * count: scores, incidents and warning dismissals dated on or before it, prices up to it (the
 * warnings are detected from those). Nothing dated later reaches the answer.
 *
 * The answers of a day depend on the data files only (never on the clock): they are computed
 * once per data version, in a worker thread, and kept (./as-of-service.ts, ./as-of-worker.ts).
 */
import type { HistoryFile, PricesFile, SourcesFile } from './schemas.ts';
import { baseRatesBody, computeAllSeries, strategiesBody, type SnapshotInput } from './snapshot.ts';
import { cacheBody, type CachedBody } from '../../platform/http/cached-body.ts';

/** The data files a past day's answers are computed from (a snapshot's input). */
export type AsOfInput = Pick<SnapshotInput, 'sources' | 'history' | 'prices' | 'settings'>;

/** One day's answers: the bodies of the three endpoints, ready as bytes with their ETag. */
export interface AsOfAnswers {
  asOf: string;
  bodies: { strategies: CachedBody; baserate: CachedBody; breakdown: Map<string, CachedBody> };
}

/**
 * Runs of computeAsOf on this thread (each thread has its own count: the server's main thread
 * keeps 0, its worker counts every day it computed).
 */
export const computations = { onThisThread: 0 };

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

/** Every day from `first` to `last` (YYYY-MM-DD, both included), oldest first. */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${last}T00:00:00Z`);
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= end; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * The engine on the data known at the end of `asOf`. Staleness is judged at the end of that day,
 * as a visitor reading the site that evening would have seen it.
 */
export function computeAsOf(input: AsOfInput, asOf: string): AsOfAnswers | null {
  const { sources, history, prices, settings } = input;
  if (!sources || !history) return null;
  computations.onThisThread++;
  const series = computeAllSeries(
    sourcesAsOf(sources, asOf),
    historyAsOf(history, asOf),
    new Date(`${asOf}T23:59:59.999Z`),
    { prices: pricesAsOf(prices, asOf), thresholds: settings?.warnings ?? null },
  );
  const breakdown = new Map<string, CachedBody>();
  for (const s of series.values()) breakdown.set(String(s.id), cacheBody(s.breakdown));
  // The computed series (their cut rows) are dropped: only the bodies are kept.
  return {
    asOf,
    bodies: {
      strategies: cacheBody(strategiesBody(series)),
      baserate: cacheBody(baseRatesBody(series)),
      breakdown,
    },
  };
}

/** The bytes of a day's bodies (what the cache of past days is bounded by). */
export function answersBytes(answers: AsOfAnswers): number {
  let bytes = answers.bodies.strategies.body.length + answers.bodies.baserate.body.length;
  for (const b of answers.bodies.breakdown.values()) bytes += b.body.length;
  return bytes;
}
