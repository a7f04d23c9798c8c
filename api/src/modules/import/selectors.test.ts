import { describe, expect, it } from 'vitest';
import { matchesSelector, resolutionProblem, resolveSelector } from './selectors.ts';

const pool = (over: Record<string, unknown> = {}) => ({
  pool: '00000000-0000-4000-8000-000000000001',
  project: 'aave-v3',
  chain: 'Ethereum',
  symbol: 'USDC',
  poolMeta: null as string | null,
  underlyingTokens: [null, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'] as (string | null)[],
  ...over,
});

describe('pool selectors', () => {
  it('compare project and chain without case, symbol as written or normalised, poolMeta exactly, tokens without case', () => {
    const s = { project: 'AAVE-V3', chain: 'ethereum', symbol: 'usdc' };
    expect(matchesSelector(s, pool())).toBe(true);
    expect(matchesSelector({ ...s, symbol: 'U S D C' }, pool())).toBe(true);
    expect(matchesSelector({ ...s, symbol: 'USDT' }, pool())).toBe(false);
    expect(matchesSelector({ ...s, chain: 'Base' }, pool())).toBe(false);
    expect(matchesSelector({ ...s, poolMeta: null }, pool())).toBe(true);
    expect(matchesSelector({ ...s, poolMeta: 'Prime Instance' }, pool())).toBe(false);
    expect(matchesSelector({ ...s, poolMeta: 'Prime' }, pool({ poolMeta: 'Prime Instance' }))).toBe(
      false,
    );
    expect(matchesSelector({ ...s, poolMeta: null }, pool({ poolMeta: 'Prime Instance' }))).toBe(
      false,
    );
    const token = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
    expect(matchesSelector({ ...s, underlyingToken: token }, pool())).toBe(true);
    expect(
      matchesSelector({ ...s, underlyingToken: token }, pool({ underlyingTokens: null })),
    ).toBe(false);
  });

  it('resolve to exactly one pool, or name none or the candidates', () => {
    const s = { project: 'aave-v3', chain: 'Ethereum', symbol: 'USDC' };
    const other = pool({
      pool: '00000000-0000-4000-8000-000000000002',
      poolMeta: 'Prime Instance',
    });
    expect(resolveSelector(s, [pool(), pool({ symbol: 'DAI' })])).toEqual({
      kind: 'one',
      pool: pool().pool,
    });
    const several = resolveSelector(s, [pool(), other]);
    expect(several).toEqual({ kind: 'several', candidates: [pool().pool, other.pool] });
    expect(resolutionProblem(s, several)).toBe(
      `selector matches 2 pools of the pools list (project=aave-v3 chain=Ethereum symbol=USDC): ${pool().pool}, ${other.pool}`,
    );
    expect(resolutionProblem(s, resolveSelector(s, []))).toBe(
      'selector matches no pool of the pools list (project=aave-v3 chain=Ethereum symbol=USDC)',
    );
  });
});
