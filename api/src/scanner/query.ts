/**
 * The query of GET /api/scanner, validated with zod. Every parameter is optional; an empty value
 * counts as not given; an unknown or repeated parameter is refused (a typo such as `assets=USDC`
 * must not silently return the unfiltered ranking).
 */
import { z } from 'zod';
import { badRequest } from '../http/errors.ts';
import { SORT_KEYS } from './pool-index.ts';

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
