/** Typed errors: each carries the HTTP status and the machine-readable code clients see. */
export class AppError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra top-level fields of the error body (the premium calls add `success: false`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'bad_request') =>
  new AppError(400, code, message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const unauthorized = (
  message: string,
  code = 'unauthorized',
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
