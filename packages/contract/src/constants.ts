/**
 * The enumerations of the /api contract, without zod: front ends import these at run time
 * (`@yield/contract/constants`), the schemas in ./schemas.ts are built from them. Each list is
 * written here once.
 */

/** The four strategies with a public detail page (/options/:slug and /api/strategy-content/:slug). */
export const STRATEGY_SLUGS = ['liquity', 'sky-spark', 'gauntlet', 'lido'] as const;
export type StrategySlug = (typeof STRATEGY_SLUGS)[number];

/** The two "DeFi Base Rate" benchmark rows, addressed by these keys instead of a numeric id. */
export const BASE_KEYS = ['base-stablecoin', 'base-defi'] as const;
export type BaseKey = (typeof BASE_KEYS)[number];

/** A series the API computes: a source's numeric id or a base-rate key. */
export type SeriesId = number | BaseKey;

export const SOURCE_TYPES = ['stablecoin', 'defi'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** The base-rate row each source type is compared with. */
export const BASE_KEY_OF_TYPE: Readonly<Record<SourceType, BaseKey>> = {
  stablecoin: 'base-stablecoin',
  defi: 'base-defi',
};

export const TIME_RANGES = ['7D', '30D', '90D', '180D'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export const DEFAULT_TIME_RANGE: TimeRange = '30D';
export const TIME_RANGE_DAYS: Readonly<Record<TimeRange, number>> = {
  '7D': 7,
  '30D': 30,
  '90D': 90,
  '180D': 180,
};

/**
 * The unit a source's amounts are counted in: USD for stablecoin (and dollar) sources, ETH for
 * ETH sources. Each record of api/data/sources.json names its own.
 */
export const AMOUNT_UNITS = ['USD', 'ETH'] as const;
export type AmountUnit = (typeof AMOUNT_UNITS)[number];
/**
 * Largest amount GET /api/earnings takes (a trillion units): above it the figures say nothing a
 * saver can use and floating point starts to round whole units away.
 */
export const EARNINGS_MAX_AMOUNT = 1e12;
/** Longest holding period GET /api/net-yield takes, in days (ten years). */
export const NET_YIELD_MAX_DAYS = 3650;
/** The holding period the net figures use until a saver sets one (days). */
export const NET_YIELD_DEFAULT_DAYS = 365;

/**
 * How a saver gets money back out of a source: at once (instant), after a fixed wait started on
 * request (cooldown), through a first-come queue of variable length (queue), or not before a
 * date (lock). Ordered from the quickest kind to the slowest.
 */
export const EXIT_KINDS = ['instant', 'cooldown', 'queue', 'lock'] as const;
export type ExitKind = (typeof EXIT_KINDS)[number];

/** The metric method every figure is computed with (docs/api.md, "Metrics"). */
export const METHOD_VERSION = 'ra30-v1';

/**
 * ok: at least 20 days in the 30-day window; insufficient_data: fewer (the figures are 0 and shown
 * as N/A); stale: computed, but from an imported series whose newest day is more than 48 h old
 * (never GREAT; shown with its date).
 */
export const METRIC_STATUSES = ['ok', 'insufficient_data', 'stale'] as const;

/**
 * Where a series' figures come from (api/src/modules/yields/provenance.ts); `none`: no live data
 * (the site has imported, and this series has no feed the import could use): no figures at all.
 */
export const PROVENANCE_KINDS = ['defillama', 'onchain', 'sample', 'operator', 'none'] as const;
export type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];

/** The public page of a DeFiLlama yields pool (append the pool id). */
export const DEFILLAMA_POOL_PAGE = 'https://defillama.com/yields/pool/';
export type MetricStatus = (typeof METRIC_STATUSES)[number];

/** The seven ratings of a strategy page's Risk Analysis. */
export const RATING_VALUES = ['Bad', 'Good', 'Best'] as const;
export type Rating = (typeof RATING_VALUES)[number];

export const REAL_OR_INCENTIVE = ['Real', 'Mixed'] as const;
export type RealOrIncentive = (typeof REAL_OR_INCENTIVE)[number];

export const ACCESS_LEVEL = 'premium';

/** Longest invite code the API reads (longer ones are refused before hashing). */
export const INVITE_CODE_MAX_LENGTH = 128;

export function isStrategySlug(value: unknown): value is StrategySlug {
  return typeof value === 'string' && (STRATEGY_SLUGS as readonly string[]).includes(value);
}

export function isBaseKey(value: unknown): value is BaseKey {
  return typeof value === 'string' && (BASE_KEYS as readonly string[]).includes(value);
}

export function isTimeRange(value: unknown): value is TimeRange {
  return typeof value === 'string' && (TIME_RANGES as readonly string[]).includes(value);
}

/** The liquidity panel's sample series stays within these bounds (exit liquidity, % of TVL). */
export const LIQUIDITY_PCT_MIN = 0;
export const LIQUIDITY_PCT_MAX = 3;
/** Amihud illiquidity bounds of the same series. */
export const AMIHUD_MIN = 3.2e-11;
export const AMIHUD_MAX = 7.51e-11;

export { API_PATHS, apiPath } from './paths.ts';

// ---------------------------------------------------------------- GET /api/scanner

/** The scanner's orders: risk-adjusted APY (default), APY, TVL; each highest first. */
export const SCANNER_SORT_KEYS = ['riskAdjusted', 'apy', 'tvl'] as const;
export type ScannerSortKey = (typeof SCANNER_SORT_KEYS)[number];
export const SCANNER_DEFAULT_LIMIT = 50;
export const SCANNER_MAX_LIMIT = 500;
export const SCANNER_MAX_OFFSET = 1_000_000;
/** What anyone gets without premium: the first items of any query. */
export const SCANNER_TEASER_SIZE = 10;
/** The scanner's method (docs/methodology.md, "Pools: rapool-v3"). */
export const POOL_METHOD_VERSION = 'rapool-v3';
/** The charges of rapool-v3 (as rapool-v2's), in the method's order (the keys of a scanner item's `charges`). */
export const POOL_CHARGE_KEYS = [
  'impermanentLoss',
  'rewardPrice',
  'outflow',
  'size',
  'safety',
] as const;
export type PoolChargeKey = (typeof POOL_CHARGE_KEYS)[number];

/**
 * What an alert subscription (POST /api/alerts) watches on one source: its risk-adjusted 30-day
 * APR crossing below its base rate's, an incident opening, its data turning stale, or a warning
 * detected from its data opening (WARNING_KINDS).
 */
export const ALERT_KINDS = ['below-base', 'incident', 'stale', 'warning'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * Kinds of warnings detected from the data (docs/methodology.md, "Detected warnings"): outflow
 * (TVL falling fast), depeg (the priced token off its peg), spike (the newest APR far above its
 * 30-day mean), feeds-disagree (the share price read from the chain and DeFiLlama's feed give
 * 7-day APRs too far apart). An open outflow, depeg or feeds-disagree warning that no operator
 * dismissed rules out GREAT.
 */
export const WARNING_KINDS = ['outflow', 'depeg', 'spike', 'feeds-disagree'] as const;
export type WarningKind = (typeof WARNING_KINDS)[number];
/** The kinds that rule out GREAT while open and not dismissed. */
export const BLOCKING_WARNING_KINDS: readonly WarningKind[] = [
  'outflow',
  'depeg',
  'feeds-disagree',
];
/** How each kind of detected warning is named, on the site and in the alert e-mails. */
export const WARNING_TITLES: Record<WarningKind, string> = {
  outflow: 'Deposits leaving fast',
  depeg: 'Off its peg',
  spike: 'APR spike',
  'feeds-disagree': 'Feeds disagree',
};
/**
 * What an on-chain feed reads (sources.json `feeds`, provider `onchain`): an ERC-4626 share price,
 * a rate getter, Liquity v1's Stability Pool (a deposit's ETH and LQTY gains and its loss), an
 * Aera v3 multi-depositor vault's unit price (from its price-and-fee calculator), an Aave v3
 * (or SparkLend) reserve's liquidity index, or a Compound III Comet's base supply index.
 */
export const ONCHAIN_KINDS = [
  'erc4626',
  'rate',
  'liquity-stability-pool',
  'aera-v3',
  'aave-v3-reserve',
  'comet',
] as const;
export type OnchainKind = (typeof ONCHAIN_KINDS)[number];
/** The rate getters of an on-chain feed of kind `rate` (docs/data-sources.md says each call). */
export const RATE_CALLS = [
  'getPooledEthByShares',
  'getExchangeRate',
  'getRate',
  'exchangeRate',
] as const;
export type RateCall = (typeof RATE_CALLS)[number];

export {
  DEFAULT_WEIGHTS,
  RISK_CHARGE_KEYS,
  saverRiskAdjusted,
  WEIGHT_DEFAULT_PCT,
  WEIGHT_MAX_PCT,
  WEIGHT_MIN_PCT,
  WEIGHT_STEP_PCT,
  type ChargeWeights,
  type RiskChargeKey,
} from './weights.ts';

export {
  API_ERROR_CODES,
  COMMON_ERROR_CODES,
  isApiErrorCode,
  type ApiErrorCode,
  type CommonErrorCode,
} from './error-codes.ts';
