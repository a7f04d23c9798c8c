/**
 * Net yield: what a deposit keeps after the entry and exit fees and the gas of going in and out,
 * read from the chain at import (docs/methodology.md "Net yield", docs/decisions.md 55).
 */
import { z } from 'zod';
import { EARNINGS_MAX_AMOUNT, NET_YIELD_MAX_DAYS } from '../constants.ts';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, error, unavailable } from '../endpoint-spec.ts';
import { amountUnitSchema, baseKeySchema, isoDateSchema, percentPerYear } from './common.ts';

// ---------------------------------------------------------------- shared parts

const amountParam = z
  .string()
  .regex(/^\d{1,13}(?:\.\d{1,18})?$/)
  .meta({
    description: `The amount deposited, in the source's unit: a decimal number above 0 and at most ${EARNINGS_MAX_AMOUNT.toExponential()}.`,
  });
const daysParam = z
  .string()
  .regex(/^[1-9]\d{0,3}$/)
  .meta({
    description: `How long the deposit is held, whole days from 1 to ${NET_YIELD_MAX_DAYS}.`,
  });

/** One cost of a deposit: known (in the unit and in USD) or unknown with the reason why. */
export const netCostSchema = z
  .strictObject({
    amount: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: "The cost for this amount, in the source's unit; null when unknown." }),
    usd: z.number().min(0).nullable().meta({ description: 'The same in USD; null when unknown.' }),
    unknown: z.string().nullable().meta({
      description:
        'Why the cost cannot be known (no contract read, a contract without previews, no gas figure for its kind, no price), null when known. Never a made-up zero.',
    }),
  })
  .meta({ id: 'NetCost' });

export const netCostsSchema = z.strictObject({
  entry: netCostSchema.meta({
    description:
      'Entry fee: the value of convertToShares(amount) − previewDeposit(amount) (an ERC-4626 preview includes fees).',
  }),
  exit: netCostSchema.meta({
    description: 'Exit fee: convertToAssets(shares) − previewRedeem(shares) for those shares.',
  }),
  gasIn: netCostSchema.meta({
    description:
      "Gas of the deposit: its measured gas units × the chain's gas price (eth_feeHistory: next base fee + median priority fee) × the native token's USD price.",
  }),
  gasOut: netCostSchema.meta({ description: 'Gas of the withdrawal, likewise.' }),
});

const netFiguresShape = {
  apr: percentPerYear('The gross 30-day APR used (%).'),
  netAmount: z.number().nullable().meta({
    description:
      '(amount − entry − exit − gas) × (1 + APR/100/365)^days, in the unit; null when a cost is unknown.',
  }),
  netApr: z.number().nullable().meta({
    description: '(netAmount / amount − 1) × 365 / days × 100; null when a cost is unknown.',
  }),
  breakEvenDays: z.number().int().min(0).nullable().meta({
    description:
      'The first whole day on which the net amount reaches the amount deposited; null when a cost is unknown or it never does.',
  }),
};

// ---------------------------------------------------------------- GET /api/net-yield

export const netYieldQuerySchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,5}$/)
    .meta({ description: 'A source id (not a base-rate key).' }),
  amount: amountParam,
  days: daysParam,
});

export const netYieldAnswerSchema = z
  .strictObject({
    id: z.number().int().positive(),
    amount: z.number().positive(),
    unit: amountUnitSchema,
    days: z.number().int().positive(),
    chain: z.string().nullable().meta({
      description: 'The chain the source lives on (its gas is that chain\u2019s), null if unknown.',
    }),
    costsAsOf: isoDateSchema.nullable().meta({
      description: 'The day the costs were read from the chain; null when never read.',
    }),
    unitPriceUsd: z
      .number()
      .positive()
      .meta({ description: 'The USD price of one unit on that day (1 for USD).' }),
    costs: netCostsSchema,
    totalCost: z.number().min(0).nullable().meta({
      description: "The costs' sum in the source's unit; null when any is unknown.",
    }),
    ...netFiguresShape,
    base: z.strictObject({ key: baseKeySchema, ...netFiguresShape }).meta({
      description:
        "The same amount and days at the source's DeFi Base Rate, an index with no costs (break-even day 0).",
    }),
  })
  .meta({
    id: 'NetYield',
    description:
      'What a deposit keeps after its costs over a holding period. Every cost is taken out at the deposit: net = (amount − entry − exit − gas) × (1 + APR/100/365)^days.',
  });

// ---------------------------------------------------------------- GET /api/net-yield/ranking

export const netYieldRankingQuerySchema = z.object({ amount: amountParam, days: daysParam });

export const netYieldRankingItemSchema = z
  .strictObject({
    id: z.number().int().positive(),
    unit: amountUnitSchema,
    totalCost: z.number().min(0).nullable(),
    /** Which costs are unknown (entry, exit, gasIn, gasOut): empty when all are known. */
    unknownCosts: z.array(z.enum(['entry', 'exit', 'gasIn', 'gasOut'])),
    ...netFiguresShape,
  })
  .meta({ id: 'NetYieldRankingItem' });

export const netYieldRankingAnswerSchema = z
  .strictObject({
    amount: z.number().positive(),
    days: z.number().int().positive(),
    items: z.array(netYieldRankingItemSchema).meta({
      description:
        'Every source, highest net APR first; sources whose net APR is unknown last, by gross APR. The amount is in each source\u2019s own unit.',
    }),
  })
  .meta({ id: 'NetYieldRanking' });

export const netYieldEndpoints = {
  netYield: {
    method: 'get',
    path: API_PATHS.netYield,
    tag: 'Data',
    summary: 'Net yield of a deposit',
    description:
      "What an amount deposited in a source keeps after its entry and exit fees and the gas of the deposit and the withdrawal (read from the chain at import), over a holding period, with the break-even day; the same at the source's DeFi Base Rate for comparison.",
    query: netYieldQuerySchema,
    responses: {
      200: { description: 'The net figure.', schema: netYieldAnswerSchema },
      400: error(
        ['invalid_id', 'invalid_amount', 'invalid_days'],
        'invalid_id: missing, malformed or unknown source id; invalid_amount: not a number, not above 0 or too large; invalid_days: not a whole number of days from 1 to the limit.',
      ),
      503: unavailable,
    },
  },
  netYieldRanking: {
    method: 'get',
    path: API_PATHS.netYieldRanking,
    tag: 'Data',
    summary: 'Every source ranked by net APR',
    description:
      "The net figure of the same amount (in each source's unit) held for the same days, for every source, highest net APR first.",
    query: netYieldRankingQuerySchema,
    responses: {
      200: { description: 'The ranking.', schema: netYieldRankingAnswerSchema },
      400: error(
        ['invalid_amount', 'invalid_days'],
        'invalid_amount: not a number, not above 0 or too large; invalid_days: not a whole number of days from 1 to the limit.',
      ),
      503: unavailable,
    },
  },
} as const satisfies Record<string, EndpointSpec>;
