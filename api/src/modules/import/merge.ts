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
import type { HistoryFile } from '../yields/index.ts';

export interface SeriesImport {
  series: string;
  pool: string;
  rows: DailyRow[];
  /** The feed's selector resolved to `pool` on this day (recorded in the provenance). */
  resolvedOn?: string | undefined;
}

/** Days read from a contract on chain (api/src/modules/import/onchain.ts). */
export interface ChainImport {
  series: string;
  chain: string;
  address: string;
  rows: { date: string; apy: number; pricePerShare: number | null; tvlUsd: number | null }[];
}

export interface SeriesMergeStats {
  added: number;
  updated: number;
  /** Rows dropped because the series was sample data or fed from another pool before. */
  replaced: number;
}

export interface HistoryMerge {
  history: HistoryFile;
  /** DeFiLlama imports, by series. */
  stats: Map<string, SeriesMergeStats>;
  /** On-chain imports, by series. */
  chainStats: Map<string, SeriesMergeStats>;
  changed: boolean;
}

type Secondary = NonNullable<HistoryFile['secondary']>;

/** Rows merged by date: new days added, changed days updated, other stored days kept. */
function mergeRows(
  existing: readonly DailyRow[],
  incoming: readonly DailyRow[],
  s: SeriesMergeStats,
) {
  const byDate = new Map(existing.map((r) => [r.date, r]));
  for (const r of incoming) {
    const old = byDate.get(r.date);
    if (!old) s.added++;
    else if (!sameRow(old, r)) s.updated++;
    else continue;
    byDate.set(r.date, { ...r });
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

function sameRow(a: DailyRow, b: DailyRow): boolean {
  return (
    a.apy === b.apy &&
    a.tvlUsd === b.tvlUsd &&
    a.apyReward === b.apyReward &&
    a.pricePerShare === b.pricePerShare
  );
}

/**
 * With on-chain imports (`chainImports`): a series read from the chain is led by the chain's rows
 * (history.json `series`, provenance `onchain`) and its DeFiLlama rows go to `secondary`, where
 * they are kept beside it for the comparison. The first on-chain import of a series moves its
 * DeFiLlama rows there. An on-chain row takes its TVL from DeFiLlama's row of the same day, else
 * from the day's stored row, else from the vault (a dollar vault's total assets), else the day
 * before's. Until the chain has given a series any rows, DeFiLlama keeps leading it.
 */
export function mergeHistory(
  history: HistoryFile,
  imports: readonly SeriesImport[],
  now: Date,
  chainImports: readonly ChainImport[] = [],
): HistoryMerge {
  const series = { ...history.series };
  const provenance = { ...history.provenance };
  const secondary: Secondary = { ...history.secondary };
  const stats = new Map<string, SeriesMergeStats>();
  const chainStats = new Map<string, SeriesMergeStats>();
  let changed = false;

  const chainLed = new Set<string>();
  for (const c of chainImports)
    if (c.rows.length > 0 || history.provenance?.[c.series]?.kind === 'onchain')
      chainLed.add(c.series);
  for (const [key, p] of Object.entries(history.provenance ?? {}))
    if (p.kind === 'onchain') chainLed.add(key);

  // DeFiLlama's rows of chain-led series: beside the chain's, in `secondary`.
  for (const imp of imports) {
    if (!chainLed.has(imp.series) || imp.rows.length === 0) continue;
    const previous = history.provenance?.[imp.series];
    let base = secondary[imp.series];
    if (!base && previous?.kind === 'defillama' && previous.pool === imp.pool)
      base = { kind: 'defillama', pool: imp.pool, rows: history.series[imp.series] ?? [] };
    const s: SeriesMergeStats = { added: 0, updated: 0, replaced: 0 };
    let rows: DailyRow[];
    if (!base || base.pool !== imp.pool) {
      rows = imp.rows.map((r) => ({ ...r }));
      s.replaced = base?.rows.length ?? 0;
      s.added = rows.length;
    } else rows = mergeRows(base.rows, imp.rows, s);
    stats.set(imp.series, s);
    if (s.added + s.updated + s.replaced === 0 && secondary[imp.series]) continue;
    changed = true;
    secondary[imp.series] = { kind: 'defillama', pool: imp.pool, rows };
  }

  for (const c of chainImports) {
    const s: SeriesMergeStats = { added: 0, updated: 0, replaced: 0 };
    chainStats.set(c.series, s);
    if (c.rows.length === 0) continue;
    const previous = history.provenance?.[c.series];
    const sameContract =
      previous?.kind === 'onchain' &&
      previous.chain === c.chain &&
      previous.address.toLowerCase() === c.address.toLowerCase();
    const existing = series[c.series] ?? [];
    // DeFiLlama's rows led until now: kept beside the chain's.
    if (previous?.kind === 'defillama' && !secondary[c.series] && existing.length > 0) {
      secondary[c.series] = { kind: 'defillama', pool: previous.pool, rows: existing };
    }
    const storedByDate = new Map(existing.map((r) => [r.date, r]));
    const llamaByDate = new Map((secondary[c.series]?.rows ?? []).map((r) => [r.date, r]));
    let lastTvl = 0;
    const incoming: DailyRow[] = [];
    for (const r of c.rows) {
      const tvlUsd =
        llamaByDate.get(r.date)?.tvlUsd ??
        (sameContract ? storedByDate.get(r.date)?.tvlUsd : undefined) ??
        r.tvlUsd ??
        lastTvl;
      lastTvl = tvlUsd;
      incoming.push({
        date: r.date,
        apy: r.apy,
        tvlUsd,
        ...(r.pricePerShare !== null ? { pricePerShare: r.pricePerShare } : {}),
      });
    }
    let rows: DailyRow[];
    if (!sameContract) {
      rows = incoming;
      s.replaced = existing.length;
      s.added = rows.length;
    } else rows = mergeRows(existing, incoming, s);
    if (s.added + s.updated + s.replaced === 0) continue;
    changed = true;
    series[c.series] = rows;
    const newest = c.rows[c.rows.length - 1]!.date;
    provenance[c.series] = {
      kind: 'onchain',
      chain: c.chain,
      address: c.address,
      asOf: sameContract && previous.asOf > newest ? previous.asOf : newest,
      importedAt: now.toISOString(),
    };
  }

  for (const imp of imports) {
    if (chainLed.has(imp.series)) continue;
    if (imp.rows.length === 0) continue;
    const existing = series[imp.series] ?? [];
    const previous = history.provenance?.[imp.series];
    const replace = previous
      ? previous.kind !== 'defillama' || previous.pool !== imp.pool
      : history.sample;
    const s: SeriesMergeStats = { added: 0, updated: 0, replaced: 0 };
    let rows: DailyRow[];
    if (replace) {
      rows = imp.rows.map((r) => ({ ...r }));
      s.replaced = existing.length;
      s.added = rows.length;
    } else rows = mergeRows(existing, imp.rows, s);
    stats.set(imp.series, s);
    if (
      s.added + s.updated + s.replaced === 0 &&
      previous?.kind === 'defillama' &&
      previous.pool === imp.pool &&
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
  if (!changed) return { history, stats, chainStats, changed };

  let asOf = history.asOf;
  for (const rows of Object.values(series)) {
    const last = rows[rows.length - 1]?.date;
    if (last && last > asOf) asOf = last;
  }
  // provenance before the long series block, so an operator reading the file sees it first.
  const { series: _series, provenance: _provenance, secondary: _secondary, ...rest } = history;
  return {
    history: {
      ...rest,
      asOf,
      provenance,
      series,
      ...(Object.keys(secondary).length > 0 ? { secondary } : {}),
    },
    stats,
    chainStats,
    changed,
  };
}
