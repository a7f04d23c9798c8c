/**
 * Request ids and the access log. Every API request gets an id: the client's `X-Request-Id` when
 * it is a short safe token (a proxy's id), else a new one (newRequestId); it is echoed in the response's
 * `X-Request-Id` header and written in the request's log lines. Each request then gives one
 * access line (`"message":"request"`: method, route pattern, status, milliseconds, request id)
 * and counts in the request series of /metrics. Neither holds the raw path or its query string:
 * e-mailed links carry their tokens there.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';

/** An incoming id is kept only when it is this: letters, digits, `.`, `_`, `-`, at most 64. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Where the id of a request handed to Koa is kept (set by app.ts before Koa runs). */
const REQUEST_ID = Symbol('requestId');

/**
 * Ids made here: a random prefix per process and a counter, e.g. `3f9c1a2b7d40-1k2`: unique per
 * process and across processes, cheaper than a UUID per request.
 */
const ID_PREFIX = `${randomUUID().replace(/-/g, '').slice(0, 12)}-`;
let idCounter = 0;
export function newRequestId(): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return ID_PREFIX + idCounter.toString(36);
}

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SAFE_ID.test(header) ? header : newRequestId();
}

export function keepRequestId(req: object, id: string): void {
  (req as { [REQUEST_ID]?: string })[REQUEST_ID] = id;
}

/** The id given to this request (a new one if none was given yet). */
export function requestIdOfRequest(req: IncomingMessage): string {
  return (req as IncomingMessage & { [REQUEST_ID]?: string })[REQUEST_ID] ?? newRequestId();
}

/** Counts the answered request and writes its access line. */
export function recordRequest(
  deps: { metrics: Metrics; logger: Logger },
  method: string,
  route: string,
  status: number,
  startedAt: number,
  requestId: string,
): void {
  const elapsed = performance.now() - startedAt;
  deps.metrics.request(method, route, status, elapsed / 1000);
  const ms = Math.round(elapsed * 1000) / 1000;
  if (deps.logger.access) deps.logger.access(requestId, method, route, status, ms);
  else deps.logger.info('request', { requestId, method, route, status, ms });
}

/** The route label of a request no route matched (unknown path, refused method). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Outermost Koa middleware: the request id in ctx.state.requestId, the access line and the
 * request series once the answer (errors included) is decided.
 */
export function accessLog(deps: { metrics: Metrics; logger: Logger }): Middleware {
  return async (ctx, next) => {
    const startedAt = performance.now();
    const requestId = requestIdOfRequest(ctx.req);
    ctx.state.requestId = requestId;
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      const route = typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
      recordRequest(deps, ctx.method, route, ctx.status, startedAt, requestId);
    }
  };
}
