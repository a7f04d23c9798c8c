/**
 * What GET /api/health says about the imports: the last run's outcome per feed (from
 * import-status.json, so a CLI import shows too), this process's schedule, and the series whose
 * imported data stopped arriving. Any failed feed or stale series makes the report `degraded`.
 * The report is public: no absolute path and no quoted fragment of unparsable data (publicText).
 */
import path from 'node:path';
import type { Snapshot } from '../yields/index.ts';
import type { ImportStatusFile } from '../import/index.ts';
import type { PricesFile } from '../yields/index.ts';
import { staleFrom } from '../yields/index.ts';
import type { ScheduleState } from '../import/index.ts';

export interface ImportHealth {
  lastRun: ImportStatusFile['lastRun'];
  schedule: ScheduleState | null;
}

/** What the import part of the report reads: import-status.json and this process's schedule. */
export interface ImportHealthDeps {
  store: { get(key: 'importStatus'): ImportStatusFile | null };
  importSchedule: { state(): ScheduleState } | null;
}

export function importHealth(deps: ImportHealthDeps): ImportHealth {
  const lastRun = deps.store.get('importStatus')?.lastRun ?? null;
  return {
    lastRun: lastRun && publicRun(lastRun),
    schedule: deps.importSchedule?.state() ?? null,
  };
}

/**
 * A text of import-status.json as GET /api/health may show it: an absolute path becomes its last
 * part (`files:/srv/feeds` → `files:feeds`, an ENOENT's path → the file name) and the fragment
 * JSON.parse quotes from a response or a file it could not parse is left out. The full texts are
 * in the file and in the log.
 */
export function publicText(text: string): string {
  return text
    .replace(
      /(invalid JSON):[^\n]*?(?:is not valid JSON|JSON input|in JSON at position \d+(?: \(line \d+ column \d+\))?)/g,
      '$1',
    )
    .replace(/"[^\n]*?" is not valid JSON/g, 'not valid JSON')
    .replace(/(?<![\w/.-])\/(?!\/)[^\s'"`,;()]+/g, (p) => path.posix.basename(p));
}

function publicRun(run: NonNullable<ImportStatusFile['lastRun']>): ImportStatusFile['lastRun'] {
  const text = (s: string | null) => (s === null ? null : publicText(s));
  return {
    ...run,
    from: publicText(run.from),
    error: text(run.error),
    feeds: run.feeds.map((f) => ({ ...f, reason: text(f.reason) })),
    ...(run.pools ? { pools: { ...run.pools, reason: text(run.pools.reason) } } : {}),
    ...(run.prices ? { prices: run.prices.map((p) => ({ ...p, reason: text(p.reason) })) } : {}),
  };
}

/** Imported series that are stale now: `{series, asOf}`, each series once. */
export function staleSeries(snapshot: Snapshot): { series: string; asOf: string | null }[] {
  const out = new Map<string, string | null>();
  for (const s of snapshot.series.values()) {
    for (const p of s.provenance.components ?? [s.provenance]) {
      if (p.stale) out.set(p.series ?? String(s.id), p.asOf);
    }
  }
  return [...out].map(([series, asOf]) => ({ series, asOf }));
}

/**
 * Imported token prices that are stale now (newest day more than 48 h old, as for the series),
 * named `price:<coin>`.
 */
export function stalePrices(
  prices: PricesFile | null,
  now: Date,
): { series: string; asOf: string | null }[] {
  return Object.keys(prices?.provenance ?? {}).flatMap((coin) => {
    const rows = prices?.coins[coin] ?? [];
    const asOf = rows[rows.length - 1]?.date ?? null;
    return asOf === null || now.getTime() >= staleFrom(asOf)
      ? [{ series: `price:${coin}`, asOf }]
      : [];
  });
}
