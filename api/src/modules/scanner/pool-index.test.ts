import { describe, expect, it } from 'vitest';
import { generatePoolsResponse } from '../../../scripts/generate-pools.ts';
import { naiveScan, type NaiveQuery } from '../../../test/naive-scan.ts';
import type { Score } from '../../engine/index.ts';
import { preparePoolsSnapshot } from '../import/index.ts';
import { SCANNER_SORT_KEYS as SORT_KEYS } from '@yield/contract';
import {
  buildPoolIndex,
  queryPools,
  symbolTokens,
  tvlPrefixLength,
  type PoolQuery,
} from './pool-index.ts';

describe('building blocks', () => {
  it('symbol tokens: split on "-", trimmed, lower case, no repeats, no empty parts', () => {
    expect(symbolTokens('USDC-WETH')).toEqual(['usdc', 'weth']);
    expect(symbolTokens('USD0++')).toEqual(['usd0++']);
    expect(symbolTokens('usdc.e - DAI-USDC.e')).toEqual(['usdc.e', 'dai']);
    expect(symbolTokens('-A--B-')).toEqual(['a', 'b']);
  });

  it('minTvl selects a prefix of the TVL order by binary search', () => {
    const tvl = Float64Array.from([900, 500, 500, 100, 10]);
    expect(tvlPrefixLength(tvl, 0)).toBe(5);
    expect(tvlPrefixLength(tvl, 10)).toBe(5);
    expect(tvlPrefixLength(tvl, 11)).toBe(4);
    expect(tvlPrefixLength(tvl, 500)).toBe(3);
    expect(tvlPrefixLength(tvl, 501)).toBe(1);
    expect(tvlPrefixLength(tvl, 1e12)).toBe(0);
    expect(tvlPrefixLength(new Float64Array(0), 1)).toBe(0);
  });
});

describe('queryPools against the naive scan (20,000 pools, random queries)', () => {
  const { file } = preparePoolsSnapshot(generatePoolsResponse({ count: 20_000, seed: 31 }));
  // Any deterministic safety assignment will do here: the index must rank by what it is given.
  const safetyOf = (project: string): Score => (((project.length * 7) % 5) + 1) as Score;
  const index = buildPoolIndex(file, (project) => ({ safety: safetyOf(project), basis: 'tier' }));

  // Values that exist, in other letter cases, plus ones that do not.
  const assets = ['USDC', 'weth', 'Dai', 'usdc.e', 'WBTC', 'HYPE', 'nothing'];
  const chains = ['Ethereum', 'arbitrum', 'SOLANA', 'Scroll', 'Atlantis'];
  const projects = ['aave-v3', 'uniswap-v3', 'Beefy', 'kelp', 'no-such-project'];
  const minTvls = [0, 5e4, 1e6, 2.5e7, 1e9, 1e13];

  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const maybe = <T>(list: readonly T[], p: number): T | undefined =>
    next() < p ? list[Math.floor(next() * list.length)] : undefined;

  it('150 random combinations of every filter, sort, offset and limit', () => {
    for (let k = 0; k < 150; k++) {
      const q: PoolQuery = {
        asset: maybe(assets, 0.5),
        chain: maybe(chains, 0.4),
        project: maybe(projects, 0.2),
        stablecoin: maybe([true, false], 0.3),
        minTvl: maybe(minTvls, 0.4),
        includeOutliers: next() < 0.3,
        sort: SORT_KEYS[Math.floor(next() * 3)]!,
        offset: next() < 0.7 ? 0 : Math.floor(next() * 2000),
        limit: 1 + Math.floor(next() * 500),
      };
      const got = queryPools(index, q);
      const want = naiveScan(file.data, safetyOf, q as NaiveQuery);
      expect(got.total, JSON.stringify(q)).toBe(want.total);
      expect(
        Array.from(got.page, (i) => index.items[i]!.pool),
        JSON.stringify(q),
      ).toEqual(want.rows.map((r) => r.pool.pool));
    }
  });

  it('each way of ordering matches: all pools, the TVL prefix, sorted ranks, the marked walk', () => {
    const base = { includeOutliers: true, offset: 0, limit: 500 } as const;
    const cases: PoolQuery[] = [
      { ...base, sort: 'apy' }, // no filter: a slice of the precomputed order
      { ...base, sort: 'tvl', minTvl: 1e8 }, // the TVL prefix walked in TVL order
      { ...base, sort: 'riskAdjusted', minTvl: 1e8 }, // the prefix, then sorted ranks
      { ...base, sort: 'riskAdjusted', asset: 'hype' }, // few matches: sorted ranks
      { ...base, sort: 'riskAdjusted', stablecoin: false, offset: 4000 }, // many: marked walk
    ];
    for (const q of cases) {
      const got = queryPools(index, q);
      const want = naiveScan(file.data, safetyOf, q as NaiveQuery);
      expect(got.total).toBe(want.total);
      expect(Array.from(got.page, (i) => index.items[i]!.pool)).toEqual(
        want.rows.map((r) => r.pool.pool),
      );
    }
  });

  it('leaves its scratch space clean between queries', () => {
    const q: PoolQuery = { includeOutliers: false, sort: 'apy', offset: 0, limit: 20 };
    const first = Array.from(queryPools(index, { ...q, stablecoin: true }).page);
    queryPools(index, { ...q, stablecoin: false });
    expect(Array.from(queryPools(index, { ...q, stablecoin: true }).page)).toEqual(first);
    expect(index.scratch.marks.every((m) => m === 0)).toBe(true);
  });
});
