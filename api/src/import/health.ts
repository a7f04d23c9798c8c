/**
 * What GET /api/health says about the imports: the last run's outcome per feed (from
 * import-status.json, so a CLI import shows too), this process's schedule, and the series whose
 * imported data stopped arriving. Any failed feed or stale series makes the report `degraded`.
 */
import type { AppDeps } from '../deps.ts';
import type { Snapshot } from '../data/snapshot.ts';
import type { ImportStatusFile, PricesFile } from '../data/schemas.ts';
import { staleFrom } from '../data/provenance.ts';
import type { ScheduleState } from './schedule.ts';

export interface ImportHealth {
  lastRun: ImportStatusFile['lastRun'];
  schedule: ScheduleState | null;
}

export function importHealth(deps: AppDeps): ImportHealth {
  return {
    lastRun: deps.store.get('importStatus')?.lastRun ?? null,
    schedule: deps.importSchedule?.state() ?? null,
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
