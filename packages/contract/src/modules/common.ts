/** Building blocks and errors shared by every module of the contract. */
import { z } from 'zod';
import {
  AMOUNT_UNITS,
  BASE_KEYS,
  METRIC_STATUSES,
  RATING_VALUES,
  SOURCE_TYPES,
  STRATEGY_SLUGS,
  TIME_RANGES,
} from '../constants.ts';
import { API_ERROR_CODES, type ApiErrorCode } from '../error-codes.ts';

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
export const methodSchema = z.string().meta({ description: 'Metric method, ra30-v1.' });
export const percentPerYear = (description: string) => z.number().meta({ description });

// ---------------------------------------------------------------- errors

const errorMessageSchema = z.string().meta({ description: 'Human-readable; never a stack trace.' });

/** Every code the API answers (each endpoint's answers list the ones they may carry). */
export const errorCodeSchema = z.enum(API_ERROR_CODES).meta({
  id: 'ErrorCode',
  description: 'Machine-readable. Each answer of each operation lists the codes it may carry.',
});

export const apiErrorSchema = z
  .strictObject({
    error: z.strictObject({ code: errorCodeSchema, message: errorMessageSchema }),
  })
  .meta({ id: 'Error', description: 'Every failed call answers this.' });

/** The premium calls add `success: false` to their errors (the premium client reads it). */
export const premiumErrorSchema = z
  .strictObject({ success: z.literal(false), error: apiErrorSchema.shape.error })
  .meta({ id: 'PremiumError' });

/** At least one code: an error answer always says which. */
export type ErrorCodes = readonly [ApiErrorCode, ...ApiErrorCode[]];

/** The error body of one answer that may carry only `codes`. */
export const apiErrorOf = <const C extends ErrorCodes>(codes: C) =>
  z.strictObject({
    error: z.strictObject({
      code: z.enum(codes).meta({ description: 'Machine-readable.' }),
      message: errorMessageSchema,
    }),
  });

/** A premium call's error body (`success: false`) that may carry only `codes`. */
export const premiumErrorOf = <const C extends ErrorCodes>(codes: C) =>
  z.strictObject({ success: z.literal(false), error: apiErrorOf(codes).shape.error });
