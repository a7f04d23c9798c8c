/**
 * Every path and method /api serves, with the schemas of its parameters, body and each answer.
 * The API registers its routes from these paths, /api/openapi.json is generated from this table,
 * and the contract test calls every entry and checks each answer against its schema.
 */
import { z } from 'zod';
import { API_PATHS } from './paths.ts';
import {
  alertSubscribeRequestSchema,
  alertSubscribeResponseSchema,
  alertTokenQuerySchema,
  alertUnsubscribeResponseSchema,
  apiErrorSchema,
  baseRatesSchema,
  earningsAnswerSchema,
  earningsQuerySchema,
  healthReportSchema,
  historyQuerySchema,
  historyResponseSchema,
  mailSignupRequestSchema,
  mailSignupResponseSchema,
  openApiDocumentSchema,
  premiumErrorSchema,
  premiumInviteRequestSchema,
  premiumLoginRequestSchema,
  premiumEmailSentSchema,
  premiumSessionSchema,
  premiumSignInQuerySchema,
  premiumStrategyAnalysisSchema,
  premiumStrategyParamsSchema,
  riskBreakdownSchema,
  scannerAnswerSchema,
  poolHistoryAnswerSchema,
  poolHistoryParamsSchema,
  scannerQuerySchema,
  seriesIdParamsSchema,
  siteSettingsSchema,
  strategyContentParamsSchema,
  strategyContentSchema,
  strategyMetricsListSchema,
  yieldSourceListSchema,
} from './schemas.ts';

/** The groups of the reference page, in its order. */
export const ENDPOINT_TAGS = [
  {
    name: 'Data',
    description:
      'Yields, base rates, history and strategy pages. Every figure is computed by method ra30-v1 from the daily history (sample data, see /api/settings).',
  },
  { name: 'Mailing list', description: 'Sign-ups for the rankings e-mail.' },
  {
    name: 'Alerts',
    description:
      'E-mail alerts on one source (double opt-in). The confirmation and unsubscribe links of the e-mails are signed and answer a short HTML page.',
  },
  {
    name: 'Premium',
    description:
      'Invite-code login and the premium analysis. Tokens are HS256 JWTs valid 30 days; send them as Authorization: Bearer.',
  },
  {
    name: 'Scanner',
    description:
      "Every pool of DeFiLlama's /pools snapshot ranked by risk-adjusted APY (method rapool-v1). Anyone gets the first 10 of any query; a premium token gets the whole ranking and CSV.",
  },
  { name: 'Status', description: 'Whether the data files loaded, for operators and monitoring.' },
  { name: 'Documentation', description: 'This document and its reference page.' },
] as const;
export type EndpointTag = (typeof ENDPOINT_TAGS)[number]['name'];

export interface ResponseSpec {
  description: string;
  /** The JSON body. Absent for a 304 and for bodies that are not JSON (see `mediaType`). */
  schema?: z.ZodType;
  /** Content type of a body that is not JSON (the reference page and its script). */
  mediaType?: 'text/html' | 'text/javascript';
  /** The same answer may also come as CSV (text/csv), e.g. with format=csv. */
  csv?: true;
}

export interface EndpointSpec {
  method: 'get' | 'post';
  /** OpenAPI path template, e.g. /api/strategies/{id}/breakdown. */
  path: `/api/${string}`;
  tag: EndpointTag;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  /**
   * `Authorization: Bearer <premium token>`: `required` (no answer but 401 without it) or
   * `optional` (the answer differs with one). Absent: a public operation.
   */
  bearer?: 'required' | 'optional';
  /** Sends ETag + `Cache-Control: public, max-age=60` and answers 304 to a matching If-None-Match. */
  cached?: true;
  /** Counted per client IP; over the limit: 429 with Retry-After. */
  rateLimited?: true;
  responses: Readonly<Record<number, ResponseSpec>>;
}

const notModified: ResponseSpec = { description: 'Not modified: If-None-Match matched the ETag.' };
const error = (description: string): ResponseSpec => ({ description, schema: apiErrorSchema });
const premiumError = (description: string): ResponseSpec => ({
  description,
  schema: premiumErrorSchema,
});
/**
 * The premium calls' errors carry `success: false`; a 408 may also be the server's own answer to
 * a request whose headers came too late (SERVER_RESPONSES), which has none.
 */
const premiumTimeout = (description: string): ResponseSpec => ({
  description: `${description} Late headers get the server's own answer, without success.`,
  schema: z.union([premiumErrorSchema, apiErrorSchema]),
});
const unavailable = error('A data file this endpoint needs has never loaded (see /api/health).');
/** What the JSON body reader refuses before a POST route runs. */
const bodyErrors = (fail: typeof error, timeout: typeof error = fail) => ({
  408: timeout(
    'request_timeout: the body was not received within 10 s (API_BODY_TIMEOUT_MS), or the headers within 10 s; the connection is closed.',
  ),
  413: fail('Body larger than 16 KB.'),
  415: fail('Content-Type is not application/json.'),
  429: fail('Too many requests from this client; see Retry-After.'),
});

/**
 * What the HTTP server itself answers to any request, before it reaches a route (the API's own
 * server and the site server alike, api/src/platform/http/client-error.ts), then closes the connection.
 * The document lists them on every operation that does not document the status itself.
 */
export const SERVER_RESPONSES = {
  408: error(
    'request_timeout: the request was not received in time (its headers within 10 s, HEADERS_TIMEOUT_MS; all of it within 30 s, REQUEST_TIMEOUT_MS).',
  ),
  431: error('headers_too_large: the request headers are larger than 16 KB.'),
} as const satisfies Record<number, ResponseSpec>;

export const endpoints = {
  health: {
    method: 'get',
    path: API_PATHS.health,
    tag: 'Status',
    summary: 'Data status',
    description:
      'Each data file: whether it loaded, when, and why its last edit was refused. Never cached.',
    responses: { 200: { description: 'Health report.', schema: healthReportSchema } },
  },
  settings: {
    method: 'get',
    path: API_PATHS.settings,
    tag: 'Data',
    summary: 'Site settings',
    description: 'Site texts, contact, socials, external URLs, and whether the data is sample.',
    cached: true,
    responses: {
      200: { description: 'Settings.', schema: siteSettingsSchema },
      304: notModified,
      503: unavailable,
    },
  },
  sources: {
    method: 'get',
    path: API_PATHS.sources,
    tag: 'Data',
    summary: 'Yield sources',
    description: 'The static yield list with current scores and incidents, base-rate rows last.',
    cached: true,
    responses: {
      200: { description: 'Sources.', schema: yieldSourceListSchema },
      304: notModified,
      503: unavailable,
    },
  },
  strategies: {
    method: 'get',
    path: API_PATHS.strategies,
    tag: 'Data',
    summary: 'Live metrics',
    description:
      'The 30-day APR, risk-adjusted APR, risk, GREAT and TVL of every source (ra30-v1).',
    cached: true,
    responses: {
      200: { description: 'Metrics, one per source.', schema: strategyMetricsListSchema },
      304: notModified,
      503: unavailable,
    },
  },
  baseRates: {
    method: 'get',
    path: API_PATHS.baseRates,
    tag: 'Data',
    summary: 'DeFi Base Rates',
    description: 'The stablecoin and crypto benchmarks: 30-day APR and risk-adjusted APR.',
    cached: true,
    responses: {
      200: { description: 'Base rates.', schema: baseRatesSchema },
      304: notModified,
      503: unavailable,
    },
  },
  history: {
    method: 'get',
    path: API_PATHS.history,
    tag: 'Data',
    summary: 'Daily history',
    description: 'The newest days of one series (7, 30, 90 or 180) and its current metrics.',
    query: historyQuerySchema,
    cached: true,
    responses: {
      200: { description: 'History.', schema: historyResponseSchema },
      304: notModified,
      400: error('invalid_id: missing, malformed or unknown id; invalid_range: not a range.'),
      503: unavailable,
    },
  },
  earnings: {
    method: 'get',
    path: API_PATHS.earnings,
    tag: 'Data',
    summary: 'Earnings calculator',
    description:
      "What an amount would have earned over the newest days of a range (7, 30, 90 or 180), compounded daily at each day's APR, and the same at the source's DeFi Base Rate, in the source's unit (USD or ETH).",
    query: earningsQuerySchema,
    responses: {
      200: { description: 'Earnings.', schema: earningsAnswerSchema },
      400: error(
        'invalid_id: missing, malformed or unknown source id; invalid_amount: not a number, not above 0 or too large; invalid_range: not a range.',
      ),
      503: unavailable,
    },
  },
  breakdown: {
    method: 'get',
    path: API_PATHS.breakdown,
    tag: 'Data',
    summary: 'Risk breakdown',
    description: 'Every charge of the ra30-v1 formula for one source or base rate, with inputs.',
    params: seriesIdParamsSchema,
    cached: true,
    responses: {
      200: { description: 'Breakdown.', schema: riskBreakdownSchema },
      304: notModified,
      400: error('invalid_id: neither a numeric id nor a base-rate key.'),
      404: error('No such source.'),
      503: unavailable,
    },
  },
  strategyContent: {
    method: 'get',
    path: API_PATHS.strategyContent,
    tag: 'Data',
    summary: 'Strategy page content',
    description: 'Texts, ratings, holdings, third-party ratings, diagram and liquidity series.',
    params: strategyContentParamsSchema,
    cached: true,
    responses: {
      200: { description: 'Content.', schema: strategyContentSchema },
      304: notModified,
      404: error('Unknown slug.'),
      503: unavailable,
    },
  },
  mailSignup: {
    method: 'post',
    path: API_PATHS.mailSignup,
    tag: 'Mailing list',
    summary: 'Join the mailing list',
    description:
      'Double opt-in: each address is stored once, whatever its letter case, with time and source, and counts only once it opened the confirmation link e-mailed to it (valid 7 days; unconfirmed sign-ups are purged after 7 days). At most one confirmation e-mail per address per 24 hours, and at most 5 per address per 24 hours together with the alerts. The answer is the same whether or not the address was on the list, and it is sent before any e-mail.',
    body: mailSignupRequestSchema,
    rateLimited: true,
    responses: {
      202: {
        description: 'Accepted: a confirmation e-mail is on its way unless one was sent lately.',
        schema: mailSignupResponseSchema,
      },
      400: error('invalid_email (or a bad source), or invalid_json.'),
      ...bodyErrors(error),
      503: error(
        'The mailing list cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  alertSubscribe: {
    method: 'post',
    path: API_PATHS.alertSubscribe,
    tag: 'Alerts',
    summary: 'Subscribe to an alert',
    description:
      'Sends a confirmation e-mail with a signed link (valid 7 days); only confirmed subscriptions get alerts, unconfirmed ones are purged after 7 days. One subscription per address (any letter case), source and kind; the answer is the same whether or not it existed or was confirmed, and it is sent before any e-mail. At most one confirmation e-mail per address, source and kind per 24 hours, and at most 5 per address per 24 hours (with the mailing list); a failed send is retried in the background and logged.',
    body: alertSubscribeRequestSchema,
    rateLimited: true,
    responses: {
      202: {
        description: 'Accepted: a confirmation e-mail is on its way.',
        schema: alertSubscribeResponseSchema,
      },
      400: error(
        'invalid_email, invalid_request (sourceId or kind), unknown_source, or invalid_json.',
      ),
      ...bodyErrors(error),
      503: error(
        'The alerts cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  alertConfirm: {
    method: 'get',
    path: API_PATHS.alertConfirm,
    tag: 'Alerts',
    summary: 'Confirm a subscription (e-mailed link)',
    description:
      'The link of the confirmation e-mail (signed, valid 7 days): the subscription gets alerts from now on. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: { description: 'HTML page: the alert is confirmed.', mediaType: 'text/html' },
      400: {
        description: 'HTML page: the link is invalid or has expired.',
        mediaType: 'text/html',
      },
      404: { description: 'HTML page: the subscription no longer exists.', mediaType: 'text/html' },
      503: {
        description:
          'HTML page: the alerts cannot be written right now (their file, or the database cannot be reached).',
        mediaType: 'text/html',
      },
    },
  },
  alertUnsubscribe: {
    method: 'get',
    path: API_PATHS.alertUnsubscribe,
    tag: 'Alerts',
    summary: 'Unsubscribe in one click (e-mailed link)',
    description:
      'The unsubscribe link of every alert e-mail (signed, does not expire): no more alerts for that subscription. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: {
        description: 'HTML page: unsubscribed (also when it already was).',
        mediaType: 'text/html',
      },
      400: { description: 'HTML page: the link is invalid.', mediaType: 'text/html' },
      503: {
        description:
          'HTML page: the alerts cannot be written right now (their file, or the database cannot be reached).',
        mediaType: 'text/html',
      },
    },
  },
  alertUnsubscribeOneClick: {
    method: 'post',
    path: API_PATHS.alertUnsubscribeOneClick,
    tag: 'Alerts',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      'What mail clients send for the List-Unsubscribe-Post header of an alert: POST with the token in the query and any body (List-Unsubscribe=One-Click).',
    query: alertTokenQuerySchema,
    responses: {
      200: {
        description: 'Unsubscribed (also when it already was).',
        schema: alertUnsubscribeResponseSchema,
      },
      400: error('invalid_token.'),
      503: error(
        'The alerts cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  mailConfirm: {
    method: 'get',
    path: API_PATHS.mailConfirm,
    tag: 'Mailing list',
    summary: 'Confirm a mailing-list sign-up (e-mailed link)',
    description:
      'The link of the confirmation e-mail (signed, valid 7 days): the address counts on the list from now on. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: { description: 'HTML page: the sign-up is confirmed.', mediaType: 'text/html' },
      400: {
        description: 'HTML page: the link is invalid or has expired.',
        mediaType: 'text/html',
      },
      404: {
        description: 'HTML page: the sign-up no longer exists (unsubscribed or purged).',
        mediaType: 'text/html',
      },
      503: {
        description: 'HTML page: the mailing list cannot be written right now.',
        mediaType: 'text/html',
      },
    },
  },
  mailUnsubscribe: {
    method: 'get',
    path: API_PATHS.mailUnsubscribe,
    tag: 'Mailing list',
    summary: 'Leave the mailing list in one click (e-mailed link)',
    description:
      'The unsubscribe link of the mailing-list e-mails (signed, does not expire): the address is removed. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: {
        description: 'HTML page: removed from the list (also when it already was).',
        mediaType: 'text/html',
      },
      400: { description: 'HTML page: the link is invalid.', mediaType: 'text/html' },
      503: {
        description: 'HTML page: the mailing list cannot be written right now.',
        mediaType: 'text/html',
      },
    },
  },
  premiumInvite: {
    method: 'post',
    path: API_PATHS.premiumInvite,
    tag: 'Premium',
    summary: 'Log in with an invite code',
    description: 'Spends one use of the code, creates a premium user, returns a 30-day token.',
    body: premiumInviteRequestSchema,
    rateLimited: true,
    responses: {
      200: { description: 'Logged in.', schema: premiumSessionSchema },
      400: premiumError('invalid_request: inviteCode missing; invalid_json.'),
      401: premiumError('invalid_invite_code, invite_code_expired or invite_code_used_up.'),
      ...bodyErrors(premiumError, premiumTimeout),
      503: premiumError(
        'Premium data cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  premiumLogin: {
    method: 'post',
    path: API_PATHS.premiumLogin,
    tag: 'Premium',
    summary: 'Bind an email to an invite code',
    description:
      "With the caller's own token (Authorization: Bearer, the one of POST /api/premium), binds the email to that user without spending a use and returns a token with the email in it. Without one it is a redemption: a new user with the email, one use spent. An email already bound to a user of the code never gets a token: a sign-in link is mailed to it instead (202), and a used-up code answers invite_code_used_up whatever the email (the link is mailed all the same).",
    body: premiumLoginRequestSchema,
    bearer: 'optional',
    rateLimited: true,
    responses: {
      200: { description: 'Activated.', schema: premiumSessionSchema },
      202: {
        description: 'The email is already bound: a sign-in link was mailed to it, no token.',
        schema: premiumEmailSentSchema,
      },
      400: premiumError('invalid_email, invalid_request (inviteCode missing) or invalid_json.'),
      401: premiumError('invalid_invite_code, invite_code_expired or invite_code_used_up.'),
      ...bodyErrors(premiumError, premiumTimeout),
      503: premiumError(
        'Premium data cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  premiumAnalysis: {
    method: 'get',
    path: API_PATHS.premiumAnalysis,
    tag: 'Premium',
    summary: 'Premium strategy analysis',
    description:
      'status ready for a known source (by id, slug or base-rate key) with breakdown, 180 days of history and ratings; analyzing for any other name.',
    params: premiumStrategyParamsSchema,
    bearer: 'required',
    responses: {
      200: { description: 'Analysis.', schema: premiumStrategyAnalysisSchema },
      400: error('invalid_id: not 1-64 letters, digits, _ or -.'),
      401: error(
        'Missing, malformed, expired, exp-less or non-premium token; premium_revoked: its user was deleted or its invite disabled (noticed within 60 s).',
      ),
      503: error(
        'The user data cannot be read to check the token: unavailable (the database; Retry-After) or data_unavailable.',
      ),
    },
  },
  premiumSignIn: {
    method: 'get',
    path: API_PATHS.premiumSignIn,
    tag: 'Premium',
    summary: 'Sign in from the e-mailed link',
    description:
      "The link mailed by POST /api/premiumLogin. A small HTML page that stores a fresh token (and the user) in the browser under premiumToken / premiumUser, as the site does after a login, and goes to the site's home page.",
    query: premiumSignInQuerySchema,
    responses: {
      200: { description: 'HTML page: signed in.', mediaType: 'text/html' },
      400: {
        description: 'HTML page: the link is invalid or has expired (1 hour).',
        mediaType: 'text/html',
      },
      404: {
        description: 'HTML page: the premium account was deleted or its code disabled.',
        mediaType: 'text/html',
      },
      503: {
        description: 'HTML page: the user data cannot be read right now.',
        mediaType: 'text/html',
      },
    },
  },
  scanner: {
    method: 'get',
    path: API_PATHS.scanner,
    tag: 'Scanner',
    summary: 'Ranked pools',
    description:
      'Filters, order and page in the query. Without a premium token the items stop at the 10th of the ranking (teaser: true) and format=csv is refused. Anonymous answers are cacheable; answers to a request with Authorization are private.',
    query: scannerQuerySchema,
    bearer: 'optional',
    cached: true,
    responses: {
      200: {
        description: 'The page of the ranking (CSV with format=csv and a premium token).',
        schema: scannerAnswerSchema,
        csv: true,
      },
      304: notModified,
      400: error(
        'invalid_query: an unknown, repeated or malformed parameter (the message says which).',
      ),
      401: error(
        'premium_required: format=csv without a valid premium token (a token whose user was deleted or whose invite was disabled counts as none within 60 s).',
      ),
      503: error(
        'The pools snapshot or the project tiers never loaded; or, with a token, the user data cannot be read to check it (unavailable, Retry-After).',
      ),
    },
  },
  poolHistory: {
    method: 'get',
    path: API_PATHS.poolHistory,
    tag: 'Scanner',
    summary: 'One pool\u2019s daily history',
    description:
      'The pool\u2019s daily rows kept by the site (one per UTC day from each /pools import, plus DeFiLlama\u2019s /chart history of the pools backfilled) and its current item of the ranking. A pool with fewer than 30 days has its backfill queued.',
    params: poolHistoryParamsSchema,
    cached: true,
    responses: {
      200: { description: 'The pool\u2019s history.', schema: poolHistoryAnswerSchema },
      304: notModified,
      400: error('invalid_pool: not a DeFiLlama pool id.'),
      404: error('not_found: no such pool in the snapshot and no history of it.'),
      503: error('The pools snapshot or the project tiers never loaded.'),
    },
  },
  openApi: {
    method: 'get',
    path: API_PATHS.openApi,
    tag: 'Documentation',
    summary: 'This OpenAPI document',
    description:
      'OpenAPI 3.1, generated from the same route table and schemas the API validates with; linted in CI with the stock rulesets of Redocly CLI and Spectral.',
    cached: true,
    responses: {
      200: { description: 'OpenAPI 3.1.', schema: openApiDocumentSchema },
      304: notModified,
    },
  },
  docs: {
    method: 'get',
    path: API_PATHS.docs,
    tag: 'Documentation',
    summary: 'API reference page',
    description: 'This document, rendered for reading (self-hosted Redoc).',
    responses: { 200: { description: 'HTML page.', mediaType: 'text/html' } },
  },
  docsScript: {
    method: 'get',
    path: API_PATHS.docsScript,
    tag: 'Documentation',
    summary: 'The reference page script',
    description:
      "Redoc's standalone bundle, served from the installed package (gzipped when the client accepts it), so the page loads nothing from other origins.",
    cached: true,
    responses: {
      200: { description: 'Redoc standalone bundle.', mediaType: 'text/javascript' },
      304: notModified,
    },
  },
} as const satisfies Record<keyof typeof API_PATHS, EndpointSpec>;

export type EndpointName = keyof typeof endpoints;
