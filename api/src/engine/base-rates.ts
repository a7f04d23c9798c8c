/**
 * The two DeFi Base Rate series (docs/methodology.md), built from their component series. Pure.
 *
 * - Stablecoin: per coin, the TVL-weighted mean daily APY of its lending venues; the base series
 *   is the plain mean of the coins' series.
 * - Crypto: the plain mean of the assets' daily APY; an asset without a series of its own (native
 *   ETH staking) is derived from another one divided by a factor (stETH / 0.9).
 *
 * The base series' TVL is the sum of the TVL of the series it is built from (a derived series adds
 * nothing, its TVL is already counted), so the size and outflow charges describe the whole
 * benchmark market.
 */
import type { DailyRow } from './ra30.ts';

function byDate(rows: readonly DailyRow[]): Map<string, DailyRow> {
  const map = new Map<string, DailyRow>();
  for (const r of rows) map.set(r.date, r);
  return map;
}

/** Dates present in every one of the given series, ascending. */
function commonDates(series: readonly (readonly DailyRow[])[]): string[] {
  if (series.length === 0) return [];
  const maps = series.map(byDate);
  const dates = [...maps[0]!.keys()].filter((d) => maps.every((m) => m.has(d)));
  return dates.sort();
}

/** TVL-weighted mean of several venues' rows for the same coin, per common date. */
export function tvlWeightedSeries(venues: readonly (readonly DailyRow[])[]): DailyRow[] {
  const maps = venues.map(byDate);
  return commonDates(venues).map((date) => {
    const rows = maps.map((m) => m.get(date)!);
    const tvl = rows.reduce((s, r) => s + r.tvlUsd, 0);
    const weight = (r: DailyRow) => (tvl > 0 ? r.tvlUsd / tvl : 1 / rows.length);
    return {
      date,
      apy: rows.reduce((s, r) => s + weight(r) * r.apy, 0),
      apyReward: rows.reduce((s, r) => s + weight(r) * (r.apyReward ?? 0), 0),
      tvlUsd: tvl,
    };
  });
}

/** Plain (unweighted) mean of several series per common date; TVL is summed. */
export function plainMeanSeries(
  series: readonly { rows: readonly DailyRow[]; countTvl: boolean }[],
): DailyRow[] {
  const maps = series.map((s) => byDate(s.rows));
  return commonDates(series.map((s) => s.rows)).map((date) => {
    const rows = maps.map((m) => m.get(date)!);
    return {
      date,
      apy: rows.reduce((s, r) => s + r.apy, 0) / rows.length,
      apyReward: rows.reduce((s, r) => s + (r.apyReward ?? 0), 0) / rows.length,
      tvlUsd: rows.reduce((s, r, i) => s + (series[i]!.countTvl ? r.tvlUsd : 0), 0),
    };
  });
}

/** A series derived from another by dividing its APY (stETH / 0.9 adds back Lido's 10% fee). */
export function derivedSeries(rows: readonly DailyRow[], divisor: number): DailyRow[] {
  return rows.map((r) => ({
    date: r.date,
    apy: r.apy / divisor,
    apyReward: (r.apyReward ?? 0) / divisor,
    tvlUsd: r.tvlUsd,
  }));
}

export interface StableBaseSpec {
  coins: { coin: string; venues: readonly (readonly DailyRow[])[] }[];
}

export function stableBaseSeries(spec: StableBaseSpec): DailyRow[] {
  return plainMeanSeries(
    spec.coins.map((c) => ({ rows: tvlWeightedSeries(c.venues), countTvl: true })),
  );
}

export interface CryptoBaseSpec {
  assets: { asset: string; rows: readonly DailyRow[]; derived: boolean }[];
}

export function cryptoBaseSeries(spec: CryptoBaseSpec): DailyRow[] {
  return plainMeanSeries(spec.assets.map((a) => ({ rows: a.rows, countTvl: !a.derived })));
}
