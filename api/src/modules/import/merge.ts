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

const noStats = (): SeriesMergeStats => ({ added: 0, updated: 0, replaced: 0 });
const anyChange = (s: SeriesMergeStats) => s.added + s.updated + s.replaced > 0;

/** The incoming rows in place of the existing ones (counted as replaced), or merged into them. */
function replacedOrMerged(
  replace: boolean,
  existing: readonly DailyRow[],
  incoming: readonly DailyRow[],
  s: SeriesMergeStats,
): DailyRow[] {
  if (!replace) return mergeRows(existing, incoming, s);
  s.replaced = existing.length;
  s.added = incoming.length;
  return incoming.map((r) => ({ ...r }));
}

/** The history being merged: the file as read, and what the imports have made of it so far. */
interface MergeState {
  history: HistoryFile;
  now: Date;
  series: HistoryFile['series'];
  provenance: NonNullable<HistoryFile['provenance']>;
  secondary: Secondary;
  stats: Map<string, SeriesMergeStats>;
  chainStats: Map<string, SeriesMergeStats>;
  changed: boolean;
}

/** The series the chain leads: read from the chain before, or with rows from it now. */
function chainLedSeries(history: HistoryFile, chainImports: readonly ChainImport[]): Set<string> {
  const chainLed = new Set<string>();
  for (const c of chainImports)
    if (c.rows.length > 0 || history.provenance?.[c.series]?.kind === 'onchain')
      chainLed.add(c.series);
  for (const [key, p] of Object.entries(history.provenance ?? {}))
    if (p.kind === 'onchain') chainLed.add(key);
  return chainLed;
}

/** DeFiLlama's rows of a chain-led series: beside the chain's, in `secondary`. */
function mergeSecondary(state: MergeState, imp: SeriesImport): void {
  const { history, secondary } = state;
  const previous = history.provenance?.[imp.series];
  let base = secondary[imp.series];
  if (!base && previous?.kind === 'defillama' && previous.pool === imp.pool)
    base = { kind: 'defillama', pool: imp.pool, rows: history.series[imp.series] ?? [] };
  const s = noStats();
  const replace = !base || base.pool !== imp.pool;
  const rows = replacedOrMerged(replace, base?.rows ?? [], imp.rows, s);
  state.stats.set(imp.series, s);
  if (!anyChange(s) && secondary[imp.series]) return;
  state.changed = true;
  secondary[imp.series] = { kind: 'defillama', pool: imp.pool, rows };
}

/**
 * The chain's rows as history rows, each with a TVL: DeFiLlama's of the same day, else the
 * stored row's (of the same contract), else the vault's, else the day before's.
 */
function chainRows(state: MergeState, c: ChainImport, sameContract: boolean): DailyRow[] {
  const storedByDate = new Map((state.series[c.series] ?? []).map((r) => [r.date, r]));
  const llamaByDate = new Map((state.secondary[c.series]?.rows ?? []).map((r) => [r.date, r]));
  let lastTvl = 0;
  return c.rows.map((r) => {
    const tvlUsd =
      llamaByDate.get(r.date)?.tvlUsd ??
      (sameContract ? storedByDate.get(r.date)?.tvlUsd : undefined) ??
      r.tvlUsd ??
      lastTvl;
    lastTvl = tvlUsd;
    return {
      date: r.date,
      apy: r.apy,
      tvlUsd,
      ...(r.pricePerShare !== null ? { pricePerShare: r.pricePerShare } : {}),
    };
  });
}

/** A series read from the chain: led by the chain's rows, DeFiLlama's moved to `secondary`. */
function mergeChainImport(state: MergeState, c: ChainImport): void {
  const s = noStats();
  state.chainStats.set(c.series, s);
  if (c.rows.length === 0) return;
  const { series, secondary } = state;
  const previous = state.history.provenance?.[c.series];
  const sameContract =
    previous?.kind === 'onchain' &&
    previous.chain === c.chain &&
    previous.address.toLowerCase() === c.address.toLowerCase();
  const existing = series[c.series] ?? [];
  // DeFiLlama's rows led until now: kept beside the chain's.
  if (previous?.kind === 'defillama' && !secondary[c.series] && existing.length > 0) {
    secondary[c.series] = { kind: 'defillama', pool: previous.pool, rows: existing };
  }
  const rows = replacedOrMerged(!sameContract, existing, chainRows(state, c, sameContract), s);
  if (!anyChange(s)) return;
  state.changed = true;
  series[c.series] = rows;
  const newest = c.rows[c.rows.length - 1]!.date;
  state.provenance[c.series] = {
    kind: 'onchain',
    chain: c.chain,
    address: c.address,
    asOf: sameContract && previous.asOf > newest ? previous.asOf : newest,
    importedAt: state.now.toISOString(),
  };
}

/** A series DeFiLlama leads: replaced on its first import from this pool, else merged. */
function mergeLlamaImport(state: MergeState, imp: SeriesImport): void {
  const { history, series } = state;
  const existing = series[imp.series] ?? [];
  const previous = history.provenance?.[imp.series];
  const replace = previous
    ? previous.kind !== 'defillama' || previous.pool !== imp.pool
    : history.sample;
  const s = noStats();
  const rows = replacedOrMerged(replace, existing, imp.rows, s);
  state.stats.set(imp.series, s);
  if (
    !anyChange(s) &&
    previous?.kind === 'defillama' &&
    previous.pool === imp.pool &&
    previous.resolvedOn === imp.resolvedOn
  )
    return;
  state.changed = true;
  series[imp.series] = rows;
  const newest = imp.rows[imp.rows.length - 1]!.date;
  state.provenance[imp.series] = {
    kind: 'defillama',
    pool: imp.pool,
    asOf: !replace && previous && previous.asOf > newest ? previous.asOf : newest,
    importedAt: state.now.toISOString(),
    ...(imp.resolvedOn !== undefined ? { resolvedOn: imp.resolvedOn } : {}),
  };
}

/** The merged file: its newest day, provenance before the long series block (read first). */
function mergedFile({ history, series, provenance, secondary }: MergeState): HistoryFile {
  let asOf = history.asOf;
  for (const rows of Object.values(series)) {
    const last = rows[rows.length - 1]?.date;
    if (last && last > asOf) asOf = last;
  }
  const { series: _series, provenance: _provenance, secondary: _secondary, ...rest } = history;
  return {
    ...rest,
    asOf,
    provenance,
    series,
    ...(Object.keys(secondary).length > 0 ? { secondary } : {}),
  };
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
  const state: MergeState = {
    history,
    now,
    series: { ...history.series },
    provenance: { ...history.provenance },
    secondary: { ...history.secondary },
    stats: new Map(),
    chainStats: new Map(),
    changed: false,
  };
  const chainLed = chainLedSeries(history, chainImports);
  const fed = imports.filter((imp) => imp.rows.length > 0);
  for (const imp of fed) if (chainLed.has(imp.series)) mergeSecondary(state, imp);
  for (const c of chainImports) mergeChainImport(state, c);
  for (const imp of fed) if (!chainLed.has(imp.series)) mergeLlamaImport(state, imp);
  const { stats, chainStats, changed } = state;
  if (!changed) return { history, stats, chainStats, changed };
  return { history: mergedFile(state), stats, chainStats, changed };
}
