/**
 * What an endpoint entry of the contract says (method, path, schemas, answers, token, cache, rate
 * limit), the reference page's groups, and the answers every entry shares. Each module of
 * ./modules declares its own entries with these; ./endpoints.ts is the whole table.
 */
import { z } from 'zod';
import { COMMON_ERROR_CODES, type ApiErrorCode } from './error-codes.ts';
import { apiErrorOf, premiumErrorOf, type ErrorCodes } from './modules/common.ts';

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
      "Every pool of DeFiLlama's /pools snapshot ranked by risk-adjusted APR (method rapool-v3: the APR expected over the next 30 days minus charges for losses the APY does not show). Anyone gets the first 10 of any query; a premium token gets the whole ranking and CSV.",
  },
  {
    name: 'Site',
    description: "Reports from the site's pages in the browser (errors of the remotes).",
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
  /** An error answer: the codes it may carry (`error(codes, description)`). */
  codes?: readonly ApiErrorCode[];
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
  /** Largest JSON body accepted, in bytes (413 beyond it). Default 16 KB (MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  responses: Readonly<Record<number, ResponseSpec>>;
}

export const notModified: ResponseSpec = {
  description: 'Not modified: If-None-Match matched the ETag.',
};
/** An error answer: the codes it may carry, and its body's schema, which accepts only those. */
export interface ErrorResponseSpec<C extends ErrorCodes, S extends z.ZodType> extends ResponseSpec {
  codes: C;
  schema: S;
}

/** An error answer that may carry only `codes` (api/test/contract.test.ts checks every one). */
export const error = <const C extends ErrorCodes>(codes: C, description: string) =>
  ({ description, codes, schema: apiErrorOf(codes) }) satisfies ErrorResponseSpec<C, z.ZodType>;
/** The same, for the premium calls: their errors carry `success: false`. */
export const premiumError = <const C extends ErrorCodes>(codes: C, description: string) =>
  ({ description, codes, schema: premiumErrorOf(codes) }) satisfies ErrorResponseSpec<C, z.ZodType>;
/**
 * The premium calls' errors carry `success: false`; a 408 may also be the server's own answer to
 * a request whose headers came too late (SERVER_RESPONSES), which has none.
 */
export const premiumTimeout = <const C extends ErrorCodes>(codes: C, description: string) =>
  ({
    description: `${description} Late headers get the server's own answer, without success.`,
    codes,
    schema: z.union([premiumErrorOf(codes), apiErrorOf(codes)]),
  }) satisfies ErrorResponseSpec<C, z.ZodType>;
export const unavailable = error(
  ['data_unavailable'],
  'A data file this endpoint needs has never loaded (see /api/health).',
);
const BODY_ERRORS = {
  408: 'request_timeout: the body was not received within 10 s (API_BODY_TIMEOUT_MS), or the headers within 10 s; the connection is closed.',
  413: 'Body larger than 16 KB.',
  415: 'Content-Type is not application/json.',
  429: 'Too many requests from this client; see Retry-After.',
} as const;
/** What the JSON body reader and the rate limit refuse before a POST route runs. */
export const bodyErrors = {
  408: error(['request_timeout'], BODY_ERRORS[408]),
  413: error(['payload_too_large'], BODY_ERRORS[413]),
  415: error(['unsupported_media_type'], BODY_ERRORS[415]),
  429: error(['rate_limited'], BODY_ERRORS[429]),
};
/** The same for the premium calls (`success: false`). */
export const premiumBodyErrors = {
  408: premiumTimeout(['request_timeout'], BODY_ERRORS[408]),
  413: premiumError(['payload_too_large'], BODY_ERRORS[413]),
  415: premiumError(['unsupported_media_type'], BODY_ERRORS[415]),
  429: premiumError(['rate_limited'], BODY_ERRORS[429]),
};

/**
 * What the HTTP server itself answers to any request, before it reaches a route (the API's own
 * server and the site server alike, api/src/platform/http/client-error.ts), then closes the connection.
 * The document lists them on every operation that does not document the status itself.
 */
export const SERVER_RESPONSES = {
  408: error(
    ['request_timeout'],
    'request_timeout: the request was not received in time (its headers within 10 s, HEADERS_TIMEOUT_MS; all of it within 30 s, REQUEST_TIMEOUT_MS).',
  ),
  431: error(
    ['headers_too_large'],
    'headers_too_large: the request headers are larger than 16 KB.',
  ),
} as const satisfies Record<number, ResponseSpec>;

/** The answer to an unexpected failure, on every operation. */
export const INTERNAL_ERROR = error(
  ['internal_error'],
  'Unexpected failure; the details are in the server log only.',
);

/**
 * Every code an endpoint may answer: the codes of each of its error answers, and the ones any
 * request may get (COMMON_ERROR_CODES).
 */
export function errorCodesOf(spec: EndpointSpec): ApiErrorCode[] {
  const own = Object.values(spec.responses).flatMap((r) => r.codes ?? []);
  return [...new Set<ApiErrorCode>([...own, ...COMMON_ERROR_CODES])];
}
