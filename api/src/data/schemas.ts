/**
 * One zod schema per lowdb file under the data directory. These files are the operators' editing
 * surface, so every constraint here is a message an operator may read in GET /api/health.
 */
import { z } from 'zod';
import {
  ALERT_KINDS,
  amountUnitSchema,
  BASE_KEYS,
  baseKeySchema,
  defillamaPoolIdSchema as defillamaPoolId,
  depositsPausedSchema,
  exitSchema,
  importRunSchema,
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
import { depositLinkProblem, reportLinkProblem } from './links.ts';

/** Flags every item whose key an earlier item of the same list already had. */
function flagRepeats<T>(
  ctx: z.RefinementCtx,
  items: readonly T[],
  key: (item: T) => string | number,
  at: (index: number) => PropertyKey[],
  message: (key: string | number) => string,
): void {
  const seen = new Set<string | number>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: at(i), message: message(k) });
    seen.add(k);
  });
}

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
 */
const defillamaFeed = z.strictObject({ provider: z.literal('defillama'), pool: defillamaPoolId });
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

/** The coins to import: every source's priced token, plus ETH when a source is pegged to ETH. */
export function priceCoins(file: { sources: readonly YieldSourceRecord[] }): string[] {
  const coins = new Set<string>();
  for (const s of file.sources) {
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
      const pool = defillamaFeedOf(feeds)?.pool;
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
        const key = `${chainFeed.chain}:${chainFeed.address.toLowerCase()}:${chainFeed.kind}:${chainFeed.call ?? ''}`;
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
const provenanceEntry = z.discriminatedUnion('kind', [defillamaProvenance, onchainProvenance]);
export type ProvenanceEntry = z.infer<typeof provenanceEntry>;

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

// ---------------------------------------------------------------- invites.json (runtime-written)
export const invitesFileSchema = z.strictObject({
  invites: z.array(
    z.strictObject({
      id: nonEmpty,
      /** scrypt parameters are fixed in modules/premium/invite-codes.ts; salt and hash are base64. */
      salt: nonEmpty,
      hash: nonEmpty,
      createdAt: isoDateTime,
      expiresAt: isoDateTime.nullable(),
      maxUses: z.number().int().positive().nullable(),
      uses: z.number().int().min(0),
      note: z.string().optional(),
      disabled: z.boolean().optional(),
    }),
  ),
});
export type InvitesFile = z.infer<typeof invitesFileSchema>;
export type InviteRecord = InvitesFile['invites'][number];

// ---------------------------------------------------------------- users.json (runtime-written)
export const usersFileSchema = z.strictObject({
  users: z.array(
    z.strictObject({
      userId: nonEmpty,
      inviteId: nonEmpty,
      email: z.string().email().nullable(),
      createdAt: isoDateTime,
      lastLoginAt: isoDateTime,
    }),
  ),
});
export type UsersFile = z.infer<typeof usersFileSchema>;
export type UserRecord = UsersFile['users'][number];

// ---------------------------------------------------------------- import-status.json (runtime-written)
export type FeedOutcome = z.infer<typeof importRunSchema>['feeds'][number];
export type PoolsOutcome = NonNullable<z.infer<typeof importRunSchema>['pools']>;
export type PriceOutcome = NonNullable<z.infer<typeof importRunSchema>['prices']>[number];

/** The outcome of the last `data:import` (CLI or schedule), read by GET /api/health. */
export const importStatusFileSchema = z.strictObject({ lastRun: importRunSchema.nullable() });
export type ImportStatusFile = z.infer<typeof importStatusFileSchema>;

// ---------------------------------------------------------------- mailing-list.json (runtime-written)
export const mailingListFileSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      email: z.string().email(),
      createdAt: isoDateTime,
      source: nonEmpty,
      /** The id its e-mailed confirm and unsubscribe links name (entries of older files have none). */
      id: nonEmpty.optional(),
      /**
       * When the address confirmed its sign-up (double opt-in); null: not yet, the entry does not
       * count and is purged 7 days after its last confirmation e-mail. An entry without this field
       * (written before confirmations existed) counts as confirmed.
       */
      confirmedAt: isoDateTime.nullable().optional(),
      /** When its last confirmation e-mail was sent. */
      mailedAt: isoDateTime.optional(),
    }),
  ),
});
export type MailingListFile = z.infer<typeof mailingListFileSchema>;

// ---------------------------------------------------------------- alerts.json (runtime-written)
/**
 * Alert subscriptions (POST /api/alerts) and the ledger of alerts recorded or sent, one entry per
 * (subscription, crossing) (api/src/modules/alerts/evaluate.ts). Written by the user-data store.
 */
export const alertsFileSchema = z.strictObject({
  subscriptions: z.array(
    z.strictObject({
      id: nonEmpty,
      email: z.string().email(),
      sourceId: z.number().int().positive(),
      kind: z.enum(ALERT_KINDS),
      createdAt: isoDateTime,
      confirmedAt: isoDateTime.nullable(),
      /** When its last confirmation e-mail was sent (an unconfirmed one is purged 7 days later). */
      mailedAt: isoDateTime.optional(),
    }),
  ),
  deliveries: z.array(
    z.strictObject({
      subscriptionId: nonEmpty,
      crossing: nonEmpty,
      recordedAt: isoDateTime,
      sentAt: isoDateTime.nullable(),
    }),
  ),
  /**
   * The confirmation e-mails of the last 24 hours (alerts and the mailing list), by lower-cased
   * address and scope (`alert:<sourceId>:<kind>` or `mailing-list`): what the caps count.
   */
  confirmations: z
    .array(z.strictObject({ email: nonEmpty, scope: nonEmpty, sentAt: isoDateTime }))
    .optional(),
});
export type AlertsFile = z.infer<typeof alertsFileSchema>;

// ---------------------------------------------------------------- pools.json (data:import)
/**
 * One pool of DeFiLlama's `GET https://yields.llama.fi/pools`, in its published shape (the
 * columns of yield-server's enrichment job). Columns DeFiLlama adds later pass through. Fields the
 * job can leave out (a value it could not compute is dropped from the JSON) are optional.
 */
const nullableNumber = z.number().nullish();
export const poolSchema = z.looseObject({
  /** DeFiLlama's pool id (its configID, a UUID), also the key of GET /chart/{pool}. */
  pool: z.guid('expected a DeFiLlama pool id (UUID)'),
  chain: z.string().min(1).max(64),
  project: z.string().min(1).max(100),
  symbol: z.string().min(1).max(200),
  tvlUsd: z.number().min(0),
  apy: z.number(),
  apyBase: nullableNumber,
  apyReward: nullableNumber,
  rewardTokens: z.array(z.string()).nullish(),
  apyPct1D: nullableNumber,
  apyPct7D: nullableNumber,
  apyPct30D: nullableNumber,
  stablecoin: z.boolean(),
  ilRisk: z.enum(['yes', 'no']),
  exposure: z.enum(['single', 'multi']),
  predictions: z
    .looseObject({
      predictedClass: z.string().nullish(),
      predictedProbability: nullableNumber,
      binnedConfidence: nullableNumber,
    })
    .nullish(),
  poolMeta: z.string().nullish(),
  /** Compound mean APY over the pool's tracked history, in %. */
  mu: z.number(),
  /** Annualised standard deviation of daily returns over the pool's tracked history, in %. */
  sigma: z.number().min(0),
  /** Daily observations behind mu and sigma. */
  count: z.number().int().min(0),
  /** mu or sigma outside median ± 1.5·IQR of all pools. */
  outlier: z.boolean(),
  underlyingTokens: z.array(z.string()).nullish(),
  il7d: nullableNumber,
  apyBase7d: nullableNumber,
  apyMean30d: nullableNumber,
  volumeUsd1d: nullableNumber,
  volumeUsd7d: nullableNumber,
  apyBaseInception: nullableNumber,
});
export type Pool = z.infer<typeof poolSchema>;

/**
 * DeFiLlama's response `{status, data}` as fetched, plus when it was fetched (`asOf`, null only
 * while no snapshot was ever imported) and whether it is sample data.
 */
export const poolsFileSchema = z
  .looseObject({
    status: z.literal('success'),
    asOf: isoDateTime.nullable(),
    sample: z.boolean(),
    source: z.string().optional(),
    note: z.string().optional(),
    data: z.array(poolSchema),
  })
  .superRefine((file, ctx) =>
    flagRepeats(
      ctx,
      file.data,
      (p) => p.pool,
      (i) => ['data', i, 'pool'],
      (pool) => `duplicate pool id ${pool}`,
    ),
  );
export type PoolsFile = z.infer<typeof poolsFileSchema>;

// ---------------------------------------------------------------- project-tiers.json (operators)
const projectSlug = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected a DeFiLlama project slug (lower case, e.g. aave-v3)');

/**
 * Safety tiers of DeFiLlama projects for the scanner (method rapool-v1). An entry either follows
 * a scored source of sources.json (its dated safety score) or carries its own dated score.
 */
export const projectTiersFileSchema = z
  .strictObject({
    /** Day the list as a whole was last reviewed. */
    reviewed: isoDate,
    note: z.string().optional(),
    projects: z.array(
      z.union([
        z.strictObject({
          project: projectSlug,
          /** id of a source in sources.json whose safety score this project takes. */
          source: z.number().int().positive(),
          note: z.string().optional(),
        }),
        z.strictObject({
          project: projectSlug,
          safety: score,
          /** Day this score was set. */
          date: isoDate,
          rationale: nonEmpty,
          links: z.array(url).optional(),
        }),
      ]),
    ),
  })
  .superRefine((file, ctx) =>
    flagRepeats(
      ctx,
      file.projects,
      (p) => p.project,
      (i) => ['projects', i, 'project'],
      (project) => `project ${project} is listed twice`,
    ),
  );
export type ProjectTiersFile = z.infer<typeof projectTiersFileSchema>;
