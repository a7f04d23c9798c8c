/**
 * One zod schema per lowdb file under the data directory. These files are the operators' editing
 * surface, so every constraint here is a message an operator may read in GET /api/health.
 */
import { z } from 'zod';
import {
  amountUnitSchema,
  BASE_KEYS,
  baseKeySchema,
  defillamaPoolIdSchema as defillamaPoolId,
  depositsPausedSchema,
  exitSchema,
  chainSlugSchema,
  evmAddressSchema,
  ONCHAIN_KINDS,
  RATE_CALLS,
  httpUrlSchema as url,
  incidentSchema,
  isoDateSchema as isoDate,
  isoDateTimeSchema as isoDateTime,
  liquidityPointSchema,
  nonEmptySchema as nonEmpty,
  poolSelectorSchema,
  REAL_OR_INCENTIVE,
  scoreSchema as score,
  siteSettingsSchema,
  sourceTypeSchema,
  strategyContentSchema,
  strategySlugSchema as slug,
  thirdPartyRatingSchema,
  warningThresholdsSchema,
  WARNING_KINDS,
} from '@yield/contract';
import { depositLinkProblem, reportLinkProblem } from '../../platform/links.ts';
import { flagRepeats } from '../../platform/files/schema-checks.ts';

// ---------------------------------------------------------------- settings.json
/** GET /api/settings is this file plus the data's sample marker. */
export const settingsFileSchema = siteSettingsSchema
  .omit({ data: true })
  .extend({ warnings: warningThresholdsSchema });
export type SettingsFile = z.infer<typeof settingsFileSchema>;

// ---------------------------------------------------------------- sources.json
const datedScore = z.strictObject({
  /** First day this score applies to. The engine uses the newest score dated on or before the window's end. */
  date: isoDate,
  safety: score,
  liquidity: score,
  safetyRationale: nonEmpty,
  liquidityRationale: nonEmpty,
  links: z.array(url),
});

/**
 * Where a series' daily history is imported from (`pnpm --filter @yield/api data:import`): at most
 * one DeFiLlama pool and at most one contract read on chain (docs/data-sources.md, "On-chain
 * feeds"). With both, the on-chain share price leads (history.json `series`) and DeFiLlama's feed
 * is kept beside it (history.json `secondary`) and compared with it. A series without feeds keeps
 * its data as it is in history.json (sample or typed by hand).
 *
 * A DeFiLlama feed names its pool by id (`pool`), by what it is (`select`: project, chain,
 * symbol, and optionally poolMeta and an underlying token, resolved against each import's /pools
 * download, api/src/modules/import/selectors.ts), or both: then `pool` is the expected resolution
 * and a selector resolving to another pool is refused (the series keeps its last good data).
 */
const defillamaFeed = z
  .strictObject({
    provider: z.literal('defillama'),
    pool: defillamaPoolId.optional(),
    select: poolSelectorSchema.optional(),
  })
  .refine((f) => f.pool !== undefined || f.select !== undefined, {
    message: 'a feed names its pool by id (pool), by selector (select), or both',
  });
const onchainFeed = z
  .strictObject({
    provider: z.literal('onchain'),
    chain: chainSlugSchema,
    kind: z.enum(ONCHAIN_KINDS),
    address: evmAddressSchema,
    /** Kind rate: the getter (getPooledEthByShares, getExchangeRate, getRate, exchangeRate). */
    call: z.enum(RATE_CALLS).optional(),
    /** Kind rate: the getter's decimals (default 18). */
    decimals: z.number().int().min(0).max(36).optional(),
    /**
     * Kind rate: `accountant` when `address` is a vault's teller (Veda's BoringVault) and the
     * getter is called on the accountant it names (accountant()) at each day's block.
     */
    via: z.enum(['accountant']).optional(),
    /**
     * Kind liquity-stability-pool: the LQTY token, priced from the coins API as
     * `<chain>:<lqtyToken>` (ETH is priced as coingecko:ethereum).
     */
    lqtyToken: evmAddressSchema.optional(),
    /**
     * Kind aera-v3: the token a vault unit is valued in (the vault's deposit token, its
     * calculator's numeraire), as the protocol's own listing names it.
     */
    token: evmAddressSchema.optional(),
    /**
     * Kind aave-v3-reserve: the reserve's underlying asset, whose liquidity index the Pool at
     * `address` reports (getReserveNormalizedIncome(asset)).
     */
    asset: evmAddressSchema.optional(),
    /** Where the address was checked (the protocol's own docs), and when. */
    link: url,
    verified: isoDate,
  })
  .superRefine((f, ctx) => {
    if ((f.kind === 'rate') !== (f.call !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['call'],
        message:
          f.kind === 'rate'
            ? 'a rate feed names its getter (call)'
            : 'only a rate feed names a getter (call)',
      });
    if ((f.kind === 'liquity-stability-pool') !== (f.lqtyToken !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['lqtyToken'],
        message:
          f.kind === 'liquity-stability-pool'
            ? 'a liquity-stability-pool feed names the LQTY token (lqtyToken)'
            : 'only a liquity-stability-pool feed names the LQTY token (lqtyToken)',
      });
    if (f.via !== undefined && f.kind !== 'rate')
      ctx.addIssue({
        code: 'custom',
        path: ['via'],
        message: 'only a rate feed reads its getter through another contract (via)',
      });
    if ((f.kind === 'aera-v3') !== (f.token !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['token'],
        message:
          f.kind === 'aera-v3'
            ? 'an aera-v3 feed names the token its units are valued in (token)'
            : 'only an aera-v3 feed names a token (token)',
      });
    if ((f.kind === 'aave-v3-reserve') !== (f.asset !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['asset'],
        message:
          f.kind === 'aave-v3-reserve'
            ? 'an aave-v3-reserve feed names the reserve it reads (asset)'
            : 'only an aave-v3-reserve feed names a reserve (asset)',
      });
  });
const feed = z.discriminatedUnion('provider', [defillamaFeed, onchainFeed]);
const feeds = z
  .array(feed)
  .max(2, 'at most one defillama and one onchain feed per series')
  .superRefine((list, ctx) => {
    if (new Set(list.map((f) => f.provider)).size < list.length)
      ctx.addIssue({ code: 'custom', message: 'at most one feed of each provider per series' });
  })
  .optional();
/** Operators' note of why a series has no feed (which pool is missing, what to check). */
const feedNote = nonEmpty.optional();
export type FeedRecord = z.infer<typeof feed>;
export type DefillamaFeedRecord = z.infer<typeof defillamaFeed>;
export type OnchainFeedRecord = z.infer<typeof onchainFeed>;

/** A series' DeFiLlama pool, if it has one. */
export function defillamaFeedOf(list: readonly FeedRecord[] | undefined) {
  return list?.find((f): f is DefillamaFeedRecord => f.provider === 'defillama');
}
/** A series' on-chain feed, if it has one. */
export function onchainFeedOf(list: readonly FeedRecord[] | undefined) {
  return list?.find((f): f is OnchainFeedRecord => f.provider === 'onchain');
}

/**
 * The token whose daily price the importer fetches from DeFiLlama's coins API for the depeg
 * warning (api/src/modules/import/coins.ts): the token meant to be worth one unit of the source (one
 * dollar, or one ETH). `link` is where its address was checked, `verified` when.
 */
const priceToken = z.strictObject({
  chain: z
    .string()
    .regex(
      /^[a-z][a-z0-9_-]{0,39}$/,
      'expected a DeFiLlama chain slug (lower case, e.g. ethereum)',
    ),
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a token address (0x and 40 hex digits)'),
  symbol: nonEmpty,
  link: url,
  verified: isoDate,
  note: nonEmpty.optional(),
});
export type PriceTokenRecord = z.infer<typeof priceToken>;

/** The coins API's name of a token: `chain:address`. */
export function coinOf(token: Pick<PriceTokenRecord, 'chain' | 'address'>): string {
  return `${token.chain}:${token.address}`;
}
/** ETH's price, the reference of tokens pegged to ETH (the coins API names it by CoinGecko id). */
export const ETH_COIN = 'coingecko:ethereum';

/** The coins API's names of the tokens a Liquity Stability Pool feed is paid in: ETH and LQTY. */
export function liquityGainCoins(feed: OnchainFeedRecord): { eth: string; lqty: string } {
  return { eth: ETH_COIN, lqty: `${feed.chain}:${feed.lqtyToken ?? ''}` };
}

/**
 * The coins to import: every source's priced token, plus ETH when a source is pegged to ETH, plus
 * ETH and LQTY for a Liquity Stability Pool feed (its gains are valued at their daily prices).
 */
export function priceCoins(file: { sources: readonly YieldSourceRecord[] }): string[] {
  const coins = new Set<string>();
  for (const s of file.sources) {
    for (const f of s.feeds ?? [])
      if (f.provider === 'onchain' && f.kind === 'liquity-stability-pool') {
        const { eth, lqty } = liquityGainCoins(f);
        coins.add(eth).add(lqty);
      }
    if (!s.priceToken) continue;
    coins.add(coinOf(s.priceToken));
    if (s.unit === 'ETH') coins.add(ETH_COIN);
  }
  return [...coins];
}

/** An operator's dismissal of one detected warning (source + kind + day it opened), dated. */
const warningDismissal = z.strictObject({
  kind: z.enum(WARNING_KINDS),
  openedOn: isoDate,
  on: isoDate,
  note: nonEmpty,
});

const sourceCommon = {
  name: nonEmpty,
  token: nonEmpty,
  yieldToken: nonEmpty,
  type: sourceTypeSchema,
  /** What amounts in this source are counted in (USD for dollar sources, ETH for ETH ones). */
  unit: amountUnitSchema,
  rating: score,
  yield_type: nonEmpty,
  real_or_incentive: z.enum(REAL_OR_INCENTIVE),
  yield_category: nonEmpty,
  description: nonEmpty,
  scores: z.array(datedScore).min(1, 'at least one dated safety/liquidity score is required'),
  incidents: z.array(
    incidentSchema.superRefine((incident, ctx) => {
      const problem = reportLinkProblem(incident.link);
      if (problem) ctx.addIssue({ code: 'custom', path: ['link'], message: problem });
    }),
  ),
};

const yieldSourceRecord = z
  .strictObject({
    id: z.number().int().positive(),
    ...sourceCommon,
    detailSlug: slug.nullable(),
    /** null while the provider has closed deposits (then depositsPaused says since when and why). */
    depositUrl: url
      .superRefine((link, ctx) => {
        const problem = depositLinkProblem(link);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .nullable(),
    /** Day an operator last opened depositUrl and found the vault or pool itself there. */
    depositUrlVerified: isoDate,
    depositsPaused: depositsPausedSchema.optional(),
    /** How a saver gets the money back (researched, with a link and the day it was checked). */
    exit: exitSchema,
    /** Key of this source's daily series in history.json. */
    series: nonEmpty,
    feeds,
    feedNote,
    priceToken: priceToken.optional(),
    /** Operators' note of why a source has no priceToken. */
    priceNote: nonEmpty.optional(),
    warningDismissals: z.array(warningDismissal).optional(),
  })
  .superRefine((source, ctx) => {
    // A saver is either sent to the very vault or told deposits are closed; never both, never neither.
    if ((source.depositUrl === null) !== (source.depositsPaused !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['depositUrl'],
        message:
          source.depositUrl === null
            ? 'depositUrl may be null only while depositsPaused says since when and why'
            : 'a source with depositsPaused has no depositUrl (null): no saver is sent to deposit',
      });
  });

const stableComponents = z.strictObject({
  kind: z.literal('stablecoin'),
  coins: z
    .array(
      z.strictObject({
        coin: nonEmpty,
        venues: z
          .array(z.strictObject({ venue: nonEmpty, series: nonEmpty, feeds, feedNote }))
          .min(1),
      }),
    )
    .min(1),
});
const cryptoComponents = z.strictObject({
  kind: z.literal('crypto'),
  assets: z
    .array(
      z.union([
        z.strictObject({ asset: nonEmpty, series: nonEmpty, feeds, feedNote }),
        z.strictObject({ asset: nonEmpty, derivedFrom: nonEmpty, divisor: z.number().positive() }),
      ]),
    )
    .min(1),
});

const baseRateRecord = z.strictObject({
  key: baseKeySchema,
  id: z.literal(0),
  ...sourceCommon,
  components: z.discriminatedUnion('kind', [stableComponents, cryptoComponents]),
});

export const sourcesFileSchema = z
  .strictObject({
    sources: z.array(yieldSourceRecord).min(1),
    baseRates: z.array(baseRateRecord).length(2),
  })
  .superRefine((file, ctx) => {
    flagRepeats(
      ctx,
      file.sources,
      (s) => s.id,
      (i) => ['sources', i, 'id'],
      (id) => `duplicate id ${id}`,
    );
    const keys = file.baseRates.map((b) => b.key).sort();
    if (keys.join() !== [...BASE_KEYS].sort().join()) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseRates'],
        message: `expected one ${BASE_KEYS.join(' and one ')} row`,
      });
    }
    // A series named in several places (Lido's stETH is a source and a base-rate asset) must name
    // the same pool everywhere, or the importer would not know which one to follow.
    const poolBySeries = new Map<string, string>();
    const contractBySeries = new Map<string, string>();
    for (const { series, feeds, path } of seriesFeeds(file)) {
      const llama = defillamaFeedOf(feeds);
      const pool = llama && (llama.pool ?? `select ${JSON.stringify(llama.select)}`);
      if (pool !== undefined) {
        const seen = poolBySeries.get(series);
        if (seen !== undefined && seen !== pool)
          ctx.addIssue({
            code: 'custom',
            path: [...path, 'feeds', feeds!.findIndex((f) => f.provider === 'defillama'), 'pool'],
            message: `series ${series} is fed from pool ${seen} elsewhere in this file`,
          });
        poolBySeries.set(series, pool);
      }
      const chainFeed = onchainFeedOf(feeds);
      if (chainFeed) {
        const key = `${chainFeed.chain}:${chainFeed.address.toLowerCase()}:${chainFeed.kind}:${chainFeed.call ?? ''}:${chainFeed.asset?.toLowerCase() ?? ''}`;
        const seen = contractBySeries.get(series);
        if (seen !== undefined && seen !== key)
          ctx.addIssue({
            code: 'custom',
            path: [...path, 'feeds', feeds!.findIndex((f) => f.provider === 'onchain'), 'address'],
            message: `series ${series} is read from another contract elsewhere in this file`,
          });
        contractBySeries.set(series, key);
      }
    }
    file.baseRates.forEach((b, i) => {
      const expected = b.key === 'base-stablecoin' ? 'stablecoin' : 'defi';
      if (b.type !== expected)
        ctx.addIssue({
          code: 'custom',
          path: ['baseRates', i, 'type'],
          message: `${b.key} must have type ${expected}`,
        });
    });
  });
export type SourcesFile = z.infer<typeof sourcesFileSchema>;
export type YieldSourceRecord = z.infer<typeof yieldSourceRecord>;
export type BaseRateRecord = z.infer<typeof baseRateRecord>;

/** Every place in sources.json that names a history series, with its feeds and JSON path. */
export function seriesFeeds(file: {
  sources: readonly YieldSourceRecord[];
  baseRates: readonly BaseRateRecord[];
}): { series: string; feeds: FeedRecord[] | undefined; path: (string | number)[] }[] {
  const out = file.sources.map((s, i) => ({
    series: s.series,
    feeds: s.feeds,
    path: ['sources', i] as (string | number)[],
  }));
  file.baseRates.forEach((b, i) => {
    const c = b.components;
    if (c.kind === 'stablecoin') {
      c.coins.forEach((coin, j) =>
        coin.venues.forEach((v, k) =>
          out.push({
            series: v.series,
            feeds: v.feeds,
            path: ['baseRates', i, 'components', 'coins', j, 'venues', k],
          }),
        ),
      );
    } else {
      c.assets.forEach((a, j) => {
        if ('series' in a)
          out.push({
            series: a.series,
            feeds: a.feeds,
            path: ['baseRates', i, 'components', 'assets', j],
          });
      });
    }
  });
  return out;
}

/**
 * A file of dated row lists (history.json `series`, prices.json `coins`): every provenance entry
 * names a list, and each list's dates are unique and ascending.
 */
function checkDatedLists(
  ctx: z.RefinementCtx,
  field: 'series' | 'coins',
  lists: Record<string, readonly { date: string }[]>,
  provenance: Record<string, unknown> | undefined,
): void {
  for (const key of Object.keys(provenance ?? {}))
    if (!(key in lists))
      ctx.addIssue({
        code: 'custom',
        path: ['provenance', key],
        message: `provenance of ${key}, which is not in ${field}`,
      });
  for (const [key, rows] of Object.entries(lists))
    for (let i = 1; i < rows.length; i++)
      if (rows[i]!.date <= rows[i - 1]!.date) {
        ctx.addIssue({
          code: 'custom',
          path: [field, key, i, 'date'],
          message: `dates must be unique and ascending (${rows[i]!.date} after ${rows[i - 1]!.date})`,
        });
        break;
      }
}

// ---------------------------------------------------------------- history.json
const dailyRow = z.strictObject({
  date: isoDate,
  apy: z.number().finite().gt(-100).lt(10_000),
  apyReward: z.number().finite().min(0).optional(),
  tvlUsd: z.number().finite().min(0),
  pricePerShare: z.number().finite().positive().optional(),
  /** Addresses holding a position that day. Only sample data has it: DeFiLlama gives no count. */
  holders: z.number().int().min(0).optional(),
});

/**
 * Where a series' rows come from, written by the importer for each series it imported. A series
 * without an entry is what the file's `sample` flag says: generated sample data when true, data an
 * operator typed when false.
 */
const defillamaProvenance = z.strictObject({
  kind: z.literal('defillama'),
  pool: defillamaPoolId,
  /** Newest day taken from the pool. */
  asOf: isoDate,
  importedAt: isoDateTime,
  /** The feed's selector resolved to `pool` in the import of this day (feeds with a selector). */
  resolvedOn: isoDate.optional(),
});
/** Rows computed from daily share prices (or rates) read on chain. */
const onchainProvenance = z.strictObject({
  kind: z.literal('onchain'),
  chain: chainSlugSchema,
  address: evmAddressSchema,
  /** Newest day read from the chain. */
  asOf: isoDate,
  importedAt: isoDateTime,
});
/** Entries written before on-chain feeds have no `kind`: they are DeFiLlama's. */
const provenanceEntry = z.preprocess(
  (entry) =>
    entry !== null && typeof entry === 'object' && !('kind' in entry)
      ? { kind: 'defillama', ...entry }
      : entry,
  z.discriminatedUnion('kind', [defillamaProvenance, onchainProvenance]),
);
export type ProvenanceEntry = z.output<typeof provenanceEntry>;

export const historyFileSchema = z
  .strictObject({
    /** True: the series without a `provenance` entry are generated sample data. */
    sample: z.boolean(),
    asOf: isoDate,
    note: z.string().optional(),
    generator: z.strictObject({ script: z.string(), seed: z.number().int() }).optional(),
    provenance: z.record(z.string().min(1), provenanceEntry).optional(),
    series: z.record(z.string().min(1), z.array(dailyRow)),
    /**
     * DeFiLlama's rows of the series whose on-chain feed leads (`series` holds the chain's rows):
     * kept beside them for the feeds-disagree comparison; an operator may edit them like `series`.
     */
    secondary: z
      .record(
        z.string().min(1),
        z.strictObject({
          kind: z.literal('defillama'),
          pool: defillamaPoolId,
          rows: z.array(dailyRow),
        }),
      )
      .optional(),
  })
  .superRefine((file, ctx) => {
    checkDatedLists(ctx, 'series', file.series, file.provenance);
    for (const [key, entry] of Object.entries(file.secondary ?? {}))
      for (let i = 1; i < entry.rows.length; i++)
        if (entry.rows[i]!.date <= entry.rows[i - 1]!.date) {
          ctx.addIssue({
            code: 'custom',
            path: ['secondary', key, 'rows', i, 'date'],
            message: `dates must be unique and ascending (${entry.rows[i]!.date} after ${entry.rows[i - 1]!.date})`,
          });
          break;
        }
    for (const [key, rows] of Object.entries(file.series)) {
      const last = rows[rows.length - 1];
      if (last && last.date > file.asOf) {
        ctx.addIssue({
          code: 'custom',
          path: ['series', key, rows.length - 1, 'date'],
          message: `row dated ${last.date} is after asOf ${file.asOf}`,
        });
      }
    }
  });
export type HistoryFile = z.infer<typeof historyFileSchema>;

// ---------------------------------------------------------------- prices.json
/**
 * Daily USD prices of the tokens named as `priceToken` in sources.json (plus ETH, the reference of
 * the ETH tokens), keyed by coin (`chain:address`, or `coingecko:ethereum`): imported from
 * DeFiLlama's coins API by data:import. Shipped as labelled sample data.
 */
const pricePoint = z.strictObject({ date: isoDate, price: z.number().finite().positive() });
export type PricePoint = z.infer<typeof pricePoint>;
const coinKey = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}:[A-Za-z0-9_.-]{1,100}$/, 'expected chain:address');

export const pricesFileSchema = z
  .strictObject({
    /** True: the coins without a `provenance` entry are generated sample data. */
    sample: z.boolean(),
    note: z.string().optional(),
    generator: z.strictObject({ script: z.string(), seed: z.number().int() }).optional(),
    provenance: z
      .record(
        coinKey,
        z.strictObject({ kind: z.literal('defillama'), asOf: isoDate, importedAt: isoDateTime }),
      )
      .optional(),
    coins: z.record(coinKey, z.array(pricePoint)),
  })
  .superRefine((file, ctx) => checkDatedLists(ctx, 'coins', file.coins, file.provenance));
export type PricesFile = z.infer<typeof pricesFileSchema>;

// ---------------------------------------------------------------- strategy-content.json
/**
 * One strategy page as written by operators: GET /api/strategy-content/:slug serves it with each
 * rating's provider URL and the liquidity series added.
 */
const strategyContentRecord = strategyContentSchema
  .omit({ thirdPartyRatings: true, liquidity: true })
  .extend({
    thirdPartyRatings: z.array(thirdPartyRatingSchema.omit({ providerUrl: true })),
  });

export const strategyContentFileSchema = z
  .strictObject({
    providers: z.array(z.strictObject({ name: nonEmpty, url })).min(1),
    strategies: z.array(strategyContentRecord),
  })
  .superRefine((file, ctx) => {
    const providers = new Set(file.providers.map((p) => p.name));
    file.strategies.forEach((s, i) => {
      const investProblem = depositLinkProblem(s.investUrl);
      if (investProblem)
        ctx.addIssue({
          code: 'custom',
          path: ['strategies', i, 'investUrl'],
          message: investProblem,
        });
      s.thirdPartyRatings.forEach((r, j) => {
        if (!providers.has(r.provider))
          ctx.addIssue({
            code: 'custom',
            path: ['strategies', i, 'thirdPartyRatings', j, 'provider'],
            message: `unknown provider "${r.provider}" (not in providers)`,
          });
      });
      const total = s.holdings.reduce((sum, h) => sum + h.percentage, 0);
      if (Math.abs(total - 100) > 0.05)
        ctx.addIssue({
          code: 'custom',
          path: ['strategies', i, 'holdings'],
          message: `percentages sum to ${total}, not 100`,
        });
    });
    const slugs = file.strategies.map((s) => s.slug);
    if (new Set(slugs).size !== slugs.length)
      ctx.addIssue({ code: 'custom', path: ['strategies'], message: 'duplicate slug' });
  });
export type StrategyContentFile = z.infer<typeof strategyContentFileSchema>;

// ---------------------------------------------------------------- liquidity.json
export const liquidityFileSchema = z.strictObject({
  sample: z.boolean(),
  note: z.string().optional(),
  // partialRecord: zod 4's record over an enum would demand every slug.
  series: z.partialRecord(slug, z.array(liquidityPointSchema)),
});
export type LiquidityFile = z.infer<typeof liquidityFileSchema>;
