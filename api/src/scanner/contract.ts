/**
 * The contract of GET /api/scanner, one zod schema each for the query and the answer (types are
 * inferred from them; the answer schema is what an OpenAPI document or a client validates with).
 *
 * Query: every parameter is optional; an empty value counts as not given; an unknown or repeated
 * parameter is refused (a typo such as `assets=USDC` must not silently return the unfiltered
 * ranking).
 */
import { z } from 'zod';
import { badRequest } from '../http/errors.ts';

export const SORT_KEYS = ['riskAdjusted', 'apy', 'tvl'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const SCANNER_DEFAULT_LIMIT = 50;
export const SCANNER_MAX_LIMIT = 500;
export const SCANNER_MAX_OFFSET = 1_000_000;
/** What anyone gets without premium: the first items of any query. */
export const TEASER_SIZE = 10;

const bool = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true');

const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
};

const text = (name: string, max: number) =>
  z.string().max(max, `${name} must be at most ${max} characters`);

export const scannerQuerySchema = z.strictObject({
  asset: text('asset', 64).optional(),
  chain: text('chain', 64).optional(),
  project: text('project', 100).optional(),
  stablecoin: bool('stablecoin').optional(),
  minTvl: z
    .string()
    .regex(
      /^\d{1,15}(\.\d{1,6})?$/,
      'minTvl must be an amount of US dollars, 0 or more (e.g. 1000000)',
    )
    .transform(Number)
    .optional(),
  sort: z
    .enum(SORT_KEYS, { error: `sort must be one of ${SORT_KEYS.join(', ')}` })
    .default('riskAdjusted'),
  limit: wholeNumber('limit', 1, SCANNER_MAX_LIMIT).default(SCANNER_DEFAULT_LIMIT),
  offset: wholeNumber('offset', 0, SCANNER_MAX_OFFSET).default(0),
  includeOutliers: bool('includeOutliers').default(false),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).default('json'),
});
export type ScannerQuery = z.output<typeof scannerQuerySchema>;

const KNOWN = Object.keys(scannerQuerySchema.shape);

/** Koa's parsed query string to a validated query; a 400 `invalid_query` naming the reason. */
export function parseScannerQuery(
  raw: Record<string, string | string[] | undefined>,
): ScannerQuery {
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!KNOWN.includes(name)) {
      throw badRequest(
        `Unknown query parameter "${name}" (known: ${KNOWN.join(', ')})`,
        'invalid_query',
      );
    }
    if (Array.isArray(value)) {
      throw badRequest(`Query parameter ${name} is given more than once`, 'invalid_query');
    }
    if (value !== undefined && value !== '') given[name] = value;
  }
  const parsed = scannerQuerySchema.safeParse(given);
  if (!parsed.success) {
    throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid query', 'invalid_query');
  }
  return parsed.data;
}

// ---------------------------------------------------------------- the answer

const charges = z.object({
  volatility: z.number().min(0),
  incentives: z.number().min(0),
  impermanentLoss: z.number().min(0),
  size: z.number().min(0),
  safety: z.number().min(0),
});

/** One pool of the ranking (docs/api.md, "The yield scanner"). */
export const scannerItemSchema = z.object({
  pool: z.string(),
  project: z.string(),
  chain: z.string(),
  symbol: z.string(),
  tvlUsd: z.number(),
  /** The APY the charges are taken from: apyMean30d when DeFiLlama has one, else apySpot. */
  apy: z.number(),
  apyBase: z.number().nullable(),
  apyReward: z.number().nullable(),
  /** apy − the sum of the charges. */
  riskAdjustedApy: z.number(),
  charges,
  /** The pool's page on DeFiLlama. */
  url: z.string(),
  /** DeFiLlama's current APY. */
  apySpot: z.number(),
  apyBasis: z.enum(['mean30d', 'spot']),
  /** Sum of the charges. */
  risk: z.number().min(0),
  stablecoin: z.boolean(),
  ilRisk: z.enum(['yes', 'no']),
  exposure: z.enum(['single', 'multi']),
  outlier: z.boolean(),
  poolMeta: z.string().nullable(),
  inputs: z.object({
    sigma: z.number(),
    count: z.number(),
    apyStdDev: z.number(),
    rewardShare: z.number(),
    safety: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
    safetyBasis: z.enum(['source', 'tier', 'unlisted']),
    safetySource: z.number().nullable(),
  }),
});
export type ScannerItem = z.infer<typeof scannerItemSchema>;

export const scannerAnswerSchema = z.object({
  /** When the snapshot was fetched; null while none was ever imported. */
  asOf: z.string().nullable(),
  sample: z.boolean(),
  method: z.literal('rapool-v1'),
  /** Every match of the filters, whatever offset and limit. */
  total: z.number().int().min(0),
  offset: z.number().int().min(0),
  /** The limit applied: the requested one, or what is left of the teaser from offset. */
  limit: z.number().int().min(0),
  /** True without premium: the items stop at the teaserSize-th of the ranking. */
  teaser: z.boolean(),
  teaserSize: z.number().int(),
  items: z.array(scannerItemSchema),
});
export type ScannerAnswer = z.infer<typeof scannerAnswerSchema>;
