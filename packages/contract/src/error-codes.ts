/**
 * Every `error.code` the API answers, without zod (front ends import it at run time through
 * `@yield/contract/constants`). Each entry of the route table lists, per answer, the codes that
 * answer may carry (endpoint-spec.ts, `error(codes, description)`); COMMON_ERROR_CODES are the
 * ones any request may get whatever its endpoint. The API's error helpers take only these codes
 * (api/src/platform/http/errors.ts), so a code the contract does not know does not compile.
 */

/**
 * What any request may be answered whatever its endpoint: a malformed request (400), its headers
 * or body too late (408) or too large (431), a method its path does not serve (405) or no server
 * knows (501), an unexpected failure (500).
 */
export const COMMON_ERROR_CODES = [
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'method_not_allowed',
  'not_implemented',
  'internal_error',
] as const;

/** Every code, the common ones first. */
export const API_ERROR_CODES = [
  // Any request, before or whatever its route.
  ...COMMON_ERROR_CODES,
  // A path that is no endpoint, or a resource an endpoint does not have.
  'not_found',
  // The JSON body reader and the rate limits.
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  // Data files not loaded; the user data's store not writable or not reachable.
  'data_unavailable',
  'unavailable',
  // Parameters and bodies.
  'invalid_as_of',
  'invalid_id',
  'invalid_range',
  'invalid_amount',
  'invalid_days',
  'invalid_query',
  'invalid_pool',
  'invalid_email',
  'invalid_request',
  'invalid_token',
  'unknown_source',
  // Invite codes and premium tokens.
  'invalid_invite_code',
  'invite_code_expired',
  'invite_code_used_up',
  'unauthorized',
  'not_premium',
  'premium_revoked',
  'premium_required',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export type CommonErrorCode = (typeof COMMON_ERROR_CODES)[number];

/** Whether `value` is a code of the contract (a client reading an error body checks it). */
export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return (API_ERROR_CODES as readonly unknown[]).includes(value);
}
