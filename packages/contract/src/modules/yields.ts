/** Yields: settings, sources, strategies, base rates, history, earnings, breakdowns, strategy content, rankings as of a past day and the track record. */
import { z } from 'zod';
import {
  AMIHUD_MAX,
  AMIHUD_MIN,
  EARNINGS_MAX_AMOUNT,
  EXIT_KINDS,
  LIQUIDITY_PCT_MAX,
  LIQUIDITY_PCT_MIN,
  ONCHAIN_KINDS,
  PROVENANCE_KINDS,
  RATE_CALLS,
  REAL_OR_INCENTIVE,
  WARNING_KINDS,
} from '../constants.ts';
import {
  amountUnitSchema,
  baseKeySchema,
  httpUrlSchema,
  isoDateSchema,
  isoDateTimeSchema,
  linkSchema,
  methodSchema,
  metricStatusSchema,
  nonEmptySchema,
  percentPerYear,
  ratingSchema,
  scoreSchema,
  seriesIdSchema,
  sourceTypeSchema,
  strategySlugSchema,
  timeRangeSchema,
} from './common.ts';
import {
  chainSlugSchema,
  defillamaPoolIdSchema,
  evmAddressSchema,
  poolSelectorSchema,
} from './status.ts';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, notModified, error, unavailable } from '../endpoint-spec.ts';

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
      'defillama: imported from a DeFiLlama pool; onchain: daily share prices (or rates) read from the chain; sample: generated sample data (only while nothing was imported); operator: typed by an operator; none: no live data (the site has imported and this series has no feed the import could use): no figures, no history points, status insufficient_data, never GREAT; a base-rate component of kind none is left out of the mean.',
  }),
  asOf: isoDateSchema.nullable().meta({ description: 'Newest day of the data.' }),
  stale: z.boolean().meta({ description: 'Imported, and the newest day is more than 48 h old.' }),
  pool: defillamaPoolIdSchema.optional().meta({ description: 'Kind defillama: the pool.' }),
  importedAt: isoDateTimeSchema
    .optional()
    .meta({ description: 'Kind defillama or onchain: last import.' }),
  chain: chainSlugSchema.optional().meta({ description: 'Kind onchain: the chain.' }),
  address: evmAddressSchema.optional().meta({ description: 'Kind onchain: the contract read.' }),
};

export const provenanceSchema = z
  .strictObject({
    ...seriesProvenanceFields,
    series: z.string().optional().meta({ description: 'A source: its history series.' }),
    components: z
      .array(z.strictObject({ ...seriesProvenanceFields, series: z.string() }))
      .optional()
      .meta({
        description:
          'A base rate: the provenance of each component series. The rate is the mean of the components of any kind but none; a component of kind none is left out.',
      }),
  })
  .meta({ id: 'Provenance', description: 'Where the figures of a row come from.' });

export const defillamaFeedSchema = z
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
  .meta({ id: 'DefillamaFeed' });

export const onchainFeedSchema = z
  .strictObject({
    provider: z.literal('onchain'),
    chain: chainSlugSchema,
    kind: z.enum(ONCHAIN_KINDS).meta({
      description:
        'erc4626: the vault share price convertToAssets(10**decimals()); rate: a rate getter (call); liquity-stability-pool: the daily ETH and LQTY gains and the loss of a 1-LUSD deposit in Liquity v1’s Stability Pool; aera-v3: an Aera v3 multi-depositor vault’s unit price, convertUnitsToToken(vault, token, 10**decimals()) of the price-and-fee calculator the vault names (feeCalculator()); aave-v3-reserve: an Aave v3 or SparkLend reserve’s liquidity index, Pool.getReserveNormalizedIncome(asset) / 1e27; comet: a Compound III Comet’s base supply index, totalsBasic().baseSupplyIndex / baseIndexScale().',
    }),
    address: evmAddressSchema,
    call: z.enum(RATE_CALLS).optional().meta({ description: 'Kind rate: the getter called.' }),
    series: z.string().meta({ description: 'The history series the contract feeds.' }),
  })
  .meta({ id: 'OnchainFeed' });

export const feedSchema = z
  .discriminatedUnion('provider', [defillamaFeedSchema, onchainFeedSchema])
  .meta({
    id: 'Feed',
    description:
      'A DeFiLlama pool, or a contract read on chain (where a series has both, the on-chain share price leads and DeFiLlama is compared with it).',
  });

export const detectedWarningSchema = z
  .strictObject({
    kind: z.enum(WARNING_KINDS).meta({
      description:
        "outflow: TVL falling fast; depeg: the priced token off its peg; spike: the newest APR far above its 30-day mean; feeds-disagree: the on-chain share price and DeFiLlama's feed give 7-day mean APRs more than max(0.5 points, 20% of the larger) apart.",
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
        "GREAT: reward above the base rate's reward/risk slope times its risk (never with an active incident or an open, undismissed outflow, depeg or feeds-disagree warning).",
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

// ---------------------------------------------------------------- ?asOf=YYYY-MM-DD

/**
 * `asOf` of GET /api/strategies, /api/baserate and /api/strategies/{id}/breakdown: the answer the
 * site would have published at the end of that day. Not a real day, before the first day of data
 * or after today (UTC): 400 invalid_as_of.
 */
export const asOfQuerySchema = z.object({
  asOf: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'asOf must be a date as YYYY-MM-DD')
    .optional()
    .meta({
      format: 'date',
      description:
        'A past day (YYYY-MM-DD, UTC): the answer as published at the end of that day, from the history up to it and the scores, incidents and warnings known by then. From the first day of data to today.',
    }),
});

/**
 * The 429 of asOf: a day not computed yet counts against the client's limit; one already
 * computed never does.
 */
const asOfRateLimited = error(
  ['rate_limited'],
  'rate_limited: with asOf, more past days not computed yet than this client may ask for per window (AS_OF_RATE_LIMIT_MAX, 20 per minute); see Retry-After. A day already computed is never refused.',
);

// ---------------------------------------------------------------- GET /api/track-record

export const trackRecordQuerySchema = z.object({
  format: z
    .enum(['json', 'csv'], { error: 'format must be json or csv' })
    .optional()
    .meta({ description: 'csv: one line per month and type (RFC 4180).' }),
});

const trackEventSchema = z
  .strictObject({
    kind: z.enum(['incident', 'depeg']),
    date: isoDateSchema.meta({
      description: 'The incident day, or the day the depeg warning opened.',
    }),
    summary: nonEmptySchema,
  })
  .meta({ id: 'TrackRecordEvent' });

const trackPickSchema = z
  .strictObject({
    id: z.number().int().positive(),
    name: nonEmptySchema,
    unit: amountUnitSchema,
    yield30d: z
      .number()
      .meta({ description: 'Its 30-day APR as published on the decision day, %.' }),
    riskAdjustedYield30d: z
      .number()
      .meta({ description: 'Its risk-adjusted 30-day APR as published that day, %.' }),
    returnPct: z.number().meta({
      description:
        'What holding it paid over the month, % (not annualised): the compounded daily APRs times the change in value of its token against its unit.',
    }),
    yieldPct: z.number().meta({ description: 'The compounded daily APRs alone, %.' }),
    priceChangePct: z.number().nullable().meta({
      description:
        'The change in value of its priced token against its unit (dollar or ETH) over the month, %; null when no prices cover both ends.',
    }),
    events: z
      .array(trackEventSchema)
      .meta({ description: 'Incidents recorded and depeg warnings open during the month.' }),
    lossMeasured: z.boolean().meta({
      description:
        'false when an incident or depeg fell in the month and no prices cover both ends: the loss it caused is not in returnPct.',
    }),
  })
  .meta({ id: 'TrackRecordPick' });

const trackValuesSchema = z.strictObject({
  riskAdjusted: z.number(),
  rawApy: z.number(),
  base: z.number(),
});

export const trackRecordMonthSchema = z
  .strictObject({
    decidedOn: isoDateSchema.meta({
      description: 'First day of the month: the picks as published that day.',
    }),
    until: isoDateSchema.meta({
      description: 'First day of the next month: the end of the holding.',
    }),
    days: z.number().int().meta({ description: 'Days held (after decidedOn, up to until).' }),
    riskAdjusted: trackPickSchema.meta({ description: 'The top risk-adjusted pick of the type.' }),
    rawApy: trackPickSchema.meta({ description: 'The top pick of the type by 30-day APR.' }),
    base: z.strictObject({
      key: baseKeySchema,
      yield30d: z.number(),
      riskAdjustedYield30d: z.number(),
      returnPct: z.number().meta({ description: 'Its compounded daily APRs over the month, %.' }),
    }),
    value: trackValuesSchema.meta({
      description: 'What the starting amount following each had grown to at the end of the month.',
    }),
  })
  .meta({ id: 'TrackRecordMonth' });

export const trackRecordSchema = z
  .strictObject({
    method: methodSchema,
    sample: z.boolean().meta({ description: 'Computed from sample data, not market figures.' }),
    asOf: isoDateSchema.nullable().meta({ description: 'The newest day of data.' }),
    startValue: z.number().meta({ description: 'The amount each line starts with (10,000).' }),
    types: z.array(
      z.strictObject({
        type: sourceTypeSchema,
        months: z.array(trackRecordMonthSchema),
        final: trackValuesSchema.meta({ description: 'Where each line ends.' }),
      }),
    ),
  })
  .meta({
    id: 'TrackRecord',
    description:
      'Month by month: on the first day of each month, the top risk-adjusted pick and the top 30-day APR pick of each type as published that day (the answers of ?asOf), and what each paid over the month against the base rate of the type.',
  });

export const yieldsEndpoints = {
  settings: {
    method: 'get',
    path: API_PATHS.settings,
    tag: 'Data',
    summary: 'Site settings',
    description: 'Site texts, contact, socials, external URLs, and whether the data is sample.',
    cached: true,
    responses: {
      200: { description: 'Settings.', schema: siteSettingsSchema },
      304: notModified,
      503: unavailable,
    },
  },
  sources: {
    method: 'get',
    path: API_PATHS.sources,
    tag: 'Data',
    summary: 'Yield sources',
    description: 'The static yield list with current scores and incidents, base-rate rows last.',
    cached: true,
    responses: {
      200: { description: 'Sources.', schema: yieldSourceListSchema },
      304: notModified,
      503: unavailable,
    },
  },
  strategies: {
    method: 'get',
    path: API_PATHS.strategies,
    tag: 'Data',
    summary: 'Live metrics',
    description:
      'The 30-day APR, risk-adjusted APR, risk, GREAT and TVL of every source (ra30-v1). With asOf: as published at the end of that day.',
    query: asOfQuerySchema,
    cached: true,
    responses: {
      200: { description: 'Metrics, one per source.', schema: strategyMetricsListSchema },
      304: notModified,
      400: error(
        ['invalid_as_of'],
        'invalid_as_of: asOf is not a day as YYYY-MM-DD, is before the first day of data or after today (UTC).',
      ),
      429: asOfRateLimited,
      503: unavailable,
    },
  },
  baseRates: {
    method: 'get',
    path: API_PATHS.baseRates,
    tag: 'Data',
    summary: 'DeFi Base Rates',
    description:
      'The stablecoin and crypto benchmarks: 30-day APR and risk-adjusted APR. With asOf: as published at the end of that day.',
    query: asOfQuerySchema,
    cached: true,
    responses: {
      200: { description: 'Base rates.', schema: baseRatesSchema },
      304: notModified,
      400: error(
        ['invalid_as_of'],
        'invalid_as_of: asOf is not a day as YYYY-MM-DD, is before the first day of data or after today (UTC).',
      ),
      429: asOfRateLimited,
      503: unavailable,
    },
  },
  history: {
    method: 'get',
    path: API_PATHS.history,
    tag: 'Data',
    summary: 'Daily history',
    description: 'The newest days of one series (7, 30, 90 or 180) and its current metrics.',
    query: historyQuerySchema,
    cached: true,
    responses: {
      200: { description: 'History.', schema: historyResponseSchema },
      304: notModified,
      400: error(
        ['invalid_id', 'invalid_range'],
        'invalid_id: missing, malformed or unknown id; invalid_range: not a range.',
      ),
      503: unavailable,
    },
  },
  earnings: {
    method: 'get',
    path: API_PATHS.earnings,
    tag: 'Data',
    summary: 'Earnings calculator',
    description:
      "What an amount would have earned over the newest days of a range (7, 30, 90 or 180), compounded daily at each day's APR, and the same at the source's DeFi Base Rate, in the source's unit (USD or ETH).",
    query: earningsQuerySchema,
    responses: {
      200: { description: 'Earnings.', schema: earningsAnswerSchema },
      400: error(
        ['invalid_id', 'invalid_amount', 'invalid_range'],
        'invalid_id: missing, malformed or unknown source id; invalid_amount: not a number, not above 0 or too large; invalid_range: not a range.',
      ),
      503: unavailable,
    },
  },
  breakdown: {
    method: 'get',
    path: API_PATHS.breakdown,
    tag: 'Data',
    summary: 'Risk breakdown',
    description:
      'Every charge of the ra30-v1 formula for one source or base rate, with inputs. With asOf: as published at the end of that day.',
    params: seriesIdParamsSchema,
    query: asOfQuerySchema,
    cached: true,
    responses: {
      200: { description: 'Breakdown.', schema: riskBreakdownSchema },
      304: notModified,
      400: error(
        ['invalid_id', 'invalid_as_of'],
        'invalid_id: neither a numeric id nor a base-rate key; invalid_as_of: asOf is not a day as YYYY-MM-DD, is before the first day of data or after today (UTC).',
      ),
      404: error(['not_found'], 'not_found: no such source.'),
      429: asOfRateLimited,
      503: unavailable,
    },
  },
  strategyContent: {
    method: 'get',
    path: API_PATHS.strategyContent,
    tag: 'Data',
    summary: 'Strategy page content',
    description: 'Texts, ratings, holdings, third-party ratings, diagram and liquidity series.',
    params: strategyContentParamsSchema,
    cached: true,
    responses: {
      200: { description: 'Content.', schema: strategyContentSchema },
      304: notModified,
      404: error(['not_found'], 'not_found: unknown slug.'),
      503: unavailable,
    },
  },
  trackRecord: {
    method: 'get',
    path: API_PATHS.trackRecord,
    tag: 'Data',
    summary: 'Track record',
    description:
      "Month by month over the whole history: on the first day of each month, the top risk-adjusted pick and the top 30-day APR pick of each type as the site published them that day (the answers of asOf), what each paid over the month (compounded daily APRs and the change in value of its token, so depegs count as the losses they were) against the type's DeFi Base Rate, and the value of 10,000 following each. format=csv: the same, one line per month and type.",
    query: trackRecordQuerySchema,
    cached: true,
    responses: {
      200: {
        description: 'The track record (CSV with format=csv).',
        schema: trackRecordSchema,
        csv: true,
      },
      304: notModified,
      400: error(['invalid_query'], 'invalid_query: format is neither json nor csv.'),
      503: unavailable,
    },
  },
} as const satisfies Record<string, EndpointSpec>;
