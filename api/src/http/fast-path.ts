/**
 * Static-response fast path for the hottest GETs (the comparison page fires /api/strategies and
 * /api/baserate on every load). Their bodies are precomputed bytes, so routing them through Koa's
 * context, the middleware chain and the router costs more than the response itself. Requests
 * here get exactly what the Koa route would send (same bytes, security headers, ETag, 304);
 * anything else (other methods, query strings, missing data) falls through to Koa.
 */
import type { AppDeps } from '../deps.ts';
import { bodyKey } from '../data/snapshot.ts';
import { DATA_CACHE_CONTROL, etagMatches, SECURITY_HEADERS } from './middleware.ts';

const FAST_PATHS = new Map<string, string>([
  ['/api/strategies', bodyKey.strategies],
  ['/api/baserate', bodyKey.baserate],
  ['/api/sources', bodyKey.sources],
  ['/api/settings', bodyKey.settings],
]);

const BASE_HEADERS = Object.entries({
  ...SECURITY_HEADERS,
  'Cache-Control': DATA_CACHE_CONTROL,
  Vary: 'Accept-Encoding',
});

/** Answers the request if it can; returns false to hand it to Koa. */
/** The parts of a node:http (or http2 compat) request and response the fast path touches. */
interface MinimalRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: { 'if-none-match'?: string | undefined };
}
interface MinimalResponse {
  statusCode: number;
  setHeader(name: string, value: string | number): unknown;
  end(): unknown;
  end(body: Uint8Array): unknown;
}

export function serveFast(deps: AppDeps, req: MinimalRequest, res: MinimalResponse): boolean {
  if (req.method !== 'GET') return false;
  const key = req.url === undefined ? undefined : FAST_PATHS.get(req.url);
  if (key === undefined) return false;
  let cached;
  try {
    cached = deps.snapshot().bodies.get(key);
  } catch {
    return false; // Koa's error handling answers (and logs) it.
  }
  if (!cached) return false;
  for (const [name, value] of BASE_HEADERS) res.setHeader(name, value);
  res.setHeader('ETag', cached.etag);
  const inm = req.headers['if-none-match'];
  if (inm && etagMatches(inm, cached.etag)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', cached.body.length);
  res.statusCode = 200;
  res.end(cached.body);
  return true;
}
