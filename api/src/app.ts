/**
 * createApp(deps): the Koa app serving everything under /api. It does not own the server: the
 * production site server hands it only /api requests, server.ts runs it alone in development.
 */
import { ServerResponse } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { AppDeps } from './composition/deps.ts';
import { serveFast } from './modules/yields/fast-path.ts';
import { errorHandler, methodErrors, securityHeaders } from './platform/http/middleware.ts';
import { API_PREFIX } from './platform/http/route-path.ts';
import { RateLimiter } from './platform/http/rate-limit.ts';
import { koaProxyOptions } from './platform/http/client-address.ts';
import {
  accessLog,
  keepRequestId,
  recordRequest,
  requestIdOf,
} from './platform/http/access-log.ts';
import { dataRouter } from './modules/yields/routes.ts';
import { statusRouter } from './modules/status/routes.ts';
import { mailingListRouter } from './modules/mailing-list/routes.ts';
import { alertsRouter } from './modules/alerts/routes.ts';
import { premiumRouter, protectedRouter } from './modules/premium/routes.ts';
import { docsRouter } from './modules/docs/routes.ts';
import { scannerRouter } from './modules/scanner/route.ts';
import { remoteErrorsRouter } from './modules/remote-errors/index.ts';
import { netYieldRouter } from './modules/net-yield/index.ts';

export { API_PREFIX };

export function createApp(deps: AppDeps): Koa {
  // Behind TRUST_PROXY proxies ctx.ip is the address the outermost one saw (client-address.ts).
  const app = new Koa(koaProxyOptions(deps.trustProxy));
  // Errors are answered and logged by errorHandler; Koa's default handler would print them again.
  app.silent = true;
  const limiter = new RateLimiter(deps.rateLimit, deps.rateCounter);

  app.use(accessLog(deps));
  app.use(securityHeaders);
  app.use(errorHandler(deps.logger));

  // Every route is bound from its entry of the contract's route table (platform/http/bind.ts), koa-jwt
  // included where the entry requires a token. The premium analysis has its own router (after
  // the public one); allowedMethods still sees its paths (the routers share ctx.matched), so
  // another method on its path is a 405 too.
  const publicRoutes = new Router({ prefix: API_PREFIX });
  for (const r of [
    statusRouter(deps),
    dataRouter(deps),
    netYieldRouter(deps),
    docsRouter(deps),
    mailingListRouter(deps, limiter),
    alertsRouter(deps, limiter),
    premiumRouter(deps, limiter),
    scannerRouter(deps),
    remoteErrorsRouter(deps, limiter),
  ]) {
    publicRoutes.use(r.routes());
  }
  const premiumRoutes = new Router({ prefix: API_PREFIX });
  premiumRoutes.use(protectedRouter(deps).routes());

  // allowedMethods inspects the response after the routes ran, so it wraps them: a path's other
  // methods are a 405 with Allow, a method the API does not know a 501 (methodErrors). Nothing
  // answers an unmatched path: errorHandler turns the empty 404 into the JSON one.
  app.use(methodErrors(publicRoutes.allowedMethods()));
  app.use(publicRoutes.routes());
  app.use(premiumRoutes.routes());

  // Every way of serving the app (app.listen, app.callback() in the site server, supertest)
  // goes through callback(): put the precomputed-response fast path in front of Koa there.
  const koaCallback = app.callback.bind(app);
  app.callback = () => {
    const handler = koaCallback();
    return (...[req, res]: Parameters<typeof handler>) => {
      const startedAt = performance.now();
      const requestId = requestIdOf(req.headers['x-request-id']);
      // HTTP/2 compat responses cannot take raw header arrays; Koa serves those.
      const status = res instanceof ServerResponse ? serveFast(deps, req, res, requestId) : 0;
      if (status !== 0) {
        // The fast path's paths are its route patterns (no parameters, no query string).
        recordRequest(deps, 'GET', req.url!, status, startedAt, requestId);
        return Promise.resolve();
      }
      res.setHeader('X-Request-Id', requestId);
      keepRequestId(req, requestId);
      return handler(req, res);
    };
  };
  return app;
}
