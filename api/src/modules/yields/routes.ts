/** Public GET endpoints. Bodies come precomputed from the snapshot; handlers only pick one. */
import Router from '@koa/router';
import type { Context } from 'koa';
import {
  BASE_KEY_OF_TYPE,
  EARNINGS_MAX_AMOUNT,
  endpoints,
  STRATEGY_SLUGS,
  TIME_RANGE_DAYS,
  TIME_RANGES,
  type EarningsAnswer,
} from '@yield/contract';
import { bodyKey, type ComputedSeries, type Snapshot } from './snapshot.ts';
import type { AsOfAnswers } from './as-of.ts';
import type { AsOfService } from './as-of-service.ts';
import { trackRecordBodies } from './top-picks-answer.ts';
import { compoundedEarnings } from '../../engine/index.ts';
import { badRequest, notFound, unavailable } from '../../platform/http/errors.ts';
import { binder, type Bind, type BindHost } from '../../platform/http/bind.ts';
import {
  RateLimiter,
  type RateCounter,
  type RateLimitOptions,
} from '../../platform/http/rate-limit.ts';
import { parseSeriesId } from '../../platform/series-id.ts';

const badAsOf = (message: string) => badRequest(message, 'invalid_as_of');

/** A real calendar day written YYYY-MM-DD. */
function isRealDay(day: string): boolean {
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day;
}

/**
 * Checks that `asOf` is a real day from the first day of data to `today` (YYYY-MM-DD, UTC):
 * else the 400 that says which (a 503 while the history has no data).
 */
export function checkAsOf(pastDays: AsOfService, snapshot: Snapshot, asOf: string, today: string) {
  if (!isRealDay(asOf)) throw badAsOf(`asOf must be a date as YYYY-MM-DD, not "${asOf}"`);
  const first = pastDays.firstDay(snapshot.input);
  if (first === null) throw unavailable('history.json has no data yet (see GET /api/health)');
  if (asOf < first)
    throw badAsOf(
      `asOf ${asOf} is before the first day of data (${first}): nothing was published then`,
    );
  if (asOf > today) throw badAsOf(`asOf ${asOf} is after today (${today}, UTC)`);
}

/**
 * The answers as of `asOf` (null when the query has none). A day kept is answered at once and
 * is free; a day not kept counts against the client's limit of past days to compute (429 past
 * it), then waits for the worker (./as-of-service.ts).
 */
export async function asOfAnswers(
  deps: Pick<YieldsDeps, 'asOf' | 'now'>,
  limiter: RateLimiter,
  ctx: Context,
  snapshot: Snapshot,
  asOf: string | undefined,
): Promise<AsOfAnswers | null> {
  if (asOf === undefined) return null;
  const today = deps.now().toISOString().slice(0, 10);
  checkAsOf(deps.asOf, snapshot, asOf, today);
  const kept = deps.asOf.ready(snapshot.input, asOf, today);
  if (kept) return kept;
  await limiter.check(ctx, AS_OF_BUCKET);
  const answers = await deps.asOf.answers(snapshot.input, asOf, today);
  if (!answers) throw unavailable('the data files have not loaded (see GET /api/health)');
  return answers;
}

/** The rate-limit bucket of the past days a client has computed. */
export const AS_OF_BUCKET = 'as-of';

/** The 400 of a malformed or repeated asOf. */
const asOfInvalid = ({ ctx }: { ctx: Context }) =>
  badAsOf(
    `asOf must be one date as YYYY-MM-DD, not "${String(ctx.query.asOf as string | string[])}"`,
  );

/** What the public GETs take: the read model, the answers of past days and their limit. */
export interface YieldsDeps extends BindHost<unknown> {
  snapshot(): Snapshot;
  asOf: AsOfService;
  /** Past days not yet computed a client may ask for per window. */
  asOfRateLimit: RateLimitOptions;
  rateCounter: RateCounter;
  now(): Date;
}

/** The helpers every GET shares: a precomputed body, the 503 of a missing file, past days. */
function readModel(deps: YieldsDeps) {
  const asOfLimiter = new RateLimiter(deps.asOfRateLimit, deps.rateCounter);
  const missing = (key: string) => {
    const snap = deps.snapshot();
    if (snap.unavailable.has(key)) throw unavailable(snap.unavailable.get(key)!);
  };
  return {
    deps,
    asOfLimiter,
    /** The precomputed body of `key`, or the 503 of the data file it needs. */
    serve: (key: string, unavailableKey = key) => {
      const snap = deps.snapshot();
      const cached = snap.bodies.get(key);
      if (cached) return { status: 200, cached } as const;
      throw unavailable(snap.unavailable.get(unavailableKey) ?? `${key} has not been computed`);
    },
    missing,
    historyMissing: () => missing('history'),
    /** A data file missing: 503 first, as without asOf. */
    pastAnswers: (ctx: Context, asOf: string | undefined, key: string) => {
      if (asOf === undefined) return null;
      const snap = deps.snapshot();
      if (!snap.bodies.has(key))
        throw unavailable(snap.unavailable.get(key) ?? `${key} has not been computed`);
      return asOfAnswers(deps, asOfLimiter, ctx, snap, asOf);
    },
  };
}
type ReadModel = ReturnType<typeof readModel>;

const unknownId = (ctx: Context) =>
  badRequest(`Unknown strategy id "${String(ctx.query.id)}"`, 'invalid_id');
const badRange = () =>
  badRequest(`Query parameter range must be one of ${TIME_RANGES.join(', ')}`, 'invalid_range');
const badAmount = () =>
  badRequest(
    `Query parameter amount must be a number above 0 and at most ${EARNINGS_MAX_AMOUNT}`,
    'invalid_amount',
  );

export function dataRouter(deps: YieldsDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);
  const model = readModel(deps);
  bindLatest(bind, model);
  bindHistory(bind, model);
  bindEarnings(bind, model);
  bindBreakdown(bind, model);
  bindTrackRecord(bind, model);
  bindContent(bind, model);
  return router;
}

/** /settings, /sources, /strategies and /baserate: precomputed bodies, the last two as of a day. */
function bindLatest(bind: Bind<unknown>, { serve, pastAnswers }: ReadModel) {
  bind(endpoints.settings).to(() => serve(bodyKey.settings));
  bind(endpoints.sources).to(() => serve(bodyKey.sources));
  bind(endpoints.strategies).to(
    async ({ query, ctx }) => {
      const past = await pastAnswers(ctx, query.asOf, bodyKey.strategies);
      return past ? { status: 200, cached: past.bodies.strategies } : serve(bodyKey.strategies);
    },
    { invalid: asOfInvalid },
  );
  bind(endpoints.baseRates).to(
    async ({ query, ctx }) => {
      const past = await pastAnswers(ctx, query.asOf, bodyKey.baserate);
      return past ? { status: 200, cached: past.bodies.baserate } : serve(bodyKey.baserate);
    },
    { invalid: asOfInvalid },
  );
}

function bindHistory(bind: Bind<unknown>, { deps, serve, historyMissing }: ReadModel) {
  bind(endpoints.history).to(
    ({ query, ctx }) => {
      historyMissing();
      const snap = deps.snapshot();
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
}

function bindEarnings(bind: Bind<unknown>, { deps, historyMissing }: ReadModel) {
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
}

function bindBreakdown(bind: Bind<unknown>, { deps, serve, missing, asOfLimiter }: ReadModel) {
  const breakdownMissing = () => missing('breakdown');
  bind(endpoints.breakdown).to(
    async ({ params, query, ctx }) => {
      breakdownMissing();
      const id = parseSeriesId(params.id);
      if (id === null) throw badRequest(`Invalid strategy id "${params.id}"`, 'invalid_id');
      const snap = deps.snapshot();
      if (!snap.series.has(String(id))) throw notFound(`No strategy with id ${id}`);
      const past = await asOfAnswers(deps, asOfLimiter, ctx, snap, query.asOf);
      if (past) return { status: 200, cached: past.bodies.breakdown.get(String(id))! };
      return serve(bodyKey.breakdown(id));
    },
    {
      invalid: ({ ctx, part }) => {
        breakdownMissing();
        if (part === 'query') return asOfInvalid({ ctx });
        return badRequest(`Invalid strategy id "${ctx.params.id}"`, 'invalid_id');
      },
    },
  );
}

function bindTrackRecord(bind: Bind<unknown>, { deps }: ReadModel) {
  bind(endpoints.trackRecord).to(
    async ({ query }) => {
      const snap = deps.snapshot();
      const bodies = await trackRecordBodies(
        snap,
        deps.asOf,
        deps.now().toISOString().slice(0, 10),
      );
      if (!bodies)
        throw unavailable(snap.unavailable.get(bodyKey.strategies) ?? 'the history has not loaded');
      if (query.format === 'csv')
        return {
          status: 200,
          cached: bodies.csv,
          type: 'text/csv; charset=utf-8',
          headers: {
            'Content-Disposition': `attachment; filename="pigi-track-record-${bodies.asOf ?? 'empty'}.csv"`,
          },
        };
      return { status: 200, cached: bodies.json };
    },
    {
      invalid: () => badRequest('Query parameter format must be json or csv', 'invalid_query'),
    },
  );
}

function bindContent(bind: Bind<unknown>, { deps, serve, missing }: ReadModel) {
  const contentMissing = (ctx: Context) => {
    missing('content');
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
