/**
 * The binder (src/platform/http/bind.ts): every route of the app comes from bind(), one per entry of the
 * contract's endpoint table, and an answer of a status the spec does not declare is caught.
 */
import Koa from 'koa';
import Router from '@koa/router';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '@yield/contract';
import { BOUND, bind, type BoundMiddleware, type Reply } from '../src/platform/http/bind.ts';
import { errorHandler } from '../src/platform/http/middleware.ts';
import { memoryLogger } from '../src/platform/logger.ts';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await setup();
});
afterAll(async () => {
  await t.cleanup();
});

describe('the app is bound from the endpoint table', () => {
  it('every route layer of the app comes from bind(), one per endpoint, with its method and path', () => {
    const bound: EndpointName[] = [];
    for (const middleware of t.app.middleware) {
      const router = (middleware as { router?: Router }).router;
      for (const layer of router?.stack ?? []) {
        const last = layer.stack[layer.stack.length - 1] as BoundMiddleware | undefined;
        const name = last?.[BOUND];
        expect(name, `${layer.methods.join(',')} ${String(layer.path)}`).toBeDefined();
        const spec = endpoints[name!];
        expect(layer.methods.filter((m) => m !== 'HEAD')).toEqual([spec.method.toUpperCase()]);
        expect(`${String(layer.path).replace(/:(\w+)/g, '{$1}')}`).toBe(spec.path);
        bound.push(name!);
      }
    }
    expect(bound.sort()).toEqual(Object.keys(endpoints).sort());
  });
});

describe('an answer of an undeclared status', () => {
  /** GET /api/health bound to a handler that answers 418, which its spec does not declare. */
  const appAnswering418 = (strict: boolean) => {
    const logger = memoryLogger();
    const deps = { ...t.deps, logger };
    const router = new Router({ prefix: '/api' });
    const teapot = { status: 418, body: 'teapot' } as unknown as Reply<typeof endpoints.health>;
    bind(router, deps, endpoints.health, () => teapot, {}, { strict });
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler(logger));
    app.use(router.routes());
    return { http: request(app.callback()), logger };
  };

  it('fails the request when strict (tests, development): a JSON 500, logged', async () => {
    const { http, logger } = appAnswering418(true);
    const res = await http.get('/api/health').expect(500);
    expect(res.body).toEqual({
      error: { code: 'internal_error', message: 'Internal server error' },
    });
    expect(JSON.stringify(logger.lines)).toContain('health answered 418');
  });

  it('is logged and sent otherwise (production)', async () => {
    const { http, logger } = appAnswering418(false);
    await http.get('/api/health').expect(418);
    expect(logger.lines).toContainEqual({
      level: 'error',
      message: 'undeclared response',
      fields: { method: 'GET', path: '/api/health', status: 418 },
    });
  });

  it('is strict by default in tests (NODE_ENV=test)', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const logger = memoryLogger();
    const router = new Router({ prefix: '/api' });
    const teapot = { status: 418, body: 'teapot' } as unknown as Reply<typeof endpoints.health>;
    bind(router, { ...t.deps, logger }, endpoints.health, () => teapot);
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler(logger));
    app.use(router.routes());
    await request(app.callback()).get('/api/health').expect(500);
  });
});
