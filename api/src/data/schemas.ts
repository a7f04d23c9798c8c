/**
 * One zod schema per lowdb file under the data directory. These files are the operators' editing
 * surface, so every constraint here is a message an operator may read in GET /api/health.
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');
const isoDateTime = z
  .string()
  .datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });
// Links end up in href attributes on the site: only http(s), never javascript: or data:.
const url = z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' });
const score = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
const nonEmpty = z.string().trim().min(1);

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
export const settingsFileSchema = z.strictObject({
  siteTitle: nonEmpty,
  siteUrl: url,
  siteSlogan: nonEmpty,
  siteHeader: nonEmpty,
  siteDescription: nonEmpty,
  siteContactEmail: z.string().email(),
  socials: z.strictObject({ x: url, telegram: url }),
  externalUrls: z.strictObject({
    premiumPurchaseForm: url,
    premiumRequestForm: url,
    businessSignupForm: url,
    apiDocs: url,
  }),
});
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

const incident = z.strictObject({
  date: isoDate,
  kind: nonEmpty,
  summary: nonEmpty,
  link: url,
  active: z.boolean(),
});

const sourceCommon = {
  name: nonEmpty,
  token: nonEmpty,
  yieldToken: nonEmpty,
  type: z.enum(['stablecoin', 'defi']),
  rating: score,
  yield_type: nonEmpty,
  real_or_incentive: z.enum(['Real', 'Mixed']),
  yield_category: nonEmpty,
  description: nonEmpty,
  scores: z.array(datedScore).min(1, 'at least one dated safety/liquidity score is required'),
  incidents: z.array(incident),
};

const yieldSourceRecord = z.strictObject({
  id: z.number().int().positive(),
  ...sourceCommon,
  detailSlug: z.enum(['liquity', 'sky-spark', 'gauntlet', 'lido']).nullable(),
  depositUrl: url,
  /** Key of this source's daily series in history.json. */
  series: nonEmpty,
});

const stableComponents = z.strictObject({
  kind: z.literal('stablecoin'),
  coins: z
    .array(
      z.strictObject({
        coin: nonEmpty,
        venues: z.array(z.strictObject({ venue: nonEmpty, series: nonEmpty })).min(1),
      }),
    )
    .min(1),
});
const cryptoComponents = z.strictObject({
  kind: z.literal('crypto'),
  assets: z
    .array(
      z.union([
        z.strictObject({ asset: nonEmpty, series: nonEmpty }),
        z.strictObject({ asset: nonEmpty, derivedFrom: nonEmpty, divisor: z.number().positive() }),
      ]),
    )
    .min(1),
});

const baseRateRecord = z.strictObject({
  key: z.enum(['base-stablecoin', 'base-defi']),
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
    if (keys.join() !== 'base-defi,base-stablecoin') {
      ctx.addIssue({
        code: 'custom',
        path: ['baseRates'],
        message: 'expected one base-stablecoin and one base-defi row',
      });
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

// ---------------------------------------------------------------- history.json
const dailyRow = z.strictObject({
  date: isoDate,
  apy: z.number().finite().gt(-100).lt(10_000),
  apyReward: z.number().finite().min(0).optional(),
  tvlUsd: z.number().finite().min(0),
  pricePerShare: z.number().finite().positive().optional(),
});

export const historyFileSchema = z
  .strictObject({
    sample: z.boolean(),
    asOf: isoDate,
    note: z.string().optional(),
    generator: z.strictObject({ script: z.string(), seed: z.number().int() }).optional(),
    series: z.record(z.string().min(1), z.array(dailyRow)),
  })
  .superRefine((file, ctx) => {
    for (const [key, rows] of Object.entries(file.series)) {
      for (let i = 1; i < rows.length; i++) {
        if (rows[i]!.date <= rows[i - 1]!.date) {
          ctx.addIssue({
            code: 'custom',
            path: ['series', key, i, 'date'],
            message: `dates must be unique and ascending (${rows[i]!.date} after ${rows[i - 1]!.date})`,
          });
          break;
        }
      }
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

// ---------------------------------------------------------------- strategy-content.json
const rating = z.enum(['Bad', 'Good', 'Best']);
const slug = z.enum(['liquity', 'sky-spark', 'gauntlet', 'lido']);
const paragraphs = z.array(nonEmpty).min(1);

const strategyContentRecord = z.strictObject({
  id: z.number().int().positive(),
  slug,
  name: nonEmpty,
  description: nonEmpty,
  investUrl: url,
  marketCap: nonEmpty,
  marketCapUrl: z.union([url, z.literal('')]),
  rank: nonEmpty,
  rankUrl: z.union([url, z.literal('')]),
  pageTitle: nonEmpty,
  pageDescription: nonEmpty,
  riskRatingBars: z.union([z.literal(4), z.literal(5)]),
  ratings: z.strictObject({
    protocolDesign: rating,
    protocolMaturity: rating,
    governance: rating,
    assetStrength: rating,
    chain: rating,
    history: rating,
    dependencies: rating,
  }),
  strategyContent: paragraphs,
  yieldSourceContent: paragraphs,
  strategyLimitsContent: paragraphs,
  riskRatingsContent: paragraphs,
  riskAnalysisResult: nonEmpty,
  potentialLossesContent: paragraphs,
  holdingsContent: nonEmpty,
  liquidityShortResume: nonEmpty,
  holdings: z
    .array(
      z.strictObject({
        name: nonEmpty,
        percentage: z.number().min(0).max(100),
        color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour as #rrggbb'),
        description: nonEmpty,
      }),
    )
    .min(1),
  thirdPartyRatings: z.array(
    z.strictObject({ provider: nonEmpty, value: nonEmpty, date: isoDate, link: url.nullable() }),
  ),
  diagram: z.strictObject({
    title: nonEmpty,
    steps: z.array(z.strictObject({ label: nonEmpty, detail: nonEmpty })).min(2),
  }),
});

export const strategyContentFileSchema = z
  .strictObject({
    providers: z.array(z.strictObject({ name: nonEmpty, url })).min(1),
    strategies: z.array(strategyContentRecord),
  })
  .superRefine((file, ctx) => {
    const providers = new Set(file.providers.map((p) => p.name));
    file.strategies.forEach((s, i) => {
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
export const LIQUIDITY_PCT_MAX = 3;
export const AMIHUD_MIN = 3.2e-11;
export const AMIHUD_MAX = 7.51e-11;

export const liquidityFileSchema = z.strictObject({
  sample: z.boolean(),
  note: z.string().optional(),
  // partialRecord: zod 4's record over an enum would demand every slug.
  series: z.partialRecord(
    slug,
    z.array(
      z.strictObject({
        date: isoDate,
        liquidityPct: z.number().min(0).max(LIQUIDITY_PCT_MAX),
        amihud: z.number().min(AMIHUD_MIN).max(AMIHUD_MAX),
      }),
    ),
  ),
});
export type LiquidityFile = z.infer<typeof liquidityFileSchema>;

// ---------------------------------------------------------------- invites.json (runtime-written)
export const invitesFileSchema = z.strictObject({
  invites: z.array(
    z.strictObject({
      id: nonEmpty,
      /** scrypt parameters are fixed in premium/invite-codes.ts; salt and hash are base64. */
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

// ---------------------------------------------------------------- mailing-list.json (runtime-written)
export const mailingListFileSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      email: z.string().email(),
      createdAt: isoDateTime,
      source: nonEmpty,
    }),
  ),
});
export type MailingListFile = z.infer<typeof mailingListFileSchema>;

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
