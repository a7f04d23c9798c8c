/**
 * Pools named by what they are: a feed's `select` (sources.json) is looked up in the /pools list
 * the import downloads anyway (the scanner's input), and exactly one pool must match.
 *
 * Matching rules (all given fields must hold):
 * - `project` and `chain`: equal without regard to case (`aave-v3`, `Ethereum`);
 * - `symbol`: equal as written, or equal once both are NFKC-normalised, upper-cased and stripped
 *   of white space (DeFiLlama upper-cases most symbols: `gtUSDa` is listed as `GTUSDA`);
 * - `poolMeta`: absent matches any pool; a text must equal the pool's poolMeta exactly; null
 *   matches only a pool without one;
 * - `underlyingToken`: an address among the pool's `underlyingTokens`, without regard to case.
 *
 * Pure: no file or network access.
 */
import type { PoolSelector } from '@yield/contract';

/** The fields of a /pools entry a selector reads (elements may be null, as DeFiLlama sends them). */
export interface SelectablePool {
  pool: string;
  project: string;
  chain: string;
  symbol: string;
  poolMeta?: string | null | undefined;
  underlyingTokens?: readonly (string | null)[] | null | undefined;
  tvlUsd?: number | undefined;
}

export type Resolution =
  { kind: 'one'; pool: string } | { kind: 'none' } | { kind: 'several'; candidates: string[] };

function normalisedSymbol(symbol: string): string {
  return symbol.normalize('NFKC').toUpperCase().replace(/\s+/g, '');
}

/** Whether one pool is what the selector describes. */
export function matchesSelector(select: PoolSelector, pool: SelectablePool): boolean {
  if (pool.project.toLowerCase() !== select.project.toLowerCase()) return false;
  if (pool.chain.toLowerCase() !== select.chain.toLowerCase()) return false;
  if (
    pool.symbol !== select.symbol &&
    normalisedSymbol(pool.symbol) !== normalisedSymbol(select.symbol)
  )
    return false;
  if (select.poolMeta !== undefined && (pool.poolMeta ?? null) !== select.poolMeta) return false;
  if (select.underlyingToken !== undefined) {
    const wanted = select.underlyingToken.toLowerCase();
    if (!(pool.underlyingTokens ?? []).some((t) => t?.toLowerCase() === wanted)) return false;
  }
  return true;
}

/** Every pool of the list the selector matches, in list order. */
export function selectorMatches<P extends SelectablePool>(
  select: PoolSelector,
  pools: readonly P[],
): P[] {
  return pools.filter((p) => matchesSelector(select, p));
}

export function resolveSelector(
  select: PoolSelector,
  pools: readonly SelectablePool[],
): Resolution {
  const matches = selectorMatches(select, pools);
  if (matches.length === 1) return { kind: 'one', pool: matches[0]!.pool };
  if (matches.length === 0) return { kind: 'none' };
  return { kind: 'several', candidates: matches.map((p) => p.pool) };
}

/** The selector as one line: `project=aave-v3 chain=Ethereum symbol=USDC poolMeta=… token=0x…`. */
export function describeSelector(select: PoolSelector): string {
  return [
    `project=${select.project}`,
    `chain=${select.chain}`,
    `symbol=${select.symbol}`,
    ...(select.poolMeta !== undefined ? [`poolMeta=${JSON.stringify(select.poolMeta)}`] : []),
    ...(select.underlyingToken !== undefined ? [`underlyingToken=${select.underlyingToken}`] : []),
  ].join(' ');
}

/** The reason a feed shows when its selector did not resolve to exactly one pool. */
export function resolutionProblem(select: PoolSelector, resolution: Resolution): string | null {
  if (resolution.kind === 'one') return null;
  if (resolution.kind === 'none')
    return `selector matches no pool of the pools list (${describeSelector(select)})`;
  return (
    `selector matches ${resolution.candidates.length} pools of the pools list ` +
    `(${describeSelector(select)}): ${resolution.candidates.join(', ')}`
  );
}
