/**
 * Typed errors: each carries the HTTP status and the machine-readable code clients see, one of
 * the contract's codes (API_ERROR_CODES; each endpoint's entry lists the ones it answers).
 */
import { DataFileError } from '../files/data-store.ts';
import { UserDataUnavailableError } from '../store-health.ts';
import type { Logger } from '../logger.ts';
import type { ApiErrorCode } from '@yield/contract/constants';

export class AppError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra top-level fields of the error body (the premium calls add `success: false`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * The methods the servers know (@koa/router's own list): a request with any other method is
 * answered 501 `not_implemented`, whatever its path.
 */
export const KNOWN_METHODS: readonly string[] = Object.freeze([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
]);

/**
 * The answer to a method a path does not serve, or null when `allowed` (the path's methods) has
 * it: 501 `not_implemented` for a method outside KNOWN_METHODS, else 405 `method_not_allowed`.
 * Both carry `Allow` with the path's methods when it has any. A client's mistake, not a failure of
 * the server: neither is logged as an error (errorHandler).
 */
export function methodRefusal(
  method: string,
  allowed: readonly string[],
  path: string,
): AppError | null {
  const verb = method.toUpperCase();
  const known = KNOWN_METHODS.includes(verb);
  if (known && allowed.includes(verb)) return null;
  const list = KNOWN_METHODS.filter((m) => allowed.includes(m));
  const headers: Record<string, string> = list.length ? { Allow: list.join(', ') } : {};
  return known
    ? new AppError(
        405,
        'method_not_allowed',
        `${path} answers ${list.join(', ')}, not ${verb}`,
        headers,
      )
    : new AppError(
        501,
        'not_implemented',
        `The method ${verb} is not implemented here (this server answers ${KNOWN_METHODS.join(', ')})`,
        headers,
      );
}

export const badRequest = (message: string, code: ApiErrorCode = 'bad_request') =>
  new AppError(400, code, message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const unauthorized = (
  message: string,
  code: ApiErrorCode = 'unauthorized',
  extra: Record<string, unknown> = {},
) => new AppError(401, code, message, { 'WWW-Authenticate': 'Bearer' }, extra);
export const unavailable = (message: string) => new AppError(503, 'data_unavailable', message);

/**
 * The database of the user data cannot be reached (UserDataUnavailableError): 503 `unavailable`
 * with Retry-After. Nothing was written; the client tries again.
 */
export const storeUnavailable = (
  err: { retryAfterSeconds: number },
  extra: Record<string, unknown> = {},
) =>
  new AppError(
    503,
    'unavailable',
    'This cannot be saved right now, please try again in a few seconds',
    { 'Retry-After': String(err.retryAfterSeconds) },
    extra,
  );

/**
 * The one mapping of the user data's failures to their documented 503, for every write (the
 * routes let these errors through; the errorHandler, premium's `guarded` and the HTML pages of the
 * e-mailed links call it):
 *
 * - UserDataUnavailableError (the database cannot be reached): `unavailable` with Retry-After.
 *   Not logged per request: the PostgreSQL store logs the outage once, when it starts.
 * - DataFileError (a user-data file or its journal cannot be written): `data_unavailable`, logged
 *   as one line without a stack trace (logStoreFailure).
 *
 * Anything else: null (not a failure of the store).
 */
export function storeFailure(err: unknown, extra: Record<string, unknown> = {}): AppError | null {
  let mapped: AppError;
  if (err instanceof UserDataUnavailableError) mapped = storeUnavailable(err, extra);
  else if (err instanceof DataFileError)
    mapped = new AppError(
      503,
      'data_unavailable',
      'This cannot be saved right now, please try again later',
      {},
      extra,
    );
  else return null;
  (mapped as { cause?: unknown }).cause = err;
  return mapped;
}

/** Whether `err` is a failure of the store mapped by storeFailure. */
export function isStoreFailure(err: unknown): err is AppError {
  const cause = err instanceof AppError ? (err as { cause?: unknown }).cause : undefined;
  return cause instanceof DataFileError || cause instanceof UserDataUnavailableError;
}

/** The log line of a store failure (storeFailure), once per request and never with a stack. */
export function logStoreFailure(
  logger: Logger,
  request: { method: string; path: string },
  err: unknown,
): void {
  const cause = err instanceof AppError ? (err as { cause?: unknown }).cause : err;
  if (!(cause instanceof DataFileError)) return;
  logger.error('user data not writable', {
    method: request.method,
    path: request.path,
    file: cause.file,
    error: cause.message,
  });
}
