/** pools.json: DeFiLlama's /pools snapshot as the import writes it and the scanner reads it. */
import { z } from 'zod';
import { isoDateTimeSchema as isoDateTime } from '@yield/contract';
import { flagRepeats } from '../../platform/files/schema-checks.ts';
import type { FileSpec } from '../../platform/files/data-store.ts';

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
  // Elements may be null (DeFiLlama sends `[null]` for a token it could not name); the scanner
  // does not read these lists.
  rewardTokens: z.array(z.string().nullable()).nullish(),
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
  underlyingTokens: z.array(z.string().nullable()).nullish(),
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

/** pools.json in the data directory: no file yet is no snapshot (the scanner answers empty). */
export const poolsFileSpec: FileSpec<PoolsFile> = {
  file: 'pools.json',
  schema: poolsFileSchema,
  empty: () => ({ status: 'success', asOf: null, sample: false, data: [] }),
};
