/**
 * Merging imported days into history.json. Pure: the same inputs give the same file.
 *
 * - A series whose rows are sample data (or that were imported from another pool) is replaced
 *   by the pool's history on its first import: real figures never stand on generated days.
 * - Afterwards, new days are added, days present in both are updated to the feed's values, and
 *   older days the feed no longer sends are kept.
 * - Rows an operator typed (`sample: false`, no provenance) count as real: they are merged, not
 *   replaced.
 */
import type { DailyRow } from '../../engine/index.ts';
import type { HistoryFile } from '../yields/schemas.ts';

export interface SeriesImport {
  series: string;
  pool: string;
  rows: DailyRow[];
  /** The feed's selector resolved to `pool` on this day (recorded in the provenance). */
  resolvedOn?: string | undefined;
}

export interface SeriesMergeStats {
  added: number;
  updated: number;
  /** Rows dropped because the series was sample data or fed from another pool before. */
  replaced: number;
}

export interface HistoryMerge {
  history: HistoryFile;
  stats: Map<string, SeriesMergeStats>;
  changed: boolean;
}

function sameRow(a: DailyRow, b: DailyRow): boolean {
  return (
    a.apy === b.apy &&
    a.tvlUsd === b.tvlUsd &&
    a.apyReward === b.apyReward &&
    a.pricePerShare === b.pricePerShare
  );
}

export function mergeHistory(
  history: HistoryFile,
  imports: readonly SeriesImport[],
  now: Date,
): HistoryMerge {
  const series = { ...history.series };
  const provenance = { ...history.provenance };
  const stats = new Map<string, SeriesMergeStats>();
  let changed = false;

  for (const imp of imports) {
    if (imp.rows.length === 0) continue;
    const existing = series[imp.series] ?? [];
    const previous = history.provenance?.[imp.series];
    const replace = previous ? previous.pool !== imp.pool : history.sample;
    const s: SeriesMergeStats = { added: 0, updated: 0, replaced: 0 };
    let rows: DailyRow[];
    if (replace) {
      rows = imp.rows.map((r) => ({ ...r }));
      s.replaced = existing.length;
      s.added = rows.length;
    } else {
      const byDate = new Map(existing.map((r) => [r.date, r]));
      for (const r of imp.rows) {
        const old = byDate.get(r.date);
        if (!old) s.added++;
        else if (!sameRow(old, r)) s.updated++;
        else continue;
        byDate.set(r.date, { ...r });
      }
      rows = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    }
    stats.set(imp.series, s);
    if (
      s.added + s.updated + s.replaced === 0 &&
      previous?.pool === imp.pool &&
      previous.resolvedOn === imp.resolvedOn
    )
      continue;

    changed = true;
    series[imp.series] = rows;
    const newest = imp.rows[imp.rows.length - 1]!.date;
    provenance[imp.series] = {
      kind: 'defillama',
      pool: imp.pool,
      asOf: !replace && previous && previous.asOf > newest ? previous.asOf : newest,
      importedAt: now.toISOString(),
      ...(imp.resolvedOn !== undefined ? { resolvedOn: imp.resolvedOn } : {}),
    };
  }
  if (!changed) return { history, stats, changed };

  let asOf = history.asOf;
  for (const rows of Object.values(series)) {
    const last = rows[rows.length - 1]?.date;
    if (last && last > asOf) asOf = last;
  }
  // provenance before the long series block, so an operator reading the file sees it first.
  const { series: _series, provenance: _provenance, ...rest } = history;
  return { history: { ...rest, asOf, provenance, series }, stats, changed };
}
