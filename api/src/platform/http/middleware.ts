import type { IncomingMessage } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import {
  AppError,
  isStoreFailure,
  logStoreFailure,
  methodRefusal,
  storeFailure,
} from './errors.ts';
import type { Logger } from '../logger.ts';
import type { CachedBody } from './cached-body.ts';
import type { ApiErrorCode } from '@yield/contract/constants';

/**
 * Codes for statuses Koa or koa-jwt raise themselves (ctx.throw), so every error body has one of
 * the contract's codes; any other status answers bad_request (4xx) or internal_error (5xx).
 */
const CODE_BY_STATUS: Partial<Record<number, ApiErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  501: 'not_implemented',
  503: 'unavailable',
};

const codeOfStatus = (status: number): ApiErrorCode =>
  CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');

/**
 * 5xx answers that are not failures to log: the database's outage (logged once by its store) and
 * a method the API does not implement (a client's request, methodRefusal).
 */
const QUIET_CODES: ReadonlySet<ApiErrorCode> = new Set(['unavailable', 'not_implemented']);

/**
 * Wraps @koa/router's allowedMethods, which answers a path's other methods with a bare 405 and an
 * unknown method with a bare 501: both become the JSON error of methodRefusal, with `Allow`.
 */
export function methodErrors(allowedMethods: (ctx: never, next: Next) => unknown): Middleware {
  return async (ctx, next) => {
    // The router's middleware reads only what every Koa context has (method, matched routes).
    await allowedMethods(ctx as never, next);
    if (ctx.body !== undefined || (ctx.status !== 405 && ctx.status !== 501)) return;
    const allowed = ctx.response
      .get('Allow')
      .split(',')
      .map((m) => m.trim());
    ctx.remove('Allow');
    const refusal = methodRefusal(ctx.method, allowed, ctx.path);
    if (refusal) throw refusal;
  };
}

/**
 * First middleware: turns every failure into `{error: {code, message}}`. Messages of unexpected
 * errors are replaced (they may name files or internals); the stack goes to the log only.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, 'not_found', `No API endpoint ${ctx.method} ${ctx.path}`);
      }
    } catch (caught) {
      // A failure of the user-data store, from any route: its documented 503 (storeFailure).
      const err = storeFailure(caught) ?? caught;
      const e = err as Partial<AppError> & {
        status?: number;
        statusCode?: number;
        expose?: boolean;
        message?: string;
      };
      const status =
        typeof e.status === 'number' && e.status >= 400 && e.status < 600 ? e.status : 500;
      const code = err instanceof AppError ? err.code : codeOfStatus(status);
      // Our own AppError messages are written for clients; anything else only below 500.
      const message =
        err instanceof AppError
          ? err.message
          : status < 500 && e.expose && e.message
            ? e.message
            : status < 500
              ? code
              : 'Internal server error';
      // An unreachable database is logged once by the store (pg-user-data.ts), not per request;
      // a user-data file that cannot be written is one line per request, without a stack.
      if (isStoreFailure(err)) {
        logStoreFailure(logger, ctx, err);
      } else if (status >= 500 && !(err instanceof AppError && QUIET_CODES.has(err.code))) {
        logger.error('request failed', {
          requestId: ctx.state.requestId as string | undefined,
          method: ctx.method,
          path: ctx.path,
          status,
          error: (err as Error)?.message,
          stack: (err as Error)?.stack,
        });
      }
      ctx.status = status;
      if (err instanceof AppError) {
        for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
        ctx.body = { ...err.extra, error: { code, message } };
      } else {
        ctx.body = { error: { code, message } };
      }
      // koa-jwt's own 401s lack the challenge header RFC 6750 asks for.
      if (status === 401 && !ctx.response.get('WWW-Authenticate'))
        ctx.set('WWW-Authenticate', 'Bearer');
      ctx.set('Cache-Control', 'no-store');
    }
  };
}

/** Headers every API response carries. The API returns JSON only, so its CSP forbids everything. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
});
const SECURITY_HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

export const securityHeaders: Middleware = async (ctx, next) => {
  // Set on the raw response up front so error responses carry them too.
  for (const [k, v] of SECURITY_HEADER_ENTRIES) ctx.res.setHeader(k, v);
  await next();
};

export const DATA_CACHE_CONTROL = 'public, max-age=60';

/** Sends a precomputed body with its ETag; 304 when the client already has it. */
export function sendCached(
  ctx: Context,
  cached: CachedBody,
  cacheControl = DATA_CACHE_CONTROL,
  type = 'application/json; charset=utf-8',
): void {
  ctx.set('ETag', cached.etag);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('Vary', 'Accept-Encoding');
  const inm = ctx.get('If-None-Match');
  if (inm && etagMatches(inm, cached.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = cached.body;
}

export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === etag || tag === `W/${etag}`;
  });
}

export const MAX_BODY_BYTES = 16 * 1024;

/** Longest wait for a refused request's answer to reach the client before its socket is closed. */
const CLOSE_GRACE_MS = 5_000;

/**
 * A refused body (too large, too slow) is not read any further: the answer carries
 * `Connection: close` and the socket is destroyed as soon as the answer is flushed (or after a
 * grace period when the client does not read it), instead of draining what the client sends.
 */
function closeAfterAnswer(ctx: Context): void {
  const { req, res } = ctx;
  req.pause();
  const socket = req.socket;
  const destroy = () => socket.destroy();
  res.once('finish', destroy);
  res.once('close', destroy);
  setTimeout(destroy, CLOSE_GRACE_MS).unref();
}

/**
 * JSON body reader for the POST routes (mounted per route, so an unknown path stays a 404): the
 * body must say application/json (415 otherwise), bodies over `maxBytes` (16 KB unless the
 * endpoint's entry says `maxBodyBytes`) are refused (413) without
 * being read, a body not received within `timeoutMs` (deps.bodyTimeoutMs: API_BODY_TIMEOUT_MS,
 * 10 s) is a 408, and malformed JSON is a 400. A 413 or 408 closes the connection. `extra` adds
 * fields to error bodies (the premium calls' `success: false`).
 */
export function jsonBody(
  timeoutMs: number,
  extra: Record<string, unknown> = {},
  maxBytes: number = MAX_BODY_BYTES,
): Middleware {
  const fail = (status: number, code: ApiErrorCode, message: string) =>
    new AppError(status, code, message, {}, extra);
  const refuse = (ctx: Context, status: number, code: ApiErrorCode, message: string) => {
    closeAfterAnswer(ctx);
    return new AppError(status, code, message, { Connection: 'close' }, extra);
  };
  return async (ctx, next) => {
    const type = ctx.get('Content-Type');
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw fail(415, 'unsupported_media_type', 'Send the request body as application/json');
    }
    const declared = Number(ctx.get('Content-Length') || '0');
    if (declared > maxBytes) {
      throw refuse(ctx, 413, 'payload_too_large', `Request body exceeds ${maxBytes} bytes`);
    }
    let text: string;
    try {
      text = await readLimited(ctx.req, maxBytes, timeoutMs);
    } catch (err) {
      if (err instanceof AppError && (err.status === 413 || err.status === 408)) {
        throw refuse(ctx, err.status, err.code, err.message);
      }
      if (err instanceof AppError) throw fail(err.status, err.code, err.message);
      throw err;
    }
    try {
      ctx.state.body = text.length === 0 ? {} : (JSON.parse(text) as unknown);
    } catch {
      throw fail(400, 'invalid_json', 'Request body is not valid JSON');
    }
    return next();
  };
}

/**
 * Reads a request body up to `limit` bytes within `timeoutMs`. Past the limit (413) or the time
 * (408) it stops reading; the caller closes the connection once it has answered.
 */
function readLimited(req: IncomingMessage, limit: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const timer = setTimeout(() => {
      cleanup();
      req.pause();
      reject(
        new AppError(
          408,
          'request_timeout',
          `Request body not received within ${Math.round(timeoutMs / 1000)} s`,
        ),
      );
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(new AppError(413, 'payload_too_large', `Request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new AppError(400, 'bad_request', `Could not read the request body: ${err.message}`));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
