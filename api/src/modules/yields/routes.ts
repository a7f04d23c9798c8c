/** Public GET endpoints. Bodies come precomputed from the snapshot; handlers only pick one. */
import Router from '@koa/router';
import type { Context } from 'koa';
import {
  BASE_KEY_OF_TYPE,
  EARNINGS_MAX_AMOUNT,
  endpoints,
  isBaseKey,
  STRATEGY_SLUGS,
  TIME_RANGE_DAYS,
  TIME_RANGES,
  type EarningsAnswer,
  type SeriesId,
} from '@yield/contract';
import type { AppDeps } from '../../deps.ts';
import { bodyKey, type ComputedSeries } from './snapshot.ts';
import { compoundedEarnings } from '../../engine/index.ts';
import { badRequest, notFound, unavailable } from '../../platform/http/errors.ts';
import { binder } from '../../platform/http/bind.ts';

/** Numeric source id or a base-rate key; null when the text is neither. */
export function parseSeriesId(raw: string | undefined): SeriesId | null {
  if (raw === undefined) return null;
  if (isBaseKey(raw)) return raw;
  if (/^[1-9]\d{0,5}$/.test(raw)) return Number(raw);
  return null;
}

export function dataRouter(deps: AppDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);

  /** The precomputed body of `key`, or the 503 of the data file it needs. */
  const serve = (key: string, unavailableKey = key) => {
    const snap = deps.snapshot();
    const cached = snap.bodies.get(key);
    if (cached) return { status: 200, cached } as const;
    throw unavailable(snap.unavailable.get(unavailableKey) ?? `${key} has not been computed`);
  };
  const unknownId = (ctx: Context) =>
    badRequest(`Unknown strategy id "${String(ctx.query.id)}"`, 'invalid_id');
  const badRange = () =>
    badRequest(`Query parameter range must be one of ${TIME_RANGES.join(', ')}`, 'invalid_range');
  const badAmount = () =>
    badRequest(
      `Query parameter amount must be a number above 0 and at most ${EARNINGS_MAX_AMOUNT}`,
      'invalid_amount',
    );
  const historyMissing = () => {
    const snap = deps.snapshot();
    if (snap.unavailable.has('history')) throw unavailable(snap.unavailable.get('history')!);
  };

  bind(endpoints.settings).to(() => serve(bodyKey.settings));
  bind(endpoints.sources).to(() => serve(bodyKey.sources));
  bind(endpoints.strategies).to(() => serve(bodyKey.strategies));
  bind(endpoints.baseRates).to(() => serve(bodyKey.baserate));

  bind(endpoints.history).to(
    ({ query, ctx }) => {
      const snap = deps.snapshot();
      if (snap.unavailable.has('history')) throw unavailable(snap.unavailable.get('history')!);
      const id = parseSeriesId(query.id);
      if (id === null || !snap.series.has(String(id))) throw unknownId(ctx);
      return serve(bodyKey.history(id, query.range));
    },
    {
      // A missing (or repeated) id first, then the range; an id of the wrong form is reported
      // like an unknown one, after the data check.
      invalid: ({ issues, ctx }) => {
        const idIssue = issues.find((issue) => issue.path[0] === 'id');
        if (idIssue && idIssue.code !== 'invalid_format')
          return badRequest('Query parameter id is required', 'invalid_id');
        if (issues.some((issue) => issue.path[0] === 'range')) return badRange();
        historyMissing();
        return unknownId(ctx);
      },
    },
  );

  bind(endpoints.earnings).to(
    ({ query, ctx }) => {
      const amount = Number(query.amount);
      if (!(amount > 0) || amount > EARNINGS_MAX_AMOUNT) throw badAmount();
      historyMissing();
      const snap = deps.snapshot();
      const source = snap.series.get(query.id);
      if (!source || typeof source.id !== 'number') throw unknownEarningsId(ctx);
      const days = TIME_RANGE_DAYS[query.range];
      const base = snap.series.get(BASE_KEY_OF_TYPE[source.type])!;
      const mine = earnedOver(source, amount, days);
      const theirs = earnedOver(base, amount, days);
      const answer: EarningsAnswer = {
        id: source.id,
        amount,
        unit: source.source.unit,
        range: query.range,
        ...mine,
        base: { key: BASE_KEY_OF_TYPE[source.type], ...theirs },
        difference: mine.earned - theirs.earned,
      };
      return { status: 200, body: answer, headers: { 'Cache-Control': 'public, max-age=60' } };
    },
    {
      // The range first, then the amount, then whether the history loaded, then the id.
      invalid: ({ issues, ctx }) => {
        if (issues.some((issue) => issue.path[0] === 'range')) return badRange();
        if (issues.some((issue) => issue.path[0] === 'amount')) return badAmount();
        const amount = Number(ctx.query.amount);
        if (!(amount > 0) || amount > EARNINGS_MAX_AMOUNT) return badAmount();
        historyMissing();
        return unknownEarningsId(ctx);
      },
    },
  );

  const breakdownMissing = () => {
    const snap = deps.snapshot();
    if (snap.unavailable.has('breakdown')) throw unavailable(snap.unavailable.get('breakdown')!);
  };
  bind(endpoints.breakdown).to(
    ({ params }) => {
      breakdownMissing();
      const id = parseSeriesId(params.id);
      if (id === null) throw badRequest(`Invalid strategy id "${params.id}"`, 'invalid_id');
      if (!deps.snapshot().series.has(String(id))) throw notFound(`No strategy with id ${id}`);
      return serve(bodyKey.breakdown(id));
    },
    {
      invalid: ({ ctx }) => {
        breakdownMissing();
        return badRequest(`Invalid strategy id "${ctx.params.id}"`, 'invalid_id');
      },
    },
  );

  const contentMissing = (ctx: Context) => {
    const snap = deps.snapshot();
    if (snap.unavailable.has('content')) throw unavailable(snap.unavailable.get('content')!);
    return notFound(
      `No strategy content for "${ctx.params.slug ?? ''}" (known: ${STRATEGY_SLUGS.join(', ')})`,
    );
  };
  bind(endpoints.strategyContent).to(
    ({ params, ctx }) => {
      const unknown = contentMissing(ctx);
      if (!deps.snapshot().bodies.has(bodyKey.content(params.slug))) throw unknown;
      return serve(bodyKey.content(params.slug));
    },
    { invalid: ({ ctx }) => contentMissing(ctx) },
  );

  return router;
}

const unknownEarningsId = (ctx: Context) =>
  badRequest(`Unknown source id "${String(ctx.query.id ?? '')}"`, 'invalid_id');

/** What `amount` earned over the newest `days` of one series (api/src/engine/earnings.ts). */
function earnedOver(series: ComputedSeries, amount: number, days: number) {
  const rows = series.rows.slice(Math.max(0, series.rows.length - days));
  const points = series.points.slice(Math.max(0, series.points.length - days));
  return {
    earned: compoundedEarnings(
      amount,
      points.map((p) => p.apr),
    ),
    days: points.length,
    from: rows[0]?.date ?? null,
    to: rows[rows.length - 1]?.date ?? null,
  };
}
