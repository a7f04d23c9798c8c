/**
 * The scanner's index over one /pools snapshot, built once when the snapshot (or the tiers or the
 * sources) load, never per request:
 *
 * - every pool's rapool-v3 result and its answer item, serialised to JSON once;
 * - the three sort orders (risk-adjusted APY, APY, TVL; descending, ties by pool id) as index
 *   arrays, and each pool's rank in each order;
 * - postings lists (pool indices, ascending) per asset token, chain, project, stablecoin flag,
 *   and of the pools that are not outliers;
 * - per-pool columns (chain id, project id, flags, tokens) to test the other filters in O(1).
 *
 * A query walks only its smallest candidate list (a postings list, or the prefix of the TVL order
 * that `minTvl` selects by binary search), tests the other filters on each candidate, and orders
 * the matches by their precomputed ranks. Nothing re-reads or re-sorts the snapshot.
 */
import { RAPOOL_V3, rewardShareOf } from '../../engine/index.ts';
import { scoreFromHistory } from './score-from-history.ts';
import type { PoolDay } from '../import/index.ts';
import type { Pool, PoolsFile } from '../import/index.ts';
import {
  SCANNER_SORT_KEYS as SORT_KEYS,
  type ScannerItem,
  type ScannerSortKey as SortKey,
} from '@yield/contract';
import type { ProjectSafety } from './project-safety.ts';

export const POOL_URL_PREFIX = 'https://defillama.com/yields/pool/';

export interface PoolQuery {
  /** A token of the pool symbol split on "-", any letter case. */
  asset?: string | undefined;
  chain?: string | undefined;
  project?: string | undefined;
  stablecoin?: boolean | undefined;
  minTvl?: number | undefined;
  includeOutliers: boolean;
  sort: SortKey;
  offset: number;
  limit: number;
}

export interface QueryResult {
  /** Every match of the filters, whatever offset and limit. */
  total: number;
  /** Pool indices of the page, in ranking order. */
  page: ArrayLike<number>;
}

const STABLE = 1;
const OUTLIER = 2;

export interface PoolIndex {
  method: string;
  asOf: string | null;
  sample: boolean;
  size: number;
  items: ScannerItem[];
  itemJson: string[];
  order: Record<SortKey, Uint32Array>;
  rank: Record<SortKey, Uint32Array>;
  /** TVL of the pools in TVL order (descending), for minTvl's binary search. */
  tvlDesc: Float64Array;
  tokenIds: Map<string, number>;
  chainIds: Map<string, number>;
  projectIds: Map<string, number>;
  assetPostings: Uint32Array[];
  chainPostings: Uint32Array[];
  projectPostings: Uint32Array[];
  stablePostings: [notStable: Uint32Array, stable: Uint32Array];
  nonOutliers: Uint32Array;
  chainOf: Uint32Array;
  projectOf: Uint32Array;
  flags: Uint8Array;
  /** Pool i's token ids are tokens[tokenStart[i] .. tokenStart[i + 1]). */
  tokenStart: Uint32Array;
  tokens: Uint32Array;
  /** Scratch space for one query (queries run synchronously, one at a time). */
  scratch: { matches: Uint32Array; marks: Uint8Array };
}

/** The asset tokens of a symbol: split on "-", trimmed, lower case, without repeats. */
export function symbolTokens(symbol: string): string[] {
  const out: string[] = [];
  for (const part of symbol.split('-')) {
    const token = part.trim().toLowerCase();
    if (token.length > 0 && !out.includes(token)) out.push(token);
  }
  return out;
}

/** A pool's trailing daily history (oldest first), or undefined when it has none. */
export type HistoryOf = (pool: string) => readonly PoolDay[] | undefined;

/**
 * A pool's item by rapool-v3: from the pool's own daily history when it has 30 days of it here
 * (pool-history.ts), else from its /pools fields, its level pulled hard towards its category's
 * prior (docs/methodology.md, "Pools: rapool-v3"). Every figure comes from scoreFromHistory.
 */
export function toItem(
  pool: Pool,
  safety: ProjectSafety,
  history?: readonly PoolDay[] | undefined,
): ScannerItem {
  const { result, sigma, count, apyMean30d } = scoreFromHistory(pool, history, safety.safety);
  const hasMean = apyMean30d !== null;
  return {
    pool: pool.pool,
    project: pool.project,
    chain: pool.chain,
    symbol: pool.symbol,
    tvlUsd: pool.tvlUsd,
    apy: hasMean ? apyMean30d : pool.apy,
    apyBase: pool.apyBase ?? null,
    apyReward: pool.apyReward ?? null,
    expected: result.expected,
    riskAdjustedApr: result.riskAdjusted,
    charges: result.charges,
    url: `${POOL_URL_PREFIX}${encodeURIComponent(pool.pool)}`,
    apySpot: pool.apy,
    apyBasis: hasMean ? 'mean30d' : 'spot',
    risk: result.risk,
    stablecoin: pool.stablecoin,
    ilRisk: pool.ilRisk,
    exposure: pool.exposure,
    outlier: pool.outlier,
    poolMeta: pool.poolMeta ?? null,
    inputs: {
      sigma,
      count,
      basis: result.inputs.basis,
      category: result.inputs.category,
      level: result.inputs.level,
      prior: result.inputs.prior,
      weight: result.inputs.weight,
      rewardShare: rewardShareOf(pool.apy, pool.apyReward),
      safety: safety.safety,
      safetyBasis: safety.basis,
      safetySource: safety.sourceId ?? null,
    },
  };
}

const SORT_VALUE: Record<SortKey, (item: ScannerItem) => number> = {
  riskAdjusted: (item) => item.riskAdjustedApr,
  apy: (item) => item.apy,
  tvl: (item) => item.tvlUsd,
};

/** The ranking order: value descending, ties by pool id ascending (so every order is total). */
export function compareItems(sort: SortKey, a: ScannerItem, b: ScannerItem): number {
  const va = SORT_VALUE[sort](a);
  const vb = SORT_VALUE[sort](b);
  if (va !== vb) return vb - va;
  return a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0;
}

/** Interns a key into a dense id and appends the pool to that id's postings. */
function post(ids: Map<string, number>, lists: number[][], key: string, pool: number): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = lists.length;
    ids.set(key, id);
    lists.push([]);
  }
  lists[id]!.push(pool);
  return id;
}

export function buildPoolIndex(
  snapshot: Pick<PoolsFile, 'asOf' | 'sample' | 'data'>,
  safetyOf: (project: string) => ProjectSafety,
  historyOf: HistoryOf = () => undefined,
): PoolIndex {
  const pools = snapshot.data;
  const n = pools.length;
  const items: ScannerItem[] = new Array<ScannerItem>(n);
  const itemJson: string[] = new Array<string>(n);
  const tokenIds = new Map<string, number>();
  const chainIds = new Map<string, number>();
  const projectIds = new Map<string, number>();
  const assetLists: number[][] = [];
  const chainLists: number[][] = [];
  const projectLists: number[][] = [];
  const stableLists: [number[], number[]] = [[], []];
  const nonOutlierList: number[] = [];
  const chainOf = new Uint32Array(n);
  const projectOf = new Uint32Array(n);
  const flags = new Uint8Array(n);
  const tokenStart = new Uint32Array(n + 1);
  const tokenList: number[] = [];

  for (let i = 0; i < n; i++) {
    const pool = pools[i]!;
    const item = toItem(pool, safetyOf(pool.project), historyOf(pool.pool));
    items[i] = item;
    itemJson[i] = JSON.stringify(item);
    tokenStart[i] = tokenList.length;
    for (const token of symbolTokens(pool.symbol))
      tokenList.push(post(tokenIds, assetLists, token, i));
    chainOf[i] = post(chainIds, chainLists, pool.chain.toLowerCase(), i);
    projectOf[i] = post(projectIds, projectLists, pool.project.toLowerCase(), i);
    stableLists[pool.stablecoin ? 1 : 0].push(i);
    flags[i] = (pool.stablecoin ? STABLE : 0) | (pool.outlier ? OUTLIER : 0);
    if (!pool.outlier) nonOutlierList.push(i);
  }
  tokenStart[n] = tokenList.length;

  const order = {} as Record<SortKey, Uint32Array>;
  const rank = {} as Record<SortKey, Uint32Array>;
  for (const key of SORT_KEYS) {
    const sorted = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
      compareItems(key, items[a]!, items[b]!),
    );
    order[key] = Uint32Array.from(sorted);
    const r = new Uint32Array(n);
    sorted.forEach((pool, position) => (r[pool] = position));
    rank[key] = r;
  }
  const tvlDesc = Float64Array.from(order.tvl, (i) => items[i]!.tvlUsd);
  const typed = (lists: number[][]) => lists.map((l) => Uint32Array.from(l));

  return {
    method: RAPOOL_V3.method,
    asOf: snapshot.asOf,
    sample: snapshot.sample,
    size: n,
    items,
    itemJson,
    order,
    rank,
    tvlDesc,
    tokenIds,
    chainIds,
    projectIds,
    assetPostings: typed(assetLists),
    chainPostings: typed(chainLists),
    projectPostings: typed(projectLists),
    stablePostings: [Uint32Array.from(stableLists[0]), Uint32Array.from(stableLists[1])],
    nonOutliers: Uint32Array.from(nonOutlierList),
    chainOf,
    projectOf,
    flags,
    tokenStart,
    tokens: Uint32Array.from(tokenList),
    scratch: { matches: new Uint32Array(n), marks: new Uint8Array(n) },
  };
}

/** How many pools have at least `minTvl`: the length of that prefix of the TVL order. */
export function tvlPrefixLength(tvlDesc: Float64Array, minTvl: number): number {
  let lo = 0;
  let hi = tvlDesc.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tvlDesc[mid]! >= minTvl) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const EMPTY: QueryResult = { total: 0, page: new Uint32Array(0) };

export function queryPools(index: PoolIndex, q: PoolQuery): QueryResult {
  const n = index.size;
  const candidates: Uint32Array[] = [];
  let driverIsTvlPrefix = false;

  const lookup = (ids: Map<string, number>, value: string | undefined): number | null => {
    if (value === undefined) return -1;
    return ids.get(value.trim().toLowerCase()) ?? null;
  };
  const token = lookup(index.tokenIds, q.asset);
  const chain = lookup(index.chainIds, q.chain);
  const project = lookup(index.projectIds, q.project);
  // A value no pool has matches nothing.
  if (token === null || chain === null || project === null) return EMPTY;
  if (token >= 0) candidates.push(index.assetPostings[token]!);
  if (chain >= 0) candidates.push(index.chainPostings[chain]!);
  if (project >= 0) candidates.push(index.projectPostings[project]!);
  if (q.stablecoin !== undefined) candidates.push(index.stablePostings[q.stablecoin ? 1 : 0]);
  if (!q.includeOutliers) candidates.push(index.nonOutliers);
  const tvlPrefix = q.minTvl === undefined ? n : tvlPrefixLength(index.tvlDesc, q.minTvl);

  const end = q.offset + q.limit;
  if (candidates.length === 0 && tvlPrefix === n) {
    return { total: n, page: index.order[q.sort].subarray(Math.min(q.offset, n), end) };
  }

  let driver = candidates.reduce<Uint32Array | null>(
    (best, list) => (best === null || list.length < best.length ? list : best),
    null,
  );
  if (driver === null || tvlPrefix < driver.length) {
    driver = index.order.tvl.subarray(0, tvlPrefix);
    driverIsTvlPrefix = true;
  }

  // Filter the driver: every other condition is a column lookup.
  const { chainOf, projectOf, flags, tokenStart, tokens } = index;
  const tvlRank = index.rank.tvl;
  const stableFlag = q.stablecoin === undefined ? -1 : q.stablecoin ? STABLE : 0;
  const matches = index.scratch.matches;
  let m = 0;
  for (let k = 0; k < driver.length; k++) {
    const i = driver[k]!;
    if (tvlRank[i]! >= tvlPrefix) continue;
    if (chain >= 0 && chainOf[i] !== chain) continue;
    if (project >= 0 && projectOf[i] !== project) continue;
    const f = flags[i]!;
    if (stableFlag >= 0 && (f & STABLE) !== stableFlag) continue;
    if (!q.includeOutliers && (f & OUTLIER) !== 0) continue;
    if (token >= 0) {
      let has = false;
      for (let t = tokenStart[i]!; t < tokenStart[i + 1]!; t++) {
        if (tokens[t] === token) {
          has = true;
          break;
        }
      }
      if (!has) continue;
    }
    matches[m++] = i;
  }

  return rankedPage(index, q, matches, m, driverIsTvlPrefix);
}

/**
 * The requested page of the `m` matches (in `matches`), in the query's order: the TVL prefix walked
 * in TVL order is already ranked; few matches are ranked by sorting their ranks; many are marked
 * and the precomputed order walked until the page is full.
 */
function rankedPage(
  index: PoolIndex,
  q: PoolQuery,
  matches: Uint32Array,
  m: number,
  driverIsTvlPrefix: boolean,
): QueryResult {
  const n = index.size;
  const end = q.offset + q.limit;
  if (q.offset >= m) return { total: m, page: new Uint32Array(0) };
  const order = index.order[q.sort];
  // The TVL prefix is walked in TVL order: its matches are already ranked by TVL.
  if (driverIsTvlPrefix && q.sort === 'tvl') {
    return { total: m, page: matches.slice(q.offset, Math.min(end, m)) };
  }
  // Few matches: sort their ranks (integers). Many: mark them and walk the precomputed order,
  // stopping once the page is full.
  if (m * Math.log2(m + 1) < n) {
    const rank = index.rank[q.sort];
    const ranks = new Uint32Array(m);
    for (let k = 0; k < m; k++) ranks[k] = rank[matches[k]!]!;
    ranks.sort();
    const page = ranks.slice(q.offset, Math.min(end, m));
    for (let k = 0; k < page.length; k++) page[k] = order[page[k]!]!;
    return { total: m, page };
  }
  const marks = index.scratch.marks;
  for (let k = 0; k < m; k++) marks[matches[k]!] = 1;
  const page: number[] = [];
  let seen = 0;
  for (let k = 0; k < n && page.length < q.limit; k++) {
    const i = order[k]!;
    if (marks[i] === 0) continue;
    if (seen++ >= q.offset) page.push(i);
  }
  for (let k = 0; k < m; k++) marks[matches[k]!] = 0;
  return { total: m, page };
}
