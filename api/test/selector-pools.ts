/**
 * /pools entries for the selectors of a sources.json, so that replays of DeFiLlama resolve every
 * shipped feed: one pool per selector, with the selector's project, chain, symbol, poolMeta and
 * underlying token, and the feed's expected id (or, for a feed named by selector only, an id
 * derived from its series).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from '../src/platform/paths.ts';
import { defillamaFeedOf, seriesFeeds, type SourcesFile } from '../src/modules/yields/schemas.ts';
import type { FeedTarget } from '../src/modules/import/run-import.ts';

/** The id a replay serves for a feed: its `pool`, else one derived from its series. */
export function feedPoolId(target: Pick<FeedTarget, 'series' | 'pool'>): string {
  if (target.pool) return target.pool;
  const h = createHash('sha256').update(`selector:${target.series}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One valid /pools entry per selector feed of `sources` (each series once). */
export function selectorPools(sources: SourcesFile): Record<string, unknown>[] {
  const seen = new Set<string>();
  return seriesFeeds(sources).flatMap(({ series, feeds }) => {
    const f = defillamaFeedOf(feeds);
    if (!f?.select || seen.has(series)) return [];
    seen.add(series);
    const s = f.select;
    return [
      {
        chain: s.chain,
        project: s.project,
        symbol: s.symbol,
        tvlUsd: 250_000_000,
        apyBase: 4,
        apyReward: null,
        apy: 4,
        rewardTokens: null,
        pool: feedPoolId({ series, pool: f.pool }),
        apyPct1D: 0,
        apyPct7D: 0,
        apyPct30D: 0,
        stablecoin: false,
        ilRisk: 'no',
        exposure: 'single',
        predictions: null,
        poolMeta: s.poolMeta ?? null,
        mu: 4,
        sigma: 0.1,
        count: 400,
        outlier: false,
        underlyingTokens: s.underlyingToken ? [s.underlyingToken] : null,
        il7d: null,
        apyBase7d: null,
        apyMean30d: 4,
        volumeUsd1d: null,
        volumeUsd7d: null,
        apyBaseInception: null,
      },
    ];
  });
}

/** The shipped api/data/sources.json's selector pools. */
export function shippedSelectorPools(): Record<string, unknown>[] {
  const sources = JSON.parse(
    readFileSync(path.join(DEFAULT_DATA_DIR, 'sources.json'), 'utf8'),
  ) as SourcesFile;
  return selectorPools(sources);
}

/** A /pools answer: `generated` plus the shipped selectors' pools. */
export function withShippedSelectors(generated: { status: 'success'; data: unknown[] }) {
  return { ...generated, data: [...generated.data, ...shippedSelectorPools()] };
}
