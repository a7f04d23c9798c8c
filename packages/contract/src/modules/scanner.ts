/** Scanner: every pool of the /pools snapshot ranked. */
import { z } from 'zod';
import {
  POOL_METHOD_VERSION,
  SCANNER_DEFAULT_LIMIT,
  SCANNER_MAX_LIMIT,
  SCANNER_MAX_OFFSET,
  SCANNER_SORT_KEYS,
} from '../constants.ts';
import { isoDateSchema, isoDateTimeSchema, scoreSchema } from './common.ts';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, notModified, error } from '../endpoint-spec.ts';

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
    impermanentLoss: z.number().min(0),
    rewardPrice: z.number().min(0),
    outflow: z.number().min(0),
    size: z.number().min(0),
    safety: z.number().min(0),
  })
  .meta({ id: 'PoolCharges', description: 'The charges of rapool-v3, percentage points a year.' });

/** One pool of the ranking (docs/methodology.md, "Pools: rapool-v3"). */
export const scannerItemSchema = z
  .strictObject({
    pool: z.string().meta({ description: 'DeFiLlama pool id.' }),
    project: z.string(),
    chain: z.string(),
    symbol: z.string(),
    tvlUsd: z.number(),
    apy: z.number().meta({
      description:
        'The APY the pool\u2019s level is read from: apyMean30d when DeFiLlama has one, else apySpot.',
    }),
    apyBase: z.number().nullable(),
    apyReward: z.number().nullable(),
    expected: z.number().meta({
      description:
        'The APR the pool is expected to pay over the next 30 days, percent (rapool-v3: its level, read on the APRs behind DeFiLlama\u2019s APYs, pulled towards its category\u2019s prior and cut for a swinging yield).',
    }),
    riskAdjustedApr: z.number().meta({
      description:
        'The risk-adjusted APR: expected minus the sum of the charges; never above expected.',
    }),
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
      basis: z.enum(['history', 'snapshot']).meta({
        description:
          'history: from 30+ days of the pool\u2019s own daily history; snapshot: from the /pools fields only, pulled harder to the prior.',
      }),
      category: z.enum(['stablecoin', 'ilRisk', 'rewardHeavy', 'other']),
      level: z.number().meta({ description: 'base + rewardKeep × reward, APR percent.' }),
      prior: z.number().meta({ description: 'The category\u2019s prior, APR percent.' }),
      weight: z.number().meta({ description: 'Weight of the level against the prior, 0..1.' }),
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
    backfill: z.enum(['none', 'queued', 'recent', 'deferred']).meta({
      description:
        'For a history shorter than 30 days, its backfill from DeFiLlama: queued = queued or under way (ask again later); recent = fetched or tried in the last 24 hours, not fetched again before 24 hours have passed; deferred = not queued now (the queue of opened pools is full, or this client queued its share for the hour): a later visit may queue it. none: nothing to fetch (30 days or more, or the sample).',
    }),
  })
  .meta({ id: 'PoolHistoryAnswer' });

// ---------------------------------------------------------------- GET /api/track-record/scanner

export const scannerTrackQuerySchema = z.object({
  format: z
    .enum(['json', 'csv'], { error: 'format must be json or csv' })
    .optional()
    .meta({ description: 'csv: one line per month, group and pick (RFC 4180).' }),
});

const scannerTrackPickSchema = z
  .strictObject({
    pool: z.string().meta({ description: 'DeFiLlama pool id.' }),
    project: z.string(),
    chain: z.string(),
    symbol: z.string(),
    kind: z.enum(['stablecoin', 'crypto']).meta({
      description:
        'stablecoin: set against the stablecoin DeFi Base Rate; crypto: against the crypto (defi) one, as the scanner\u2019s \u201cvs base\u201d column.',
    }),
    apy: z.number().meta({ description: 'Its APY on the decision day, %.' }),
    riskAdjustedApr: z.number().meta({
      description:
        'Its risk-adjusted APR computed on the decision day from its history up to that day with the scanner\u2019s current method (rapool-v3), %.',
    }),
    realizedApy: z.number().meta({
      description:
        'The mean of its daily APYs over the month, %; a day without a row (its history stopped) counts as 0.',
    }),
    daysWithData: z.number().int().min(0).meta({ description: 'Days of the month it has a row.' }),
  })
  .meta({ id: 'ScannerTrackPick' });

const scannerTrackGroupSchema = z
  .strictObject({
    picks: z.array(scannerTrackPickSchema).meta({ description: 'In ranking order.' }),
    realizedApy: z
      .number()
      .meta({ description: 'Equal-weight mean of the picks\u2019 realizedApy, %.' }),
    baseApy: z.number().meta({
      description:
        'Mean over the picks of what the base rate of their kind paid over the month (mean of its daily APYs), %.',
    }),
  })
  .meta({ id: 'ScannerTrackGroup' });

const scannerTrackValuesSchema = z.strictObject({
  riskAdjusted: z.number(),
  rawApy: z.number(),
  base: z.number().meta({ description: 'Following the base rates of the risk-adjusted picks.' }),
});

export const scannerTrackMonthSchema = z
  .strictObject({
    decidedOn: isoDateSchema.meta({ description: 'First day of the month: the decision day.' }),
    until: isoDateSchema.meta({
      description: 'First day of the next month: the end of the holding.',
    }),
    days: z.number().int().meta({ description: 'Days held (after decidedOn, up to until).' }),
    candidates: z.number().int().min(1).meta({
      description:
        'Pools ranked that day: 30 days of history or more up to it, a row that day, not outliers.',
    }),
    riskAdjusted: scannerTrackGroupSchema.meta({
      description: 'The top 10 by risk-adjusted APR.',
    }),
    rawApy: scannerTrackGroupSchema.meta({ description: 'The top 10 by that day\u2019s APY.' }),
    value: scannerTrackValuesSchema.meta({
      description: 'What the starting amount following each had grown to at the end of the month.',
    }),
  })
  .meta({ id: 'ScannerTrackMonth' });

export const scannerTrackRecordSchema = z
  .strictObject({
    method: z.literal(POOL_METHOD_VERSION),
    sample: z.boolean().meta({ description: 'The pools snapshot is the shipped sample.' }),
    firstDay: isoDateSchema
      .nullable()
      .meta({ description: 'The oldest day of any pool\u2019s history; null without any.' }),
    asOf: isoDateSchema
      .nullable()
      .meta({ description: 'The newest day of any pool\u2019s history; null without any.' }),
    startValue: z.number().meta({ description: 'The amount each line starts with (10,000).' }),
    size: z.number().int().meta({ description: 'Pools per group (10).' }),
    minDays: z
      .number()
      .int()
      .meta({ description: 'Days of history a pool needs on a decision day (30).' }),
    months: z.array(scannerTrackMonthSchema),
    skipped: z
      .array(
        z.strictObject({
          decidedOn: isoDateSchema,
          until: isoDateSchema,
          candidates: z.number().int().min(0),
          reason: z.enum(['history_too_short', 'no_base_rate']).meta({
            description:
              'history_too_short: no pool had 30 days of history that day; no_base_rate: the base rates have no data for the month.',
          }),
        }),
      )
      .meta({ description: 'The decision days left out, and why.' }),
    final: scannerTrackValuesSchema.meta({ description: 'Where each line ends.' }),
  })
  .meta({
    id: 'ScannerTrackRecord',
    description:
      'Month by month over the pools\u2019 own daily histories: on the first day of each month, the scanner\u2019s top 10 by risk-adjusted APR (rapool-v3, the current method, on every decision day) and the top 10 by that day\u2019s APY (pools with 30 days of history up to that day, outliers left out), what each group paid over the month against the DeFi Base Rates, and the value of 10,000 following each.',
  });

export const scannerEndpoints = {
  scanner: {
    method: 'get',
    path: API_PATHS.scanner,
    tag: 'Scanner',
    summary: 'Ranked pools',
    description:
      'Filters, order and page in the query. Without a premium token the items stop at the 10th of the ranking (teaser: true) and format=csv is refused. Anonymous answers are cacheable; answers to a request with Authorization are private.',
    query: scannerQuerySchema,
    bearer: 'optional',
    cached: true,
    responses: {
      200: {
        description: 'The page of the ranking (CSV with format=csv and a premium token).',
        schema: scannerAnswerSchema,
        csv: true,
      },
      304: notModified,
      400: error(
        ['invalid_query'],
        'invalid_query: an unknown, repeated or malformed parameter (the message says which).',
      ),
      401: error(
        ['premium_required'],
        'premium_required: format=csv without a valid premium token (a token whose user was deleted or whose invite was disabled counts as none within 60 s).',
      ),
      503: error(
        ['data_unavailable', 'unavailable'],
        'The pools snapshot or the project tiers never loaded; or, with a token, the user data cannot be read to check it (unavailable, Retry-After).',
      ),
    },
  },
  poolHistory: {
    method: 'get',
    path: API_PATHS.poolHistory,
    tag: 'Scanner',
    summary: 'One pool\u2019s daily history',
    description:
      'The pool\u2019s daily rows kept by the site (one per UTC day from each /pools import, plus DeFiLlama\u2019s /chart history of the pools backfilled) and its current item of the ranking. A pool with fewer than 30 days has its backfill queued.',
    params: poolHistoryParamsSchema,
    cached: true,
    responses: {
      200: { description: 'The pool\u2019s history.', schema: poolHistoryAnswerSchema },
      304: notModified,
      400: error(['invalid_pool'], 'invalid_pool: not a DeFiLlama pool id.'),
      404: error(['not_found'], 'not_found: no such pool in the snapshot and no history of it.'),
      503: error(['data_unavailable'], 'The pools snapshot or the project tiers never loaded.'),
    },
  },
  scannerTrackRecord: {
    method: 'get',
    path: API_PATHS.scannerTrackRecord,
    tag: 'Scanner',
    summary: 'The scanner\u2019s track record',
    description:
      "Month by month over the pools' own daily histories: on the first day of each month, the scanner's top 10 by risk-adjusted APR (rapool-v3, the current method, computed from each pool's history up to that day only) and the top 10 by that day's APY among the same pools, what each group paid over the month (equal-weight mean of each pool's mean daily APY, a day without data counting as 0) against the DeFi Base Rate of each pool's kind, and the value of 10,000 following each. Months without a pool with 30 days of history are listed in skipped. format=csv: one line per month, group and pick.",
    query: scannerTrackQuerySchema,
    cached: true,
    responses: {
      200: {
        description: 'The scanner\u2019s track record (CSV with format=csv).',
        schema: scannerTrackRecordSchema,
        csv: true,
      },
      304: notModified,
      400: error(['invalid_query'], 'invalid_query: format is neither json nor csv.'),
      503: error(
        ['data_unavailable'],
        'The pools snapshot, the project tiers or the history never loaded.',
      ),
    },
  },
} as const satisfies Record<string, EndpointSpec>;
