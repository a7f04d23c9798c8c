/** GET /api/net-yield and GET /api/net-yield/ranking: computed per request from the read model and costs.json. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { EARNINGS_MAX_AMOUNT, endpoints, NET_YIELD_MAX_DAYS } from '@yield/contract';
import { badRequest, unavailable } from '../../platform/http/errors.ts';
import { binder, type BindHost } from '../../platform/http/bind.ts';
import type { FileSpec, FilesView } from '../../platform/files/data-store.ts';
import type { CostsFile } from './schemas.ts';
import {
  netYieldAnswer,
  netYieldRanking,
  sourceFigures,
  type NetYieldReadModel,
} from './answer.ts';

/** What the net-yield GETs take: the read model (with why a piece is missing) and costs.json. */
export interface NetYieldDeps extends BindHost<unknown> {
  snapshot(): NetYieldReadModel & { unavailable: ReadonlyMap<string, string> };
  store: Pick<FilesView<{ costs: FileSpec<CostsFile> }>, 'get'>;
}

const CACHE = { 'Cache-Control': 'public, max-age=60' };

const badAmount = () =>
  badRequest(
    `Query parameter amount must be a number above 0 and at most ${EARNINGS_MAX_AMOUNT}`,
    'invalid_amount',
  );
const badDays = () =>
  badRequest(
    `Query parameter days must be a whole number of days from 1 to ${NET_YIELD_MAX_DAYS}`,
    'invalid_days',
  );
const unknownId = (ctx: Context) =>
  badRequest(`Unknown source id "${String(ctx.query.id ?? '')}"`, 'invalid_id');

/** The amount and days of a query, checked (the 400 that says which otherwise). */
function amountAndDays(query: { amount?: unknown; days?: unknown }) {
  const amount = typeof query.amount === 'string' ? Number(query.amount) : NaN;
  if (!(amount > 0) || amount > EARNINGS_MAX_AMOUNT) throw badAmount();
  const days = typeof query.days === 'string' ? Number(query.days) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > NET_YIELD_MAX_DAYS) throw badDays();
  return { amount, days };
}

/** The 503 while the history has not loaded (no APR to start from). */
function historyMissing(deps: NetYieldDeps) {
  const why = deps.snapshot().unavailable.get('history');
  if (why) throw unavailable(why);
}

/** The 400 of a query the contract's schema refused: the amount, then the days, then the id. */
function invalidQuery(deps: NetYieldDeps, ctx: Context, withId: boolean) {
  const query = ctx.query as Record<string, unknown>;
  const { amount } = query;
  if (typeof amount !== 'string' || !/^\d{1,13}(?:\.\d{1,18})?$/.test(amount)) return badAmount();
  if (typeof query.days !== 'string' || !/^[1-9]\d{0,3}$/.test(query.days)) return badDays();
  amountAndDays(query);
  historyMissing(deps);
  return withId ? unknownId(ctx) : badRequest('Invalid query', 'invalid_amount');
}

export function netYieldRouter(deps: NetYieldDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);
  bind(endpoints.netYield).to(
    ({ query, ctx }) => {
      const { amount, days } = amountAndDays(query);
      historyMissing(deps);
      const model = deps.snapshot();
      const series = model.series.get(query.id);
      if (!series || typeof series.id !== 'number') throw unknownId(ctx);
      const figures = sourceFigures(model, deps.store.get('costs'), series, amount, days);
      if (figures.unitPriceUsd === null)
        throw unavailable('prices.json has no ETH price yet: run the import (see GET /api/health)');
      const body = netYieldAnswer(
        model,
        { ...figures, unitPriceUsd: figures.unitPriceUsd },
        amount,
        days,
      );
      return { status: 200, body, headers: CACHE };
    },
    { invalid: ({ ctx }) => invalidQuery(deps, ctx, true) },
  );
  bind(endpoints.netYieldRanking).to(
    ({ query }) => {
      const { amount, days } = amountAndDays(query);
      historyMissing(deps);
      const body = netYieldRanking(deps.snapshot(), deps.store.get('costs'), amount, days);
      return { status: 200, body, headers: CACHE };
    },
    { invalid: ({ ctx }) => invalidQuery(deps, ctx, false) },
  );
  return router;
}
