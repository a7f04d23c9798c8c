/** Status: GET /api/health, and the import outcomes it reports. */
import { z } from 'zod';
import { isoDateSchema, isoDateTimeSchema, methodSchema, nonEmptySchema } from './common.ts';
import { API_PATHS } from '../paths.ts';
import type { EndpointSpec } from '../endpoint-spec.ts';

// ---------------------------------------------------------------- GET /api/health
/** DeFiLlama's id of a yields pool (its configID): the UUID of https://defillama.com/yields/pool/<id>. */
export const defillamaPoolIdSchema = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'expected a DeFiLlama pool id in lower case, e.g. 747c1d2a-c668-4682-b9f9-296708a3dd90',
  );

/** A chain as an on-chain feed names it (lower case, e.g. ethereum): its RPC is RPC_URL_<CHAIN>. */
export const chainSlugSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'expected a chain name in lower case, e.g. ethereum');
/** A contract address on an EVM chain. */
export const evmAddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a contract address (0x and 40 hex digits)');

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
    provider: z.enum(['defillama', 'onchain']).optional().meta({
      description:
        'Where the feed reads (absent in runs recorded before on-chain feeds: defillama).',
    }),
    pool: defillamaPoolIdSchema.nullable().optional().meta({
      description:
        'Provider defillama: the pool read, its id in sources.json or the one its selector resolved to; null when the selector resolved to none or several.',
    }),
    chain: chainSlugSchema.optional().meta({ description: 'Provider onchain: the chain.' }),
    address: evmAddressSchema.optional().meta({ description: 'Provider onchain: the contract.' }),
    select: poolSelectorSchema.optional().meta({ description: 'The selector, when it has one.' }),
    candidates: z.array(defillamaPoolIdSchema).optional().meta({
      description:
        'The pools the selector matched when it matched several (the feed was not read).',
    }),
    leftOut: z.array(leftOutDaySchema).optional().meta({
      description:
        'Days left out of the series because the method cannot use them (an implausible APY, a negative TVL, a malformed row; for Liquity’s Stability Pool, a day without the price of a token it paid out).',
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
    skipped: z
      .array(
        z.strictObject({
          series: nonEmptySchema,
          chain: chainSlugSchema,
          address: evmAddressSchema,
          reason: nonEmptySchema.meta({
            description: 'e.g. "RPC_URL_ETHEREUM is not set: on-chain feed not read".',
          }),
        }),
      )
      .optional()
      .meta({
        description:
          'On-chain feeds not read because no JSON-RPC endpoint is set for their chain (RPC_URL_<CHAIN>): not a failure, their series keep their data.',
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
    published: z
      .strictObject({
        available: z.boolean().meta({
          description:
            'Whether the published versions could be checked at the last look (every 2 s); when false the last version loaded is served.',
        }),
        error: z.string().nullable().meta({
          description:
            'Why not, e.g. "the published data could not be checked: database unreachable (ECONNREFUSED)"; else null.',
        }),
        versions: z.record(z.string(), z.number().int().min(1)).meta({
          description: 'Keyed by file name: the published version served.',
        }),
        localDiffers: z.array(z.string()).meta({
          description:
            "Files of this server's own data directory whose content differs from the published version served (they are not served; publish with data:publish).",
        }),
      })
      .optional()
      .meta({
        description:
          'With DATABASE_URL only: the yield files served are the versions published in PostgreSQL.',
      }),
  })
  .meta({ id: 'HealthReport' });

export const statusEndpoints = {
  health: {
    method: 'get',
    path: API_PATHS.health,
    tag: 'Status',
    summary: 'Data status',
    description:
      'Each data file: whether it loaded, when, and why its last edit was refused. Never cached.',
    responses: { 200: { description: 'Health report.', schema: healthReportSchema } },
  },
} as const satisfies Record<string, EndpointSpec>;
