/**
 * The API contract: every response shape the remotes read. The API builds exactly these shapes;
 * the front ends read them. Field names of spec section 7 are kept verbatim.
 */

export type SourceType = 'stablecoin' | 'defi';
export type TimeRange = '7D' | '30D' | '90D' | '180D';
export const TIME_RANGES: readonly TimeRange[] = ['7D', '30D', '90D', '180D'];
export const DEFAULT_TIME_RANGE: TimeRange = '30D';
export const METHOD_VERSION = 'ra30-v1';

/** Error body of every failed call: `{error: {code, message}}` (plus spec fields where read). */
export interface ApiErrorBody {
  error: { code: string; message: string };
}

export interface SiteSettings {
  siteTitle: string;
  siteUrl: string;
  siteSlogan: string;
  siteHeader: string;
  siteDescription: string;
  siteContactEmail: string;
  socials: { x: string; telegram: string };
  externalUrls: {
    premiumPurchaseForm: string;
    premiumRequestForm: string;
    businessSignupForm: string;
    apiDocs: string;
  };
  /** Whether the yields are sample data and the date they run to (YYYY-MM-DD). */
  data: { sample: boolean; asOf: string };
}

export interface Incident {
  date: string;
  kind: string;
  summary: string;
  link: string;
  active: boolean;
}

/** GET /api/sources: the static yield list, benchmark rows (id 0) included. */
export interface YieldSource {
  id: number;
  name: string;
  token: string;
  yieldToken: string;
  type: SourceType;
  rating: number;
  safety: number;
  liquidity: number;
  yield_type: string;
  real_or_incentive: 'Real' | 'Mixed';
  yield_category: string;
  isBaseRate: boolean;
  /** Slug of the public strategy page (/options/:slug) or null for premium-only sources. */
  detailSlug: 'liquity' | 'sky-spark' | 'gauntlet' | 'lido' | null;
  incidents: Incident[];
}

/** GET /api/strategies item. `status`/`method` are additions the spec's client ignores. */
export interface StrategyMetrics {
  id: number;
  yield30d: number;
  riskAdjustedYield30d: number;
  tvl: number;
  status?: 'ok' | 'insufficient_data';
  method?: string;
}

/** GET /api/baserate */
export interface BaseRates {
  baserateDefi: number;
  baserateStable: number;
  baserateRiskAdjustedDefi: number;
  baserateRiskAdjustedStable: number;
}

/** GET /api/history?id=&range= */
export interface HistoryPoint {
  timestamp: number;
  tvl: number;
  apr: number;
}
export interface HistoryResponse {
  data: HistoryPoint[];
  lastTvl: number;
  lastApr: number;
  lastRaApr: number;
  error?: ApiErrorBody['error'];
}

export interface RiskCharges {
  volatility: number;
  incentives: number;
  safety: number;
  liquidity: number;
  size: number;
  outflow: number;
}

/** GET /api/strategies/:id/breakdown (id numeric, or base-stablecoin / base-defi). */
export interface RiskBreakdown {
  id: number | 'base-stablecoin' | 'base-defi';
  method: string;
  asOf: string;
  status: 'ok' | 'insufficient_data';
  window: { from: string; to: string; days: number };
  inputs: {
    safety: number;
    liquidity: number;
    sigma30: number;
    reward30: number;
    tvl: number;
    tvlMedian: number;
    tvlDrawdown: number;
    clampedDays: number;
  };
  yield30d: number;
  riskAdjustedYield30d: number;
  risk: number;
  charges: RiskCharges;
  great: boolean;
}

export type Rating = 'Bad' | 'Good' | 'Best';

export interface Holding {
  name: string;
  percentage: number;
  color: string;
  description: string;
}

export interface ThirdPartyRating {
  provider: string;
  providerUrl: string;
  value: string;
  date: string;
  link: string | null;
}

export interface LiquidityPoint {
  date: string;
  /** Exit liquidity, % of TVL (spec: clamped 0-3). */
  liquidityPct: number;
  /** Amihud illiquidity (spec: clamped 3.2e-11..7.51e-11). */
  amihud: number;
}

/** GET /api/strategy-content/:slug */
export interface StrategyContent {
  id: number;
  slug: 'liquity' | 'sky-spark' | 'gauntlet' | 'lido';
  name: string;
  description: string;
  investUrl: string;
  marketCap: string;
  marketCapUrl: string;
  rank: string;
  rankUrl: string;
  pageTitle: string;
  pageDescription: string;
  riskRatingBars: number;
  ratings: {
    protocolDesign: Rating;
    protocolMaturity: Rating;
    governance: Rating;
    assetStrength: Rating;
    chain: Rating;
    history: Rating;
    dependencies: Rating;
  };
  strategyContent: string[];
  yieldSourceContent: string[];
  strategyLimitsContent: string[];
  riskRatingsContent: string[];
  riskAnalysisResult: string;
  potentialLossesContent: string[];
  holdingsContent: string;
  liquidityShortResume: string;
  holdings: Holding[];
  thirdPartyRatings: ThirdPartyRating[];
  diagram: { title: string; steps: { label: string; detail: string }[] };
  liquidity: { sample: boolean; points: LiquidityPoint[] };
}

export interface PremiumUser {
  userId: string;
  email: string | null;
  accessLevel: 'premium';
}

/** POST /api/premium */
export interface PremiumInviteResponse {
  success: boolean;
  token?: string;
  user?: PremiumUser;
  error?: ApiErrorBody['error'] | string;
}

/** POST /api/premiumLogin */
export interface PremiumLoginResponse {
  success: boolean;
  token?: string;
  error?: ApiErrorBody['error'] | string;
}

/** GET /api/premium/strategies/:id (koa-jwt protected) */
export interface PremiumStrategyAnalysis {
  id: number;
  name: string;
  status: 'ready' | 'analyzing';
  source: YieldSource | null;
  breakdown: RiskBreakdown | null;
  history: HistoryPoint[];
  thirdPartyRatings: ThirdPartyRating[];
  summary: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  files: Record<string, { loaded: boolean; loadedAt: string | null; error: string | null }>;
}
