/**
 * Static-response fast path for the hottest GETs (the comparison page fires /api/strategies and
 * /api/baserate on every load). Their bodies are precomputed bytes, so routing them through Koa's
 * context, the middleware chain and the router costs more than the response itself. Requests
 * here get exactly what the Koa route would send (same bytes, security headers, ETag, 304);
 * anything else (other methods, query strings, missing data) falls through to Koa.
 */
import { API_PATHS } from '@yield/contract/constants';
import { bodyKey, type Snapshot } from './snapshot.ts';
import { type CachedBody } from '../../platform/http/cached-body.ts';
import {
  DATA_CACHE_CONTROL,
  etagMatches,
  SECURITY_HEADERS,
} from '../../platform/http/middleware.ts';

const FAST_PATHS = new Map<string, string>([
  [API_PATHS.strategies, bodyKey.strategies],
  [API_PATHS.baseRates, bodyKey.baserate],
  [API_PATHS.sources, bodyKey.sources],
  [API_PATHS.settings, bodyKey.settings],
]);
const CONTENT_PREFIX = API_PATHS.strategyContent.replace('{slug}', '');

/**
 * The snapshot key of the body a plain GET of `path` (no query string) answers with, for the
 * answers the API keeps ready: the fast paths above and a strategy's content; undefined otherwise.
 */
export function cachedBodyKey(path: string): string | undefined {
  const key = FAST_PATHS.get(path);
  if (key !== undefined || !path.startsWith(CONTENT_PREFIX)) return key;
  return bodyKey.content(decodeURIComponent(path.slice(CONTENT_PREFIX.length)));
}

const BASE_HEADERS: readonly [string, string][] = Object.entries({
  ...SECURITY_HEADERS,
  'Cache-Control': DATA_CACHE_CONTROL,
  Vary: 'Accept-Encoding',
});

/** The parts of a node:http (or http2 compat) request and response the fast path touches. */
interface MinimalRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: { 'if-none-match'?: string | undefined };
}
interface MinimalResponse {
  writeHead(status: number, headers: string[]): unknown;
  end(): unknown;
  end(body: Uint8Array): unknown;
}

/**
 * Flat [name, value, ...] header lists per cached body: writeHead with a raw array is node's
 * cheapest way to send headers. Keyed weakly, so a replaced snapshot frees its entries.
 */
const headerCache = new WeakMap<CachedBody, { ok: string[]; notModified: string[] }>();

function headersFor(cached: CachedBody): { ok: string[]; notModified: string[] } {
  let h = headerCache.get(cached);
  if (!h) {
    const common = [...BASE_HEADERS.flat(), 'ETag', cached.etag];
    h = {
      ok: [
        ...common,
        'Content-Type',
        'application/json; charset=utf-8',
        'Content-Length',
        String(cached.body.length),
        'X-Request-Id',
        '',
      ],
      notModified: [...common, 'X-Request-Id', ''],
    };
    headerCache.set(cached, h);
  }
  return h;
}

/**
 * The header list with the request's id in its last slot: the lists are filled in place and
 * handed to writeHead at once, which copies them (no list per request).
 */
function withId(headers: string[], requestId: string): string[] {
  headers[headers.length - 1] = requestId;
  return headers;
}

/**
 * Answers the request if it can, with `requestId` in its `X-Request-Id` header: returns the
 * status sent (200, 304), or 0 to hand the request to Koa.
 */
export function serveFast(
  deps: { snapshot(): Snapshot },
  req: MinimalRequest,
  res: MinimalResponse,
  requestId: string,
): number {
  if (req.method !== 'GET') return 0;
  const key = req.url === undefined ? undefined : FAST_PATHS.get(req.url);
  if (key === undefined) return 0;
  let cached: CachedBody | undefined;
  try {
    cached = deps.snapshot().bodies.get(key);
  } catch {
    return 0; // Koa's error handling answers (and logs) it.
  }
  if (!cached) return 0;
  const headers = headersFor(cached);
  const inm = req.headers['if-none-match'];
  if (inm && etagMatches(inm, cached.etag)) {
    res.writeHead(304, withId(headers.notModified, requestId));
    res.end();
    return 304;
  }
  res.writeHead(200, withId(headers.ok, requestId));
  res.end(cached.body);
  return 200;
}
