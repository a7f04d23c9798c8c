/**
 * The API's own documentation: GET /api/openapi.json (generated from the contract once per
 * process) and GET /api/docs, a reference page that renders it with Redoc's standalone bundle,
 * served from the installed `redoc` package (no CDN).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';
import { endpoints } from '@yield/contract';
import { cacheBody, cacheBytes, type CachedBody } from '../../platform/http/cached-body.ts';
import { binder, type BindHost } from '../../platform/http/bind.ts';
import { openApiDocument } from './openapi.ts';

export const DOCS_TITLE = 'Global Yield Leaderboard API reference';

/**
 * The reference page's policy, in place of the API's default `default-src 'none'`: its one
 * script from here, the document from here, Redoc's injected styles (styled-components) and
 * inline SVG icons, and its search index in a blob: worker. Nothing from other origins.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${DOCS_TITLE}</title>
    <meta name="description" content="Every endpoint of the Global Yield Leaderboard API, its parameters and answers." />
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <redoc spec-url="${endpoints.openApi.path}" expand-responses="200,201" required-props-first="true" hide-hostname="true"></redoc>
    <noscript>This page needs JavaScript. The same reference is at <a href="${endpoints.openApi.path}">${endpoints.openApi.path}</a> (OpenAPI 3.1).</noscript>
    <script src="${endpoints.docsScript.path}"></script>
  </body>
</html>
`;

const JS_TYPE = 'text/javascript; charset=utf-8';

/** Redoc's bundle (1.1 MB, 0.3 MB gzipped), read and compressed on first request. */
let script: { plain: CachedBody; gzip: CachedBody } | undefined;
function redocScript() {
  if (!script) {
    const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
    const plain = readFileSync(file);
    script = { plain: cacheBytes(plain), gzip: cacheBytes(gzipSync(plain, { level: 9 })) };
  }
  return script;
}

/** What the docs take: the binder's host and the version the document names. */
export interface DocsDeps extends BindHost<unknown> {
  version: string;
}

export function docsRouter(deps: DocsDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);
  const openApiBody = cacheBody(openApiDocument(deps.version));
  bind(endpoints.openApi).to(() => ({ status: 200, cached: openApiBody }));
  bind(endpoints.docs).to(() => ({
    status: 200,
    body: DOCS_HTML,
    headers: { 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'no-cache' },
  }));
  bind(endpoints.docsScript).to(({ ctx }) => {
    const { plain, gzip } = redocScript();
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip')
      return { status: 200, cached: gzip, type: JS_TYPE, headers: { 'Content-Encoding': 'gzip' } };
    return { status: 200, cached: plain, type: JS_TYPE };
  });
  return router;
}
