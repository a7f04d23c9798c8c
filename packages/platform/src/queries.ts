/**
 * One query per GET endpoint and one mutation per POST endpoint of /api, used by every app: the
 * cache key, the request and the freshness of each call are decided here, once. Views add only
 * view options (`enabled`, `placeholderData`, callbacks):
 *
 *   useQuery(breakdownQuery(id))
 *   useQuery({ ...historyQuery(id, range), placeholderData: keepPreviousData })
 *   useMutation({ ...mailSignupMutation(), onSuccess })
 *
 * Retry, back-off, garbage collection and refetch on focus/reconnect come from the shared
 * QueryClient (query-client.ts). `staleTime` follows the API's own caching: computed figures are
 * fresh as long as the API's `max-age=60`; operator texts for 5 minutes.
 */
import {
  infiniteQueryOptions,
  mutationOptions,
  queryOptions,
  type QueryClient,
} from '@tanstack/react-query';
import {
  API_PATHS,
  apiPath,
  isStrategySlug,
  SCANNER_MAX_LIMIT,
  type ScannerSortKey,
  type SeriesId,
  type StrategySlug,
  type TimeRange,
} from '@yield/contract/constants';
import type {
  AlertSubscribeRequest,
  MailSignupRequest,
  PremiumInviteRequest,
  PremiumLoginRequest,
  ScannerAnswer,
} from '@yield/contract';
import { authFetch, getAnswer, isClientError, postAnswer } from './api-client.ts';

const FIGURES_STALE_MS = 60_000;
const TEXTS_STALE_MS = 5 * 60_000;

/** Every cache key of the API's data. Ids are keyed as the API spells them (`'3'`, `'base-defi'`). */
export const queryKeys = {
  settings: ['settings'] as const,
  sources: ['sources'] as const,
  strategies: ['strategies'] as const,
  baseRates: ['baserate'] as const,
  history: (id: SeriesId, range: TimeRange) => ['history', String(id), range] as const,
  breakdown: (id: SeriesId) => ['breakdown', String(id)] as const,
  earnings: (id: number, amount: number, range: TimeRange) =>
    ['earnings', String(id), amount, range] as const,
  netYield: (id: number, amount: number, days: number) =>
    ['net-yield', String(id), amount, days] as const,
  strategyContent: (slug: StrategySlug) => ['strategy-content', slug] as const,
  /** Every premium analysis (cleared together when the session ends). */
  premiumAnalyses: ['premium-analysis'] as const,
  /** Per token too, so one member's report is never shown under another session. */
  premiumAnalysis: (strategy: string, token: string | null) =>
    ['premium-analysis', strategy, token] as const,
  /** Per token too: the teaser and a member's full ranking are different answers. */
  scanner: (filters: ScannerFilters, token: string | null) => ['scanner', filters, token] as const,
  trackRecord: ['track-record'] as const,
  scannerTrackRecord: ['track-record', 'scanner'] as const,
  poolHistory: (pool: string) => ['pool-history', pool.toLowerCase()] as const,
  /** The amount is in each source's own unit (USD or ETH). */
  netYieldRanking: (amount: number, days: number) => ['net-yield-ranking', amount, days] as const,
};

/**
 * The cache key of a plain GET (no query string) that a page may receive with its HTML (the
 * first paint's `data`): the key its query factory uses, or null when no query reads that path.
 */
export function queryKeyOfPath(path: string): readonly unknown[] | null {
  if (path === API_PATHS.settings) return queryKeys.settings;
  if (path === API_PATHS.sources) return queryKeys.sources;
  if (path === API_PATHS.strategies) return queryKeys.strategies;
  if (path === API_PATHS.baseRates) return queryKeys.baseRates;
  const contentPrefix = API_PATHS.strategyContent.replace('{slug}', '');
  if (path.startsWith(contentPrefix)) {
    const slug = decodeURIComponent(path.slice(contentPrefix.length));
    return isStrategySlug(slug) ? queryKeys.strategyContent(slug) : null;
  }
  return null;
}

/** Puts API answers keyed by path (see queryKeyOfPath) into the cache, as of `updatedAt`. */
export function seedAnswers(
  client: QueryClient,
  answers: Record<string, unknown>,
  updatedAt: number,
): void {
  for (const [path, answer] of Object.entries(answers)) {
    const key = queryKeyOfPath(path);
    if (key) client.setQueryData(key, answer, { updatedAt });
  }
}

/** The scanner's filters and order (GET /api/scanner's query without paging and format). */
export interface ScannerFilters {
  asset?: string;
  chain?: string;
  project?: string;
  stablecoin?: boolean;
  minTvl?: number;
  sort: ScannerSortKey;
  includeOutliers: boolean;
}

/** Pools per page of the scanner's infinite list (premium; the teaser stops at its size). */
export const SCANNER_PAGE_SIZE = 100;

function scannerQuery(
  filters: ScannerFilters,
  extra: Record<string, string | number>,
): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === '') continue;
    if (key === 'includeOutliers' && value === false) continue;
    query[key] = typeof value === 'boolean' ? String(value) : value;
  }
  return { ...query, ...extra };
}

/**
 * GET /api/scanner, page after page (`offset`). The stored token goes along (getAnswer sends it):
 * without premium the answer is the teaser and there is no next page.
 */
export function scannerPagesQuery(filters: ScannerFilters, token: string | null) {
  return infiniteQueryOptions({
    queryKey: queryKeys.scanner(filters, token),
    queryFn: ({ pageParam }) =>
      getAnswer(
        'scanner',
        {},
        scannerQuery(filters, { offset: pageParam, limit: SCANNER_PAGE_SIZE }),
      ),
    initialPageParam: 0,
    getNextPageParam: (last: ScannerAnswer) => {
      const next = last.offset + last.items.length;
      return last.teaser || last.items.length === 0 || next >= last.total ? undefined : next;
    },
    retry: (failures, error) => !isClientError(error) && failures < 3,
    staleTime: FIGURES_STALE_MS,
  });
}

/** GET /api/scanner?format=csv (premium): the first SCANNER_MAX_LIMIT matches as CSV text. */
export function scannerCsvMutation() {
  return mutationOptions({
    mutationKey: ['scanner-csv'],
    mutationFn: async (filters: ScannerFilters) => {
      const response = await authFetch(
        apiPath(
          API_PATHS.scanner,
          {},
          scannerQuery(filters, { format: 'csv', limit: SCANNER_MAX_LIMIT }),
        ),
      );
      if (!response.ok) throw new Error(`The download failed (HTTP ${response.status})`);
      return response.text();
    },
    retry: false,
  });
}

/** GET /api/settings. The server's first paint seeds this key (first-paint.ts, server.tsx). */
export const settingsQuery = queryOptions({
  queryKey: queryKeys.settings,
  queryFn: () => getAnswer('settings'),
  staleTime: TEXTS_STALE_MS,
});

/** GET /api/sources */
export const sourcesQuery = queryOptions({
  queryKey: queryKeys.sources,
  queryFn: () => getAnswer('sources'),
  staleTime: TEXTS_STALE_MS,
});

/** GET /api/strategies */
export const strategiesQuery = queryOptions({
  queryKey: queryKeys.strategies,
  queryFn: () => getAnswer('strategies'),
  staleTime: FIGURES_STALE_MS,
});

/** GET /api/baserate */
export const baseRatesQuery = queryOptions({
  queryKey: queryKeys.baseRates,
  queryFn: () => getAnswer('baseRates'),
  staleTime: FIGURES_STALE_MS,
});

/** GET /api/track-record (its CSV is a plain link: `trackRecordCsvPath`). */
export const trackRecordQuery = queryOptions({
  queryKey: queryKeys.trackRecord,
  queryFn: () => getAnswer('trackRecord'),
  staleTime: FIGURES_STALE_MS,
});

/** The track record as a CSV download (GET /api/track-record?format=csv). */
export const trackRecordCsvPath = apiPath(API_PATHS.trackRecord, {}, { format: 'csv' });

/** GET /api/track-record/scanner: the scanner's top 10 month by month. */
export const scannerTrackRecordQuery = queryOptions({
  queryKey: queryKeys.scannerTrackRecord,
  queryFn: () => getAnswer('scannerTrackRecord'),
  staleTime: FIGURES_STALE_MS,
});

/** The scanner's track record as a CSV download (GET /api/track-record/scanner?format=csv). */
export const scannerTrackRecordCsvPath = apiPath(
  API_PATHS.scannerTrackRecord,
  {},
  { format: 'csv' },
);

/** GET /api/history?id=&range= */
export function historyQuery(id: SeriesId, range: TimeRange) {
  return queryOptions({
    queryKey: queryKeys.history(id, range),
    queryFn: () => getAnswer('history', {}, { id, range }),
    staleTime: FIGURES_STALE_MS,
  });
}

/** GET /api/earnings?id=&amount=&range= (a 400 is an answer about the amount: not retried). */
export function earningsQuery(id: number, amount: number, range: TimeRange) {
  return queryOptions({
    queryKey: queryKeys.earnings(id, amount, range),
    queryFn: () => getAnswer('earnings', {}, { id, amount, range }),
    retry: (failures, error) => !isClientError(error) && failures < 3,
    staleTime: FIGURES_STALE_MS,
  });
}

/** GET /api/net-yield?id=&amount=&days= (a 400 is an answer about the input: not retried). */
export function netYieldQuery(id: number, amount: number, days: number) {
  return queryOptions({
    queryKey: queryKeys.netYield(id, amount, days),
    queryFn: () => getAnswer('netYield', {}, { id, amount, days }),
    retry: (failures, error) => !isClientError(error) && failures < 3,
    staleTime: FIGURES_STALE_MS,
  });
}

/** GET /api/strategies/:id/breakdown */
export function breakdownQuery(id: SeriesId) {
  return queryOptions({
    queryKey: queryKeys.breakdown(id),
    queryFn: () => getAnswer('breakdown', { id }),
    staleTime: FIGURES_STALE_MS,
  });
}

/**
 * GET /api/scanner/pools/:pool/history. While the answer says its backfill is queued, asked
 * again every 20 s until the longer history arrives.
 */
export function poolHistoryQuery(pool: string) {
  return queryOptions({
    queryKey: queryKeys.poolHistory(pool),
    queryFn: () => getAnswer('poolHistory', { pool }),
    retry: (failures, error) => !isClientError(error) && failures < 3,
    refetchInterval: (query) => (query.state.data?.backfill === 'queued' ? 20_000 : false),
    staleTime: FIGURES_STALE_MS,
  });
}

/**
 * GET /api/net-yield/ranking?amount=&days=: every source ranked by net APR for that amount (in
 * each source's unit). A 400 is an answer about the amount or the days: not retried.
 */
export function netYieldRankingQuery(amount: number, days: number) {
  return queryOptions({
    queryKey: queryKeys.netYieldRanking(amount, days),
    queryFn: () => getAnswer('netYieldRanking', {}, { amount, days }),
    retry: (failures, error) => !isClientError(error) && failures < 3,
    staleTime: FIGURES_STALE_MS,
  });
}

/** GET /api/strategy-content/:slug */
export function strategyContentQuery(slug: StrategySlug) {
  return queryOptions({
    queryKey: queryKeys.strategyContent(slug),
    queryFn: () => getAnswer('strategyContent', { slug }),
    staleTime: TEXTS_STALE_MS,
  });
}

/**
 * GET /api/premium/strategies/:id with the stored token (getAnswer sends it). A client error (401,
 * 400) is an answer, not an outage: it is not retried.
 */
export function premiumAnalysisQuery(strategy: string, token: string | null) {
  return queryOptions({
    queryKey: queryKeys.premiumAnalysis(strategy, token),
    queryFn: () => getAnswer('premiumAnalysis', { id: strategy }),
    retry: (failures, error) => !isClientError(error) && failures < 3,
    staleTime: FIGURES_STALE_MS,
  });
}

/** POST /api/addToMailList. A sign-up is not retried behind the user's back. */
export function mailSignupMutation() {
  return mutationOptions({
    mutationKey: ['addToMailList'],
    mutationFn: (body: MailSignupRequest) => postAnswer('mailSignup', body),
    retry: false,
  });
}

/** POST /api/alerts: subscribe to an alert (a confirmation e-mail follows). Not retried either. */
export function alertSubscribeMutation() {
  return mutationOptions({
    mutationKey: ['alerts'],
    mutationFn: (body: AlertSubscribeRequest) => postAnswer('alertSubscribe', body),
    retry: false,
  });
}

/**
 * POST /api/premium: the invite-code login. Anything short of `success: true` with a token is a
 * failure, like an error status (the page shows one toast for every failure).
 */
export function premiumInviteMutation() {
  return mutationOptions({
    mutationKey: ['premium'],
    mutationFn: async (body: PremiumInviteRequest) => {
      const session = await postAnswer('premiumInvite', body);
      if (session.success !== true || !session.token)
        throw new Error('The invite code was not accepted');
      return session;
    },
  });
}

/**
 * POST /api/premiumLogin with the stored token: binds an email to the invite's premium account
 * and answers a new token (200). Without that token the API mails a sign-in link instead (202,
 * no token): not an activation, so a failure here.
 */
export function premiumLoginMutation() {
  return mutationOptions({
    mutationKey: ['premiumLogin'],
    mutationFn: async (body: PremiumLoginRequest) => {
      const session = await postAnswer('premiumLogin', body);
      if (session.success !== true || !('token' in session))
        throw new Error('Activation was not accepted');
      return session;
    },
  });
}
