/** Public GET endpoints. Bodies come precomputed from the snapshot; handlers only pick one. */
import Router from '@koa/router';
import type { Context } from 'koa';
import {
  BASE_KEY_OF_TYPE,
  EARNINGS_MAX_AMOUNT,
  earningsQuerySchema,
  endpoints,
  historyQuerySchema,
  isBaseKey,
  METHOD_VERSION,
  seriesIdParamsSchema,
  strategyContentParamsSchema,
  STRATEGY_SLUGS,
  TIME_RANGE_DAYS,
  TIME_RANGES,
  type EarningsAnswer,
  type HealthReport,
  type SeriesId,
} from '@yield/contract';
import type { AppDeps } from '../deps.ts';
import { bodyKey, type ComputedSeries } from '../data/snapshot.ts';
import { compoundedEarnings } from '../engine/index.ts';
import { badRequest, notFound, unavailable } from '../http/errors.ts';
import { sendCached } from '../http/middleware.ts';
import { routePath } from '../http/route-path.ts';
import { importHealth, stalePrices, staleSeries } from '../import/health.ts';

/** Numeric source id or a base-rate key; null when the text is neither. */
export function parseSeriesId(raw: string | undefined): SeriesId | null {
  if (raw === undefined) return null;
  if (isBaseKey(raw)) return raw;
  if (/^[1-9]\d{0,5}$/.test(raw)) return Number(raw);
  return null;
}

export function dataRouter(deps: AppDeps): Router {
  const router = new Router();

  const serve = (ctx: Context, key: string, unavailableKey = key) => {
    const snap = deps.snapshot();
    const cached = snap.bodies.get(key);
    if (cached) return sendCached(ctx, cached);
    const reason = snap.unavailable.get(unavailableKey);
    if (reason) throw unavailable(reason);
    return undefined;
  };

  router.get(routePath(endpoints.health), async (ctx) => {
    const files = deps.store.status();
    const snap = deps.snapshot();
    const dataImport = importHealth(deps);
    const stale = [...staleSeries(snap), ...stalePrices(deps.store.get('prices'), deps.now())];
    const userData = await deps.userData.health();
    const degraded =
      Object.values(files).some((f) => f.error !== null || !f.loaded) ||
      dataImport.lastRun?.ok === false ||
      stale.length > 0 ||
      !userData.available;
    const report: HealthReport = {
      status: degraded ? 'degraded' : 'ok',
      version: deps.version,
      files,
      method: METHOD_VERSION,
      dataBuiltAt: snap.builtAt,
      import: dataImport,
      stale,
      userData,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });

  router.get(routePath(endpoints.settings), (ctx) => serve(ctx, bodyKey.settings));
  router.get(routePath(endpoints.sources), (ctx) => serve(ctx, bodyKey.sources));
  router.get(routePath(endpoints.strategies), (ctx) => serve(ctx, bodyKey.strategies));
  router.get(routePath(endpoints.baseRates), (ctx) => serve(ctx, bodyKey.baserate));

  router.get(routePath(endpoints.history), (ctx) => {
    const query = historyQuerySchema.safeParse(ctx.query);
    const issues = query.success ? [] : query.error.issues;
    // A missing (or repeated) id first, then the range; an id of the wrong form is reported
    // like an unknown one, after the data check.
    const idIssue = issues.find((issue) => issue.path[0] === 'id');
    if (idIssue && idIssue.code !== 'invalid_format')
      throw badRequest('Query parameter id is required', 'invalid_id');
    if (issues.some((issue) => issue.path[0] === 'range')) {
      throw badRequest(
        `Query parameter range must be one of ${TIME_RANGES.join(', ')}`,
        'invalid_range',
      );
    }
    const snap = deps.snapshot();
    if (snap.unavailable.has('history')) throw unavailable(snap.unavailable.get('history')!);
    const id = query.success ? parseSeriesId(query.data.id) : null;
    if (!query.success || id === null || !snap.series.has(String(id))) {
      throw badRequest(`Unknown strategy id "${String(ctx.query.id)}"`, 'invalid_id');
    }
    serve(ctx, bodyKey.history(id, query.data.range));
  });

  router.get(routePath(endpoints.earnings), (ctx) => {
    const query = earningsQuerySchema.safeParse(ctx.query);
    const bad = (field: string) =>
      !query.success && query.error.issues.some((issue) => issue.path[0] === field);
    if (bad('range')) {
      throw badRequest(
        `Query parameter range must be one of ${TIME_RANGES.join(', ')}`,
        'invalid_range',
      );
    }
    const amount = Number(ctx.query.amount);
    if (bad('amount') || !(amount > 0) || amount > EARNINGS_MAX_AMOUNT) {
      throw badRequest(
        `Query parameter amount must be a number above 0 and at most ${EARNINGS_MAX_AMOUNT}`,
        'invalid_amount',
      );
    }
    const snap = deps.snapshot();
    if (snap.unavailable.has('history')) throw unavailable(snap.unavailable.get('history')!);
    const source = query.success ? snap.series.get(query.data.id) : undefined;
    if (!query.success || !source || typeof source.id !== 'number') {
      throw badRequest(`Unknown source id "${String(ctx.query.id ?? '')}"`, 'invalid_id');
    }
    const days = TIME_RANGE_DAYS[query.data.range];
    const base = snap.series.get(BASE_KEY_OF_TYPE[source.type])!;
    const mine = earnedOver(source, amount, days);
    const theirs = earnedOver(base, amount, days);
    const answer: EarningsAnswer = {
      id: source.id,
      amount,
      unit: source.source.unit,
      range: query.data.range,
      ...mine,
      base: { key: BASE_KEY_OF_TYPE[source.type], ...theirs },
      difference: mine.earned - theirs.earned,
    };
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = answer;
  });

  router.get(routePath(endpoints.breakdown), (ctx) => {
    const snap = deps.snapshot();
    if (snap.unavailable.has('breakdown')) throw unavailable(snap.unavailable.get('breakdown')!);
    const params = seriesIdParamsSchema.safeParse(ctx.params);
    const id = params.success ? parseSeriesId(params.data.id) : null;
    if (id === null) throw badRequest(`Invalid strategy id "${ctx.params.id}"`, 'invalid_id');
    if (!snap.series.has(String(id))) throw notFound(`No strategy with id ${id}`);
    serve(ctx, bodyKey.breakdown(id));
  });

  router.get(routePath(endpoints.strategyContent), (ctx) => {
    const snap = deps.snapshot();
    if (snap.unavailable.has('content')) throw unavailable(snap.unavailable.get('content')!);
    const params = strategyContentParamsSchema.safeParse(ctx.params);
    if (!params.success || !snap.bodies.has(bodyKey.content(params.data.slug))) {
      throw notFound(
        `No strategy content for "${ctx.params.slug ?? ''}" (known: ${STRATEGY_SLUGS.join(', ')})`,
      );
    }
    serve(ctx, bodyKey.content(params.data.slug));
  });

  return router;
}

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
