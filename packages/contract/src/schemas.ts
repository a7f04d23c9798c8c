/**
 * zod schemas of every request and response of /api. The API validates what it reads with them,
 * the front ends take their types from them (`z.infer`, see ./types.ts), and /api/openapi.json is
 * generated from them (api/src/modules/docs/openapi.ts). Response objects are strict: a field the API sends
 * that is not declared here fails the contract test (api/test/contract.test.ts).
 *
 * `.meta({ id })` names a schema as an OpenAPI component; `description` is shown in /api/docs.
 */
import { z } from 'zod';
import {
  ALERT_KINDS,
  ACCESS_LEVEL,
  AMOUNT_UNITS,
  AMIHUD_MAX,
  AMIHUD_MIN,
  BASE_KEYS,
  EARNINGS_MAX_AMOUNT,
  EXIT_KINDS,
  INVITE_CODE_MAX_LENGTH,
  LIQUIDITY_PCT_MAX,
  LIQUIDITY_PCT_MIN,
  METRIC_STATUSES,
  POOL_METHOD_VERSION,
  PROVENANCE_KINDS,
  RATING_VALUES,
  REAL_OR_INCENTIVE,
  SCANNER_DEFAULT_LIMIT,
  SCANNER_MAX_LIMIT,
  SCANNER_MAX_OFFSET,
  SCANNER_SORT_KEYS,
  SOURCE_TYPES,
  STRATEGY_SLUGS,
  TIME_RANGES,
  WARNING_KINDS,
} from './constants.ts';

// ---------------------------------------------------------------- building blocks

export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .meta({ format: 'date' });
export const isoDateTimeSchema = z.iso.datetime({
  offset: true,
  error: 'expected an ISO 8601 timestamp',
});
/** Links end up in href attributes on the site: only http(s), never javascript: or data:. */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
/** An http(s) URL, or a path on the site itself (`/api/docs`). */
export const linkSchema = z.union([
  httpUrlSchema,
  z.string().regex(/^\/(?!\/)\S*$/, 'expected an http(s) URL or a path starting with /'),
]);
export const nonEmptySchema = z.string().trim().min(1);
// zod-to-openapi 9.1 documents only the first value of a multi-value literal: state them all.
export const scoreSchema = z.literal([1, 2, 3, 4, 5]).meta({ enum: [1, 2, 3, 4, 5] });
export const emailSchema = z.string().trim().max(254).email();

export const strategySlugSchema = z
  .enum(STRATEGY_SLUGS)
  .meta({ description: 'One of the four strategies with a public detail page.' });
export const baseKeySchema = z.enum(BASE_KEYS).meta({ description: 'A DeFi Base Rate row.' });
export const sourceTypeSchema = z
  .enum(SOURCE_TYPES)
  .meta({ description: 'stablecoin, or defi (crypto such as ETH staking).' });
export const timeRangeSchema = z.enum(TIME_RANGES);
export const amountUnitSchema = z.enum(AMOUNT_UNITS).meta({
  description: 'USD for stablecoin (dollar) sources, ETH for ETH sources.',
});
export const metricStatusSchema = z.enum(METRIC_STATUSES).meta({
  description:
    'ok; insufficient_data: fewer than 20 days in the 30-day window (figures are then 0, shown as N/A); stale: the imported series behind it is more than 48 h old (never GREAT).',
});
export const ratingSchema = z.enum(RATING_VALUES);
/** A series id as sent: a numeric source id or a base-rate key. */
export const seriesIdSchema = z.union([z.number().int().positive(), baseKeySchema]);
const methodSchema = z.string().meta({ description: 'Metric method, ra30-v1.' });
const percentPerYear = (description: string) => z.number().meta({ description });

// ---------------------------------------------------------------- errors

export const apiErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string().meta({ description: 'Machine-readable, e.g. invalid_id.' }),
      message: z.string().meta({ description: 'Human-readable; never a stack trace.' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every failed call answers this.' });

/** The premium calls add `success: false` to their errors (the premium client reads it). */
export const premiumErrorSchema = z
  .strictObject({ success: z.literal(false), error: apiErrorSchema.shape.error })
  .meta({ id: 'PremiumError' });

// ---------------------------------------------------------------- GET /api/health
/** DeFiLlama's id of a yields pool (its configID): the UUID of https://defillama.com/yields/pool/<id>. */
export const defillamaPoolIdSchema = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'expected a DeFiLlama pool id in lower case, e.g. 747c1d2a-c668-4682-b9f9-296708a3dd90',
  );

/**
 * A DeFiLlama pool named by what it is rather than by its id (sources.json `feeds[].select`): it
 * is looked up in each import's /pools download, and exactly one pool must match.
 */
export const poolSelectorSchema = z
  .strictObject({
    project: nonEmptySchema.meta({
      description: "DeFiLlama's project slug (e.g. aave-v3); compared without regard to case.",
    }),
    chain: nonEmptySchema.meta({
      description: 'Chain as DeFiLlama names it (e.g. Ethereum); compared without regard to case.',
    }),
    symbol: nonEmptySchema.meta({
      description:
        'The pool symbol: equal as written, or equal once both are upper-cased, Unicode-normalised (NFKC) and stripped of spaces.',
    }),
    poolMeta: z.string().min(1).nullable().optional().meta({
      description:
        "The pool's poolMeta, exactly as written; null: the pool must have none; absent: any.",
    }),
    underlyingToken: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a token address (0x and 40 hex digits)')
      .optional()
      .meta({
        description:
          "An address that must be among the pool's underlyingTokens (compared without regard to case).",
      }),
  })
  .meta({ id: 'PoolSelector' });

/** A day of a feed left out of its series (the rest of the feed was imported). */
export const leftOutDaySchema = z
  .strictObject({
    date: isoDateSchema
      .nullable()
      .meta({ description: 'The day (null for a point whose timestamp cannot be read).' }),
    value: z
      .number()
      .nullable()
      .meta({ description: 'The offending value (APY in %, TVL in USD).' }),
    reason: nonEmptySchema,
  })
  .meta({ id: 'LeftOutDay' });

/** A pool of the /pools answer left out of the scanner's snapshot. */
export const leftOutPoolSchema = z
  .strictObject({
    pool: z
      .string()
      .nullable()
      .meta({ description: "The pool's id as sent (null when it sent none)." }),
    field: z.string().meta({ description: 'The field that could not be used.' }),
    reason: nonEmptySchema,
  })
  .meta({ id: 'LeftOutPool' });

/** One feed's outcome in an import run. */
export const feedOutcomeSchema = z
  .strictObject({
    series: nonEmptySchema.meta({ description: 'The history series the pool feeds.' }),
    pool: defillamaPoolIdSchema.nullable().meta({
      description:
        'The pool read: its id in sources.json, or the one its selector resolved to; null when the selector resolved to none or several.',
    }),
    select: poolSelectorSchema.optional().meta({ description: 'The selector, when it has one.' }),
    candidates: z.array(defillamaPoolIdSchema).optional().meta({
      description:
        'The pools the selector matched when it matched several (the feed was not read).',
    }),
    leftOut: z.array(leftOutDaySchema).optional().meta({
      description:
        'Days left out of the series because the method cannot use them (an implausible APY, a negative TVL, a malformed row).',
    }),
    ok: z.boolean(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the feed was not imported (its last good data was kept).' }),
    days: z.number().int().min(0).meta({ description: 'Days taken from the response.' }),
    added: z.number().int().min(0),
    updated: z.number().int().min(0),
    newestDay: isoDateSchema.nullable(),
  })
  .meta({ id: 'FeedOutcome' });

/** The /pools snapshot's outcome in an import run (the scanner's input, api/data/pools.json). */
export const poolsImportSchema = z
  .strictObject({
    ok: z.boolean(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the snapshot was not imported (the last good one was kept).' }),
    received: z.number().int().min(0).meta({ description: 'Pools in the response.' }),
    accepted: z.number().int().min(0).meta({ description: 'Valid pools written.' }),
    dropped: z.number().int().min(0).meta({ description: 'Malformed pools left out.' }),
    leftOut: z.array(leftOutPoolSchema).optional().meta({
      description: 'Each pool left out, named: its id, the field and why (at most 100 listed).',
    }),
    asOf: isoDateTimeSchema
      .nullable()
      .meta({ description: 'The snapshot written (when it was fetched), else null.' }),
  })
  .meta({ id: 'PoolsImport' });

/** One token's daily prices in an import run (DeFiLlama's coins API, api/data/prices.json). */
export const priceOutcomeSchema = z
  .strictObject({
    coin: nonEmptySchema.meta({ description: 'The token as chain:address (or coingecko:id).' }),
    ok: z.boolean(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the prices were not imported (the last good ones were kept).' }),
    days: z.number().int().min(0).meta({ description: 'Days taken from the response.' }),
    lowConfidence: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Points left out because their confidence was below 0.9.' }),
    added: z.number().int().min(0),
    updated: z.number().int().min(0),
    newestDay: isoDateSchema.nullable(),
  })
  .meta({ id: 'PriceOutcome' });

/** The last data import (command line or schedule), as kept in import-status.json. */
export const importRunSchema = z
  .strictObject({
    startedAt: isoDateTimeSchema,
    finishedAt: isoDateTimeSchema,
    from: nonEmptySchema.meta({
      description: 'https://yields.llama.fi, or files:<dir> for an offline import.',
    }),
    ok: z.boolean().meta({
      description: 'Every feed, every priced token and the /pools snapshot imported.',
    }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'A problem that stopped the whole run, else null.' }),
    feeds: z.array(feedOutcomeSchema),
    pools: poolsImportSchema.optional().meta({
      description: 'The /pools snapshot (absent in runs recorded before the scanner was imported).',
    }),
    prices: z.array(priceOutcomeSchema).optional().meta({
      description: 'Each priced token (absent in runs recorded before prices were imported).',
    }),
  })
  .meta({ id: 'ImportRun' });

export const importScheduleSchema = z
  .strictObject({
    intervalMs: z.number().int().positive(),
    running: z.boolean(),
    consecutiveFailures: z.number().int().min(0),
    nextRunAt: isoDateTimeSchema.nullable(),
    lastRunAt: isoDateTimeSchema.nullable(),
  })
  .meta({ description: 'The DATA_IMPORT_INTERVAL schedule of this process.' });

export const fileStatusSchema = z.strictObject({
  loaded: z.boolean().meta({ description: 'Whether a valid version of the file is in use.' }),
  loadedAt: isoDateTimeSchema.nullable(),
  error: z.string().nullable().meta({
    description:
      'Why the last edit was refused (file, JSON path, reason) or, until a later write succeeds, why the last write failed (file, "not writable", reason); else null. Never a fragment of the file or a server path.',
  }),
});

export const healthReportSchema = z
  .strictObject({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    files: z.record(z.string(), fileStatusSchema).meta({ description: 'Keyed by file name.' }),
    method: methodSchema,
    dataBuiltAt: isoDateTimeSchema.meta({
      description: 'When the served figures were last computed.',
    }),
    import: z.strictObject({
      lastRun: importRunSchema.nullable(),
      schedule: importScheduleSchema.nullable().meta({ description: 'null when it is off.' }),
    }),
    stale: z.array(z.strictObject({ series: z.string(), asOf: isoDateSchema.nullable() })).meta({
      description:
        'Imported series (and token prices, named price:<coin>) whose newest day is more than 48 h old.',
    }),
    userData: z
      .strictObject({
        store: z.enum(['files', 'postgres']).meta({
          description:
            'Where sign-ups, invite uses, logins and alerts are written: the JSON files of the data directory, or PostgreSQL (DATABASE_URL).',
        }),
        available: z.boolean().meta({
          description:
            'Whether writes can be served now: false from a failed write (a full disk) until a later one succeeds; writes that fail answer 503.',
        }),
        error: z.string().nullable().meta({
          description:
            'Why not (with the files: which file and why, e.g. "user-data.log: not writable: no space left on the disk"); never a path or a secret; else null.',
        }),
      })
      .meta({ description: 'The store of the user data.' }),
  })
  .meta({ id: 'HealthReport' });

// ---------------------------------------------------------------- GET /api/settings

const percentThreshold = z.number().positive().max(100);
export const warningThresholdsSchema = z
  .strictObject({
    verified: isoDateSchema.meta({
      description: 'Day the operators last reviewed the thresholds.',
    }),
    outflow7d: percentThreshold.meta({
      description: 'outflow: TVL down by at least this % over 7 days.',
    }),
    outflow30d: percentThreshold.meta({
      description: 'outflow: or by at least this % over 30 days.',
    }),
    depegStable: percentThreshold.meta({
      description: "depeg: a dollar token's daily price more than this % from $1.",
    }),
    depegLst: percentThreshold.meta({
      description: 'depeg: an ETH token more than this % below the price of ETH.',
    }),
    spikeSigma: z.number().positive().max(100).meta({
      description:
        "spike: the newest day's APR more than this many standard deviations above its 30-day mean.",
    }),
    closeAfterDays: z.number().int().min(1).max(365).meta({
      description: 'A warning closes after this many consecutive days back within its threshold.',
    }),
  })
  .meta({
    id: 'WarningThresholds',
    description: 'Thresholds of the warnings detected from data (docs/methodology.md).',
  });

export const siteSettingsSchema = z
  .strictObject({
    siteTitle: nonEmptySchema,
    siteUrl: httpUrlSchema,
    siteSlogan: nonEmptySchema,
    siteHeader: nonEmptySchema,
    siteDescription: nonEmptySchema,
    siteContactEmail: z.email(),
    socials: z.strictObject({ x: httpUrlSchema, telegram: httpUrlSchema }),
    externalUrls: z.strictObject({
      premiumPurchaseForm: httpUrlSchema,
      premiumRequestForm: httpUrlSchema,
      businessSignupForm: httpUrlSchema,
      apiDocs: linkSchema.meta({
        description: 'The "View API Documentation" link; by default /api/docs.',
      }),
    }),
    warnings: warningThresholdsSchema.optional().meta({
      description: 'Thresholds of the detected warnings (this API always sends them).',
    }),
    data: z.strictObject({ sample: z.boolean(), asOf: isoDateSchema, stale: z.boolean() }).meta({
      description:
        'sample: a series shown on the site is still sample data; asOf: the newest day of the data; stale: an imported series stopped arriving.',
    }),
  })
  .meta({ id: 'SiteSettings', description: 'Site texts and external URLs (operator data).' });

// ---------------------------------------------------------------- GET /api/sources

export const incidentSchema = z
  .strictObject({
    date: isoDateSchema,
    kind: nonEmptySchema,
    summary: nonEmptySchema,
    link: httpUrlSchema.meta({
      description: "A report of the incident: the project's post-mortem or a reputable write-up.",
    }),
    linkVerified: isoDateSchema.meta({
      description: 'Day an operator last opened the link and found a report of this incident.',
    }),
    active: z.boolean().meta({ description: 'An active incident: never marked GREAT.' }),
  })
  .meta({ id: 'Incident' });

export const exitSchema = z
  .strictObject({
    kind: z.enum(EXIT_KINDS).meta({
      description:
        'instant: withdraw at any time; cooldown: a fixed wait after asking; queue: a first-come queue of variable length; lock: not before a date.',
    }),
    days: z.number().min(0).max(3650).meta({
      description:
        'Longest usual wait in days (0 for instant; for a lock, days left on `verified`).',
    }),
    note: nonEmptySchema.meta({ description: 'How the exit works, and any quicker way out.' }),
    link: httpUrlSchema.meta({ description: "The provider's (or a reviewer's) page saying so." }),
    verified: isoDateSchema.meta({ description: 'When the operators last checked it.' }),
  })
  .meta({ id: 'Exit', description: 'How long until a saver has the money back.' });

export const depositsPausedSchema = z
  .strictObject({
    since: isoDateSchema.meta({ description: 'First day deposits were closed.' }),
    note: nonEmptySchema.meta({ description: 'Why, and what reopens them.' }),
    link: httpUrlSchema.meta({ description: "The provider's (or a reviewer's) page saying so." }),
    verified: isoDateSchema.meta({ description: 'When the operators last checked it.' }),
  })
  .meta({
    id: 'DepositsPaused',
    description: 'The provider has closed deposits: the site sends no saver to deposit.',
  });

const scoreRationaleSchema = z
  .strictObject({
    date: isoDateSchema.meta({ description: 'First day the scores apply to.' }),
    safety: z.string(),
    liquidity: z.string(),
    links: z.array(httpUrlSchema),
  })
  .meta({ description: 'Why the current safety and liquidity scores are what they are.' });

const seriesProvenanceFields = {
  kind: z.enum(PROVENANCE_KINDS).meta({
    description:
      'defillama: imported from a DeFiLlama pool; sample: generated sample data; operator: typed by an operator.',
  }),
  asOf: isoDateSchema.nullable().meta({ description: 'Newest day of the data.' }),
  stale: z.boolean().meta({ description: 'Imported, and the newest day is more than 48 h old.' }),
  pool: defillamaPoolIdSchema.optional().meta({ description: 'Kind defillama: the pool.' }),
  importedAt: isoDateTimeSchema.optional().meta({ description: 'Kind defillama: last import.' }),
};

export const provenanceSchema = z
  .strictObject({
    ...seriesProvenanceFields,
    series: z.string().optional().meta({ description: 'A source: its history series.' }),
    components: z
      .array(z.strictObject({ ...seriesProvenanceFields, series: z.string() }))
      .optional()
      .meta({ description: 'A base rate: the provenance of each component series.' }),
  })
  .meta({ id: 'Provenance', description: 'Where the figures of a row come from.' });

export const feedSchema = z
  .strictObject({
    provider: z.literal('defillama'),
    pool: defillamaPoolIdSchema.nullable().meta({
      description:
        'The pool: its id in sources.json, or the one its selector last resolved to; null while a selector has never resolved.',
    }),
    url: httpUrlSchema.nullable().meta({ description: "The pool's public page (null with pool)." }),
    series: z.string().meta({ description: 'The history series the pool feeds.' }),
    select: poolSelectorSchema.optional().meta({
      description: "How the pool is found in DeFiLlama's list (each import resolves it again).",
    }),
    resolvedOn: isoDateSchema.optional().meta({
      description: 'Day of the import that last resolved the selector to `pool`.',
    }),
  })
  .meta({ id: 'Feed' });

export const detectedWarningSchema = z
  .strictObject({
    kind: z.enum(WARNING_KINDS).meta({
      description:
        'outflow: TVL falling fast; depeg: the priced token off its peg; spike: the newest APR far above its 30-day mean.',
    }),
    openedOn: isoDateSchema.meta({ description: 'First day the rule held in the current run.' }),
    closedOn: isoDateSchema.nullable().meta({
      description:
        'Day it closed (the data back within the threshold for the days the settings say), null while open.',
    }),
    figures: z
      .record(z.string(), z.number())
      .meta({ description: 'The figures that raised it, on the day it opened.' }),
    text: nonEmptySchema.meta({ description: 'A plain sentence saying what was detected.' }),
    detected: z.literal(true).meta({
      description: 'Detected from data (not an incident written by an operator).',
    }),
    dismissed: z.strictObject({ on: isoDateSchema, note: nonEmptySchema }).optional().meta({
      description: 'An operator dismissed it, with a dated note (it no longer rules out GREAT).',
    }),
  })
  .meta({ id: 'DetectedWarning', description: 'A warning detected from the imported data.' });

const warningsField = z.array(detectedWarningSchema).meta({
  description:
    'Warnings detected from data, oldest first, open and closed; an empty list when there are none (always for a base-rate row).',
});

const sourceFields = {
  name: z.string(),
  token: z.string().meta({ description: 'The token deposited.' }),
  yieldToken: z.string().meta({ description: 'The token received.' }),
  type: sourceTypeSchema,
  unit: amountUnitSchema,
  rating: scoreSchema.meta({ description: 'Overall rating, 1-5 stars.' }),
  safety: scoreSchema,
  liquidity: scoreSchema,
  yield_type: z.string(),
  real_or_incentive: z.enum(REAL_OR_INCENTIVE),
  yield_category: z.string(),
  incidents: z.array(incidentSchema),
  description: z.string(),
  scoreRationale: scoreRationaleSchema,
  feeds: z.array(feedSchema).meta({ description: 'Where its daily history is imported from.' }),
  provenance: provenanceSchema,
  warnings: warningsField,
};

export const sourceRowSchema = z
  .strictObject({
    id: z.number().int().positive(),
    ...sourceFields,
    isBaseRate: z.literal(false),
    detailSlug: strategySlugSchema
      .nullable()
      .meta({ description: 'Its public page /options/:slug, or null (premium page only).' }),
    depositUrl: httpUrlSchema.nullable().meta({
      description:
        "The provider's own page of this very vault or pool; null while deposits are paused (see depositsPaused).",
    }),
    depositsPaused: depositsPausedSchema
      .optional()
      .meta({ description: 'Present only while the provider has closed deposits.' }),
    exit: exitSchema,
  })
  .meta({ id: 'SourceRow', description: 'A yield source.' });

export const baseRateRowSchema = z
  .strictObject({
    id: z.literal(0),
    ...sourceFields,
    isBaseRate: z.literal(true),
    detailSlug: z.null(),
    key: baseKeySchema,
    depositUrl: z.null(),
    exit: z.null().meta({ description: 'A benchmark is not deposited into.' }),
  })
  .meta({ id: 'BaseRateRow', description: 'A "DeFi Base Rate" benchmark row (id 0).' });

export const yieldSourceSchema = z
  .union([sourceRowSchema, baseRateRowSchema])
  .meta({ id: 'YieldSource' });
export const yieldSourceListSchema = z.array(yieldSourceSchema).meta({
  description: 'The sources in list order, then the two base-rate rows (stablecoin, then defi).',
});

// ---------------------------------------------------------------- GET /api/strategies

export const riskChargesSchema = z
  .strictObject({
    volatility: z.number(),
    incentives: z.number(),
    safety: z.number(),
    liquidity: z.number(),
    size: z.number(),
    outflow: z.number(),
  })
  .meta({
    id: 'RiskCharges',
    description: 'The six charges of ra30-v1, percentage points a year (their sum is the risk).',
  });

export const strategyMetricsSchema = z
  .strictObject({
    id: z.number().int().positive(),
    yield30d: percentPerYear('30-day APR, % a year.'),
    riskAdjustedYield30d: percentPerYear('30-day APR minus the risk charges, % a year.'),
    tvl: z.number().meta({ description: 'Newest day\u2019s total value locked, USD.' }),
    status: metricStatusSchema,
    method: methodSchema,
    risk: percentPerYear('Sum of the risk charges, percentage points a year.'),
    great: z.boolean().meta({
      description:
        "GREAT: reward above the base rate's reward/risk slope times its risk (never with an active incident or an open, undismissed outflow or depeg warning).",
    }),
    asOf: isoDateSchema.nullable().meta({ description: 'Newest day of the window.' }),
    charges: riskChargesSchema.optional().meta({
      description:
        'The six charges behind risk (this API always sends them): what a saver reweights in the browser.',
    }),
    provenance: provenanceSchema,
    warnings: warningsField,
  })
  .meta({ id: 'StrategyMetrics' });
export const strategyMetricsListSchema = z.array(strategyMetricsSchema);

// ---------------------------------------------------------------- GET /api/baserate

export const baseRatesSchema = z
  .strictObject({
    baserateDefi: percentPerYear('Crypto DeFi Base Rate, 30-day APR.'),
    baserateStable: percentPerYear('Stablecoin DeFi Base Rate, 30-day APR.'),
    baserateRiskAdjustedDefi: percentPerYear('Crypto DeFi Base Rate, risk-adjusted.'),
    baserateRiskAdjustedStable: percentPerYear('Stablecoin DeFi Base Rate, risk-adjusted.'),
    method: methodSchema,
    asOf: isoDateSchema.nullable(),
    status: z.strictObject({ stablecoin: metricStatusSchema, defi: metricStatusSchema }),
    provenance: z.strictObject({ stablecoin: provenanceSchema, defi: provenanceSchema }),
    charges: z
      .strictObject({ stablecoin: riskChargesSchema, defi: riskChargesSchema })
      .optional()
      .meta({
        description:
          "Each base rate's six charges (this API always sends them): what a saver reweights in the browser.",
      }),
  })
  .meta({ id: 'BaseRates' });

// ---------------------------------------------------------------- GET /api/history

export const historyPointSchema = z
  .strictObject({
    timestamp: z.number().int().meta({ description: 'UTC midnight of the day, in ms.' }),
    tvl: z.number().meta({ description: 'USD.' }),
    apr: percentPerYear("The day's APR (from its APY), % a year."),
  })
  .meta({ id: 'HistoryPoint' });

export const historyQuerySchema = z.object({
  id: z
    .string()
    .min(1)
    .regex(/^(?:[1-9]\d{0,5}|base-stablecoin|base-defi)$/)
    .meta({ description: 'A source id, base-stablecoin or base-defi.' }),
  range: timeRangeSchema.meta({ description: 'How many of the newest days.' }),
});

export const historyResponseSchema = z
  .strictObject({
    data: z.array(historyPointSchema),
    lastTvl: z.number(),
    lastHolders: z.number().int().nullable().meta({
      description:
        'Holders on the newest day, or null when the data has none (sample data only; imported feeds carry no count).',
    }),
    lastApr: percentPerYear('The current 30-day APR (yield30d).'),
    lastRaApr: percentPerYear('The current risk-adjusted 30-day APR.'),
    status: metricStatusSchema,
    method: methodSchema,
    asOf: isoDateSchema.nullable(),
    provenance: provenanceSchema,
  })
  .meta({ id: 'HistoryResponse' });

// ---------------------------------------------------------------- GET /api/earnings

export const earningsQuerySchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,5}$/)
    .meta({ description: 'A source id (not a base-rate key).' }),
  amount: z
    .string()
    .regex(/^\d{1,13}(?:\.\d{1,18})?$/)
    .meta({
      description: `The amount deposited, in the source's unit: a decimal number above 0 and at most ${EARNINGS_MAX_AMOUNT.toExponential()}.`,
    }),
  range: timeRangeSchema.meta({ description: 'Over how many of the newest days.' }),
});

const earnedSchema = z.strictObject({
  earned: z.number().meta({
    description: "amount × (∏(1 + APR_d / 100 / 365) − 1) over the days, in the source's unit.",
  }),
  days: z.number().int().min(0).meta({ description: 'Days compounded (fewer when younger).' }),
  from: isoDateSchema.nullable().meta({ description: 'First day compounded.' }),
  to: isoDateSchema.nullable().meta({ description: 'Last day compounded.' }),
});

export const earningsAnswerSchema = z
  .strictObject({
    id: z.number().int().positive(),
    amount: z.number().positive(),
    unit: amountUnitSchema,
    range: timeRangeSchema,
    ...earnedSchema.shape,
    base: z
      .strictObject({ key: baseKeySchema, ...earnedSchema.shape })
      .meta({ description: "The same amount at the source's DeFi Base Rate, same unit." }),
    difference: z.number().meta({ description: 'earned − base.earned.' }),
  })
  .meta({
    id: 'Earnings',
    description:
      'What the amount would have earned over the newest days of the range, compounded daily at each day\u2019s APR, and the same at the base rate.',
  });

// ---------------------------------------------------------------- GET /api/strategies/:id/breakdown

export const seriesIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^(?:[1-9]\d{0,5}|base-stablecoin|base-defi)$/)
    .meta({ description: 'A source id, base-stablecoin or base-defi.' }),
});

/** Empty when the series has no data at all. */
const dayOrEmpty = z.union([isoDateSchema, z.literal('')]);

export const riskBreakdownSchema = z
  .strictObject({
    id: seriesIdSchema,
    method: methodSchema,
    asOf: dayOrEmpty,
    status: metricStatusSchema,
    window: z.strictObject({ from: dayOrEmpty, to: dayOrEmpty, days: z.number().int() }),
    inputs: z.strictObject({
      safety: scoreSchema,
      liquidity: scoreSchema,
      sigma30: z.number().meta({ description: "Standard deviation of the window's daily APRs." }),
      reward30: z.number().meta({ description: 'Average incentive part of the APR, %.' }),
      tvl: z.number(),
      tvlMedian: z.number(),
      tvlDrawdown: z.number().meta({ description: 'Largest fall in TVL, 0-1.' }),
      clampedDays: z.number().int().meta({ description: 'Days clamped as spikes.' }),
    }),
    yield30d: z.number(),
    riskAdjustedYield30d: z.number(),
    risk: z.number(),
    charges: riskChargesSchema,
    great: z.boolean(),
    provenance: provenanceSchema,
  })
  .meta({ id: 'RiskBreakdown', description: 'Every charge of ra30-v1 with its inputs.' });

// ---------------------------------------------------------------- GET /api/strategy-content/:slug

export const strategyContentParamsSchema = z.object({ slug: strategySlugSchema });

export const holdingSchema = z
  .strictObject({
    name: nonEmptySchema,
    percentage: z.number().min(0).max(100),
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour as #rrggbb'),
    description: nonEmptySchema,
  })
  .meta({ id: 'Holding' });

export const thirdPartyRatingSchema = z
  .strictObject({
    provider: nonEmptySchema,
    providerUrl: httpUrlSchema,
    value: nonEmptySchema.meta({ description: 'As the provider states it, or N/A.' }),
    date: isoDateSchema,
    link: httpUrlSchema.nullable().meta({ description: "This strategy's page at the provider." }),
  })
  .meta({ id: 'ThirdPartyRating' });

export const liquidityPointSchema = z
  .strictObject({
    date: isoDateSchema,
    liquidityPct: z
      .number()
      .min(LIQUIDITY_PCT_MIN)
      .max(LIQUIDITY_PCT_MAX)
      .meta({ description: 'Exit liquidity, % of TVL.' }),
    amihud: z.number().min(AMIHUD_MIN).max(AMIHUD_MAX).meta({ description: 'Amihud illiquidity.' }),
  })
  .meta({ id: 'LiquidityPoint' });

const paragraphs = z.array(nonEmptySchema).min(1);

export const strategyContentSchema = z
  .strictObject({
    id: z.number().int().positive(),
    slug: strategySlugSchema,
    name: nonEmptySchema,
    description: nonEmptySchema,
    investUrl: httpUrlSchema,
    marketCap: nonEmptySchema,
    marketCapUrl: z.union([httpUrlSchema, z.literal('')]),
    rank: nonEmptySchema,
    rankUrl: z.union([httpUrlSchema, z.literal('')]),
    pageTitle: nonEmptySchema,
    pageDescription: nonEmptySchema,
    riskRatingBars: z.literal([4, 5]).meta({ enum: [4, 5] }),
    ratings: z.strictObject({
      protocolDesign: ratingSchema,
      protocolMaturity: ratingSchema,
      governance: ratingSchema,
      assetStrength: ratingSchema,
      chain: ratingSchema,
      history: ratingSchema,
      dependencies: ratingSchema,
    }),
    strategyContent: paragraphs,
    yieldSourceContent: paragraphs,
    strategyLimitsContent: paragraphs,
    riskRatingsContent: paragraphs,
    riskAnalysisResult: nonEmptySchema,
    potentialLossesContent: paragraphs,
    holdingsContent: nonEmptySchema,
    liquidityShortResume: nonEmptySchema,
    holdings: z.array(holdingSchema).min(1),
    thirdPartyRatings: z.array(thirdPartyRatingSchema),
    diagram: z.strictObject({
      title: nonEmptySchema,
      steps: z.array(z.strictObject({ label: nonEmptySchema, detail: nonEmptySchema })).min(2),
    }),
    liquidity: z
      .strictObject({ sample: z.boolean(), points: z.array(liquidityPointSchema) })
      .meta({ description: 'The liquidity panel series (sample data).' }),
  })
  .meta({ id: 'StrategyContent', description: 'A public strategy page.' });

// ---------------------------------------------------------------- POST /api/addToMailList

export const mailSignupRequestSchema = z
  .object({
    email: emailSchema,
    source: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9 _./-]{1,64}$/)
      .optional()
      .meta({ description: 'Where the sign-up came from (default website).' }),
  })
  .meta({ id: 'MailSignupRequest' });

export const mailSignupResponseSchema = z
  .strictObject({
    success: z.literal(true),
    message: nonEmptySchema.meta({
      description:
        'The same whether or not the address was on the list (nothing is revealed): check the inbox for the confirmation link.',
    }),
  })
  .meta({ id: 'MailSignupResponse' });

// ---------------------------------------------------------------- /api/alerts

export const alertKindSchema = z.enum(ALERT_KINDS).meta({
  description:
    "below-base: the source's risk-adjusted 30-day APR crosses below its base rate's; incident: an incident opens; stale: its data turns stale; warning: a warning detected from its data (outflow, depeg, spike) opens and no operator dismissed it.",
});

export const alertSubscribeRequestSchema = z
  .object({
    email: emailSchema,
    sourceId: z.number().int().positive().meta({ description: 'A source id of GET /api/sources.' }),
    kind: alertKindSchema,
  })
  .meta({ id: 'AlertSubscribeRequest' });

export const alertSubscribeResponseSchema = z
  .strictObject({
    success: z.literal(true),
    message: nonEmptySchema.meta({
      description:
        'The same whether or not the address had subscribed already (nothing is revealed): check the inbox for the confirmation link.',
    }),
  })
  .meta({ id: 'AlertSubscribeResponse' });

export const alertTokenQuerySchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(512)
      .meta({ description: 'The signed token of the e-mailed link.' }),
  })
  .meta({ id: 'AlertTokenQuery' });

export const alertUnsubscribeResponseSchema = z
  .strictObject({ success: z.literal(true) })
  .meta({ id: 'AlertUnsubscribeResponse' });

// ---------------------------------------------------------------- POST /api/premium, /api/premiumLogin

const inviteCodeSchema = z
  .string()
  .max(INVITE_CODE_MAX_LENGTH)
  .meta({ description: 'Case and surrounding spaces do not matter.' });

export const premiumInviteRequestSchema = z
  .object({ inviteCode: inviteCodeSchema })
  .meta({ id: 'PremiumInviteRequest' });

export const premiumLoginRequestSchema = z
  .object({ email: emailSchema, inviteCode: inviteCodeSchema })
  .meta({ id: 'PremiumLoginRequest' });

export const premiumUserSchema = z
  .strictObject({
    userId: z.string(),
    email: z.string().nullable(),
    accessLevel: z.literal(ACCESS_LEVEL),
  })
  .meta({ id: 'PremiumUser' });

export const premiumSessionSchema = z
  .strictObject({
    success: z.literal(true),
    token: z.string().meta({
      description: 'HS256 JWT, valid 30 days: {sub, userId, email, accessLevel, iat, exp}.',
    }),
    user: premiumUserSchema,
  })
  .meta({ id: 'PremiumSession' });

export const premiumEmailSentSchema = z
  .strictObject({
    success: z.literal(true),
    emailSent: z.literal(true),
    message: z.string(),
  })
  .meta({
    id: 'PremiumEmailSent',
    description:
      'No token: the email is already bound to a user of the code, and a sign-in link was mailed to it.',
  });

export const premiumSignInQuerySchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(512)
      .meta({ description: 'The signed token of the e-mailed sign-in link (valid 1 hour).' }),
  })
  .meta({ id: 'PremiumSignInQuery' });

// ---------------------------------------------------------------- GET /api/premium/strategies/:id

export const premiumStrategyParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .meta({ description: 'A source id, a strategy slug, a base-rate key, or any other name.' }),
});

const analysisCommon = {
  id: z.number().int().min(0).meta({ description: 'The source id; 0 for other names.' }),
  requestedId: z.string().meta({ description: 'The id as requested.' }),
  name: z.string(),
  summary: z.string(),
};

export const premiumAnalysisReadySchema = z
  .strictObject({
    ...analysisCommon,
    status: z.literal('ready'),
    source: yieldSourceSchema,
    breakdown: riskBreakdownSchema,
    history: z.array(historyPointSchema).meta({ description: 'The newest 180 days.' }),
    thirdPartyRatings: z.array(thirdPartyRatingSchema),
  })
  .meta({ id: 'PremiumAnalysisReady' });

export const premiumAnalysisPendingSchema = z
  .strictObject({
    ...analysisCommon,
    status: z.literal('analyzing'),
    source: z.null(),
    breakdown: z.null(),
    history: z.array(historyPointSchema).max(0),
    thirdPartyRatings: z.array(thirdPartyRatingSchema).max(0),
  })
  .meta({ id: 'PremiumAnalysisPending' });

export const premiumStrategyAnalysisSchema = z
  .discriminatedUnion('status', [premiumAnalysisReadySchema, premiumAnalysisPendingSchema])
  .meta({ id: 'PremiumStrategyAnalysis' });

// ---------------------------------------------------------------- GET /api/scanner

const queryBool = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true');

const queryWholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
};

const queryText = (name: string, max: number) =>
  z.string().max(max, `${name} must be at most ${max} characters`);

/**
 * The scanner's query string. Every parameter is optional; an empty value counts as not given;
 * an unknown or repeated parameter is refused (a typo such as `assets=USDC` must not silently
 * return the unfiltered ranking).
 */
export const scannerQuerySchema = z.strictObject({
  asset: queryText('asset', 64)
    .optional()
    .meta({ description: 'A token of the pool\u2019s symbol, e.g. USDC (any letter case).' }),
  chain: queryText('chain', 64).optional().meta({ description: 'e.g. Ethereum, Arbitrum, Base.' }),
  project: queryText('project', 100)
    .optional()
    .meta({ description: 'DeFiLlama project slug, e.g. aave-v3.' }),
  stablecoin: queryBool('stablecoin').optional().meta({ description: 'Stablecoin pools only.' }),
  minTvl: z
    .string()
    .regex(
      /^\d{1,15}(\.\d{1,6})?$/,
      'minTvl must be an amount of US dollars, 0 or more (e.g. 1000000)',
    )
    .transform(Number)
    .optional()
    .meta({ description: 'Smallest TVL, US dollars.' }),
  sort: z
    .enum(SCANNER_SORT_KEYS, { error: `sort must be one of ${SCANNER_SORT_KEYS.join(', ')}` })
    .default('riskAdjusted'),
  limit: queryWholeNumber('limit', 1, SCANNER_MAX_LIMIT).prefault(String(SCANNER_DEFAULT_LIMIT)),
  offset: queryWholeNumber('offset', 0, SCANNER_MAX_OFFSET).prefault('0'),
  includeOutliers: queryBool('includeOutliers')
    .prefault('false')
    .meta({ description: 'Include pools DeFiLlama flags as outliers.' }),
  format: z
    .enum(['json', 'csv'], { error: 'format must be json or csv' })
    .default('json')
    .meta({ description: 'csv needs a premium token.' }),
});

const poolChargesSchema = z
  .strictObject({
    volatility: z.number().min(0),
    incentives: z.number().min(0),
    impermanentLoss: z.number().min(0),
    size: z.number().min(0),
    safety: z.number().min(0),
  })
  .meta({ id: 'PoolCharges', description: 'The charges of rapool-v1, percentage points a year.' });

/** One pool of the ranking (docs/methodology.md, "Pools: rapool-v1"). */
export const scannerItemSchema = z
  .strictObject({
    pool: z.string().meta({ description: 'DeFiLlama pool id.' }),
    project: z.string(),
    chain: z.string(),
    symbol: z.string(),
    tvlUsd: z.number(),
    apy: z.number().meta({
      description:
        'The APY the charges are taken from: apyMean30d when DeFiLlama has one, else apySpot.',
    }),
    apyBase: z.number().nullable(),
    apyReward: z.number().nullable(),
    riskAdjustedApy: z.number().meta({ description: 'apy minus the sum of the charges.' }),
    charges: poolChargesSchema,
    url: z.string().meta({ description: 'The pool\u2019s page on DeFiLlama.' }),
    apySpot: z.number().meta({ description: 'DeFiLlama\u2019s current APY.' }),
    apyBasis: z.enum(['mean30d', 'spot']),
    risk: z.number().min(0).meta({ description: 'Sum of the charges.' }),
    stablecoin: z.boolean(),
    ilRisk: z.enum(['yes', 'no']),
    exposure: z.enum(['single', 'multi']),
    outlier: z.boolean(),
    poolMeta: z.string().nullable(),
    inputs: z.strictObject({
      sigma: z.number().meta({
        description:
          "Annualised standard deviation of daily returns, %: of the pool's own last 30 days when it has 30 days of history here, else DeFiLlama's whole-life sigma.",
      }),
      count: z.number().meta({ description: 'Daily observations behind sigma.' }),
      apyStdDev: z.number(),
      rewardShare: z.number(),
      safety: scoreSchema,
      safetyBasis: z.enum(['source', 'tier', 'unlisted']),
      safetySource: z.number().nullable(),
    }),
  })
  .meta({ id: 'ScannerItem' });

export const scannerAnswerSchema = z
  .strictObject({
    asOf: isoDateTimeSchema
      .nullable()
      .meta({ description: 'When the snapshot was fetched; null while none was ever imported.' }),
    sample: z.boolean().meta({ description: 'The snapshot is the shipped sample.' }),
    method: z.literal(POOL_METHOD_VERSION),
    total: z.number().int().min(0).meta({ description: 'Every match, whatever offset and limit.' }),
    offset: z.number().int().min(0),
    limit: z.number().int().min(0).meta({
      description: 'The limit applied: the requested one, or what is left of the teaser.',
    }),
    teaser: z.boolean().meta({
      description: 'True without premium: the items stop at the teaserSize-th of the ranking.',
    }),
    teaserSize: z.number().int(),
    items: z.array(scannerItemSchema),
  })
  .meta({ id: 'ScannerAnswer' });

// ---------------------------------------------------------------- GET /api/scanner/pools/{pool}/history

export const poolHistoryParamsSchema = z.object({
  pool: z
    .string()
    .regex(/^[0-9a-fA-F-]{8,64}$/)
    .meta({ description: 'DeFiLlama pool id (a UUID).' }),
});

export const poolHistoryDaySchema = z
  .strictObject({
    date: isoDateSchema.meta({ description: 'UTC day.' }),
    apy: z.number(),
    apyBase: z.number().nullable(),
    apyReward: z.number().nullable(),
    tvlUsd: z.number(),
  })
  .meta({ id: 'PoolHistoryDay' });

export const poolHistoryAnswerSchema = z
  .strictObject({
    pool: z.string(),
    sample: z.boolean().meta({
      description: 'The history is the shipped sample (generated), not DeFiLlama\u2019s.',
    }),
    item: scannerItemSchema
      .nullable()
      .meta({ description: 'The pool in the current ranking; null when it left the snapshot.' }),
    days: z.array(poolHistoryDaySchema).meta({ description: 'One row per UTC day, oldest first.' }),
    backfill: z.enum(['none', 'queued']).meta({
      description:
        'queued: the history is shorter than 30 days and its backfill from DeFiLlama is queued (ask again later).',
    }),
  })
  .meta({ id: 'PoolHistoryAnswer' });

// ---------------------------------------------------------------- GET /api/openapi.json

export const openApiDocumentSchema = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string() }) })
  .meta({ description: 'This document (OpenAPI 3.1).' });
