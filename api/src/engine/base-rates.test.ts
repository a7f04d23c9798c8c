import { describe, expect, it } from 'vitest';
import {
  cryptoBaseSeries,
  derivedSeries,
  stableBaseSeries,
  tvlWeightedSeries,
} from './base-rates.ts';
import type { DailyRow } from './ra30.ts';

const row = (date: string, apy: number, tvlUsd: number, apyReward = 0): DailyRow => ({
  date,
  apy,
  apyReward,
  tvlUsd,
});

describe('base-rate series', () => {
  it('weights venues of one coin by TVL', () => {
    // (3 · 300 + 6 · 100) / 400 = 3.75
    const out = tvlWeightedSeries([[row('2026-01-01', 3, 300)], [row('2026-01-01', 6, 100)]]);
    expect(out).toEqual([{ date: '2026-01-01', apy: 3.75, apyReward: 0, tvlUsd: 400 }]);
  });

  it('stablecoin base: plain mean of the coins, only on dates every series has', () => {
    const out = stableBaseSeries({
      coins: [
        { coin: 'USDC', venues: [[row('2026-01-01', 4, 100), row('2026-01-02', 4, 100)]] },
        { coin: 'USDT', venues: [[row('2026-01-01', 6, 900)]] },
        { coin: 'DAI', venues: [[row('2026-01-01', 5, 10), row('2026-01-02', 5, 10)]] },
      ],
    });
    // (4 + 6 + 5) / 3 = 5, unweighted although USDT is nine times larger; TVL is the sum
    expect(out).toEqual([{ date: '2026-01-01', apy: 5, apyReward: 0, tvlUsd: 1010 }]);
  });

  it('crypto base: native staking as stETH / 0.9, its TVL not counted twice', () => {
    const steth = [row('2026-01-01', 2.7, 1000)];
    const out = cryptoBaseSeries({
      assets: [
        { asset: 'stETH', rows: steth, derived: false },
        { asset: 'rETH', rows: [row('2026-01-01', 2.8, 200)], derived: false },
        { asset: 'cbETH', rows: [row('2026-01-01', 2.5, 100)], derived: false },
        { asset: 'ETH', rows: derivedSeries(steth, 0.9), derived: true },
      ],
    });
    // (2.7 + 2.8 + 2.5 + 3.0) / 4 = 2.75
    expect(out[0]!.apy).toBeCloseTo(2.75, 12);
    expect(out[0]!.tvlUsd).toBe(1300);
  });
});
