/**
 * What a handler may answer is checked by the compiler (`pnpm --filter @yield/api typecheck`
 * covers this file): each `@ts-expect-error` below fails the typecheck if the binder ever
 * accepts that answer. The vitest part checks that the declared answers do bind.
 */
import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@yield/contract';
import type { AppDeps } from '../src/composition/deps.ts';
import { binder } from '../src/platform/http/bind.ts';
import { AppError, badRequest } from '../src/platform/http/errors.ts';

function bindAll(deps: AppDeps) {
  const bind = binder(new Router(), deps);

  // Declared: 200 with the health report's shape.
  bind(endpoints.strategies).to(() => ({ status: 200, body: [] }));
  // Declared: the HTML pages of the e-mailed links are responses too.
  bind(endpoints.alertConfirm).to(() => ({ status: 404, body: '<p>gone</p>' }));

  // @ts-expect-error the contract lists no code invalid_code (API_ERROR_CODES)
  void new AppError(400, 'invalid_code', 'No such code');
  // @ts-expect-error nor badRequest's
  void badRequest('No such code', 'invalid_code');

  // @ts-expect-error 418 is not a declared status of GET /api/strategies
  bind(endpoints.strategies).to(() => ({ status: 418, body: [] }));

  // @ts-expect-error a 200 of GET /api/strategies is a list, not an object
  bind(endpoints.strategies).to(() => ({ status: 200, body: { strategies: [] } }));

  // @ts-expect-error 201 is not declared by POST /api/alerts/unsubscribe (200, 400, 503)
  bind(endpoints.alertUnsubscribeOneClick).to(() => ({ status: 201, body: { success: true } }));

  // @ts-expect-error the 200 of the one-click unsubscribe is {success: true}, not a page
  bind(endpoints.alertUnsubscribeOneClick).to(() => ({ status: 200, body: '<p>done</p>' }));

  // @ts-expect-error the query of GET /api/history has no field `slug`
  bind(endpoints.history).to(({ query }) => ({ status: 200, body: query.slug }));
}

describe('typed answers', () => {
  it('declared answers bind', () => {
    const deps = { bodyTimeoutMs: 1000 } as AppDeps;
    expect(() => bindAll(deps)).not.toThrow();
  });
});
