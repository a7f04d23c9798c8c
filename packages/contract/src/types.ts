/**
 * TypeScript types of the /api contract, inferred from the schemas: nothing here is written by
 * hand. Front ends import these with `import type` only, so no zod reaches a browser bundle.
 */
import type { z } from 'zod';
import type * as s from './schemas.ts';
import type { EndpointName, endpoints } from './endpoints.ts';

export type ApiErrorBody = z.infer<typeof s.apiErrorSchema>;
export type PremiumErrorBody = z.infer<typeof s.premiumErrorSchema>;
export type FileStatus = z.infer<typeof s.fileStatusSchema>;
export type HealthReport = z.infer<typeof s.healthReportSchema>;
export type SiteSettings = z.infer<typeof s.siteSettingsSchema>;
export type Incident = z.infer<typeof s.incidentSchema>;
export type Provenance = z.infer<typeof s.provenanceSchema>;
export type Feed = z.infer<typeof s.feedSchema>;
export type ImportRun = z.infer<typeof s.importRunSchema>;
export type PoolsImport = z.infer<typeof s.poolsImportSchema>;
export type FeedOutcome = z.infer<typeof s.feedOutcomeSchema>;
export type PoolSelector = z.infer<typeof s.poolSelectorSchema>;
export type LeftOutDay = z.infer<typeof s.leftOutDaySchema>;
export type LeftOutPool = z.infer<typeof s.leftOutPoolSchema>;
export type Exit = z.infer<typeof s.exitSchema>;
export type DepositsPaused = z.infer<typeof s.depositsPausedSchema>;
export type DetectedWarning = z.infer<typeof s.detectedWarningSchema>;
export type WarningThresholds = z.infer<typeof s.warningThresholdsSchema>;
export type PriceOutcome = z.infer<typeof s.priceOutcomeSchema>;
export type SourceRow = z.infer<typeof s.sourceRowSchema>;
export type BaseRateRow = z.infer<typeof s.baseRateRowSchema>;
/** A row of GET /api/sources: a yield source or a DeFi Base Rate row (`isBaseRate` tells). */
export type YieldSource = z.infer<typeof s.yieldSourceSchema>;
export type StrategyMetrics = z.infer<typeof s.strategyMetricsSchema>;
export type BaseRates = z.infer<typeof s.baseRatesSchema>;
export type HistoryPoint = z.infer<typeof s.historyPointSchema>;
export type HistoryQuery = z.input<typeof s.historyQuerySchema>;
export type HistoryResponse = z.infer<typeof s.historyResponseSchema>;
export type EarningsQuery = z.input<typeof s.earningsQuerySchema>;
export type EarningsAnswer = z.infer<typeof s.earningsAnswerSchema>;
export type NetYieldQuery = z.input<typeof s.netYieldQuerySchema>;
export type NetYieldAnswer = z.infer<typeof s.netYieldAnswerSchema>;
export type NetCost = z.infer<typeof s.netCostSchema>;
export type NetYieldRankingQuery = z.input<typeof s.netYieldRankingQuerySchema>;
export type NetYieldRankingAnswer = z.infer<typeof s.netYieldRankingAnswerSchema>;
export type NetYieldRankingItem = z.infer<typeof s.netYieldRankingItemSchema>;
export type RiskCharges = z.infer<typeof s.riskChargesSchema>;
export type RiskBreakdown = z.infer<typeof s.riskBreakdownSchema>;
export type Holding = z.infer<typeof s.holdingSchema>;
export type ThirdPartyRating = z.infer<typeof s.thirdPartyRatingSchema>;
export type LiquidityPoint = z.infer<typeof s.liquidityPointSchema>;
export type StrategyContent = z.infer<typeof s.strategyContentSchema>;
export type MailSignupRequest = z.input<typeof s.mailSignupRequestSchema>;
export type MailSignupResponse = z.infer<typeof s.mailSignupResponseSchema>;
export type RemoteErrorReport = z.input<typeof s.remoteErrorRequestSchema>;
export type AlertSubscribeRequest = z.input<typeof s.alertSubscribeRequestSchema>;
export type AlertSubscribeResponse = z.infer<typeof s.alertSubscribeResponseSchema>;
export type PremiumInviteRequest = z.input<typeof s.premiumInviteRequestSchema>;
export type PremiumLoginRequest = z.input<typeof s.premiumLoginRequestSchema>;
export type PremiumUser = z.infer<typeof s.premiumUserSchema>;
/** The answer of POST /api/premium and POST /api/premiumLogin. */
export type PremiumSession = z.infer<typeof s.premiumSessionSchema>;
export type PremiumStrategyAnalysis = z.infer<typeof s.premiumStrategyAnalysisSchema>;
export type ScannerQuery = z.output<typeof s.scannerQuerySchema>;
export type ScannerItem = z.infer<typeof s.scannerItemSchema>;
export type ScannerAnswer = z.infer<typeof s.scannerAnswerSchema>;
export type TrackRecord = z.infer<typeof s.trackRecordSchema>;
export type TrackRecordMonth = z.infer<typeof s.trackRecordMonthSchema>;
export type ScannerTrackRecord = z.infer<typeof s.scannerTrackRecordSchema>;
export type ScannerTrackMonth = z.infer<typeof s.scannerTrackMonthSchema>;
export type PoolHistoryAnswer = z.infer<typeof s.poolHistoryAnswerSchema>;
export type PoolHistoryDay = z.infer<typeof s.poolHistoryDaySchema>;

type Responses<K extends EndpointName> = (typeof endpoints)[K]['responses'];
type SuccessStatus<K extends EndpointName> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204>;

/**
 * The JSON body of an endpoint's successful answers, inferred from its entry of the route table
 * (the client's queries take their types from here, so a change of the contract reaches them).
 */
export type AnswerBody<K extends EndpointName> = {
  [S in SuccessStatus<K>]: Responses<K>[S] extends { schema: infer Z extends z.ZodType }
    ? z.infer<Z>
    : never;
}[SuccessStatus<K>];

/** The JSON body an endpoint reads, as a client writes it (the input of its body schema). */
export type RequestBody<K extends EndpointName> = (typeof endpoints)[K] extends {
  body: infer B extends z.ZodType;
}
  ? z.input<B>
  : never;
