/**
 * The scanner's reference: a naive filter + sort over the whole snapshot, written apart from the
 * index (api/src/modules/scanner/pool-index.ts). The scanner tests compare every answer with it, and
 * bench/scanner.mjs times it (with a JSON.parse of the snapshot per query) against the API.
 */
import { rapoolV3OfSnapshot, type Score } from '../src/engine/index.ts';
import type { Pool } from '../src/modules/import/pools-file.ts';

export interface NaiveQuery {
  asset?: string | undefined;
  chain?: string | undefined;
  project?: string | undefined;
  stablecoin?: boolean | undefined;
  minTvl?: number | undefined;
  includeOutliers?: boolean | undefined;
  sort?: 'riskAdjusted' | 'apy' | 'tvl' | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface NaiveRow {
  pool: Pool;
  apy: number;
  riskAdjustedApr: number;
}

export function naiveScan(
  pools: readonly Pool[],
  safetyOf: (project: string) => Score,
  q: NaiveQuery,
): { total: number; rows: NaiveRow[] } {
  const lower = (s: string | undefined) => s?.trim().toLowerCase();
  const asset = lower(q.asset);
  const chain = lower(q.chain);
  const project = lower(q.project);
  const matches = pools.filter(
    (p) =>
      (q.includeOutliers === true || !p.outlier) &&
      (asset === undefined ||
        p.symbol
          .split('-')
          .map((t) => t.trim().toLowerCase())
          .includes(asset)) &&
      (chain === undefined || p.chain.toLowerCase() === chain) &&
      (project === undefined || p.project.toLowerCase() === project) &&
      (q.stablecoin === undefined || p.stablecoin === q.stablecoin) &&
      (q.minTvl === undefined || p.tvlUsd >= q.minTvl),
  );
  const rows: NaiveRow[] = matches.map((p) => {
    const r = rapoolV3OfSnapshot(p, safetyOf(p.project));
    return { pool: p, apy: p.apyMean30d ?? p.apy, riskAdjustedApr: r.riskAdjusted };
  });
  const sort = q.sort ?? 'riskAdjusted';
  const value = (r: NaiveRow) =>
    sort === 'riskAdjusted' ? r.riskAdjustedApr : sort === 'apy' ? r.apy : r.pool.tvlUsd;
  rows.sort((a, b) => value(b) - value(a) || (a.pool.pool < b.pool.pool ? -1 : 1));
  const offset = q.offset ?? 0;
  return { total: rows.length, rows: rows.slice(offset, offset + (q.limit ?? 50)) };
}
