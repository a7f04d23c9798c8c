/** Public GET endpoints. Bodies come precomputed from the snapshot; handlers only pick one. */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps.ts';
import type { HealthReport, TimeRange } from '../contract.ts';
import { BASE_KEYS, bodyKey, TIME_RANGE_DAYS, type SeriesId } from '../data/snapshot.ts';
import { badRequest, notFound, unavailable } from '../http/errors.ts';
import { sendCached } from '../http/middleware.ts';
import { openApiDocument } from '../openapi.ts';
import { cacheBody } from '../data/snapshot.ts';
import { importHealth, staleSeries } from '../import/health.ts';

const TIME_RANGES = Object.keys(TIME_RANGE_DAYS) as TimeRange[];
const SLUGS = ['liquity', 'sky-spark', 'gauntlet', 'lido'];

/** Numeric source id or a base-rate key; null when the text is neither. */
export function parseSeriesId(raw: string | undefined): SeriesId | null {
  if (raw === undefined) return null;
  if ((BASE_KEYS as readonly string[]).includes(raw)) return raw as SeriesId;
  if (/^[1-9]\d{0,5}$/.test(raw)) return Number(raw);
  return null;
}

export function dataRouter(deps: AppDeps): Router {
  const router = new Router();
  const openApiBody = cacheBody(openApiDocument(deps.version));

  const serve = (ctx: Context, key: string, unavailableKey = key) => {
    const snap = deps.snapshot();
    const cached = snap.bodies.get(key);
    if (cached) return sendCached(ctx, cached);
    const reason = snap.unavailable.get(unavailableKey);
    if (reason) throw unavailable(reason);
    return undefined;
  };

  router.get('/health', (ctx) => {
    const files = deps.store.status();
    const snap = deps.snapshot();
    const dataImport = importHealth(deps);
    const stale = staleSeries(snap);
    const degraded =
      Object.values(files).some((f) => f.error !== null || !f.loaded) ||
      dataImport.lastRun?.ok === false ||
      stale.length > 0;
    const report: HealthReport & Record<string, unknown> = {
      status: degraded ? 'degraded' : 'ok',
      version: deps.version,
      files,
      method: 'ra30-v1',
      dataBuiltAt: snap.builtAt,
      import: dataImport,
      stale,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });

  router.get('/settings', (ctx) => serve(ctx, bodyKey.settings));
  router.get('/sources', (ctx) => serve(ctx, bodyKey.sources));
  router.get('/strategies', (ctx) => serve(ctx, bodyKey.strategies));
  router.get('/baserate', (ctx) => serve(ctx, bodyKey.baserate));

  router.get('/history', (ctx) => {
    const { id: rawId, range } = ctx.query;
    if (typeof rawId !== 'string' || rawId.length === 0)
      throw badRequest('Query parameter id is required', 'invalid_id');
    if (typeof range !== 'string' || !TIME_RANGES.includes(range as TimeRange)) {
      throw badRequest(
        `Query parameter range must be one of ${TIME_RANGES.join(', ')}`,
        'invalid_range',
      );
    }
    const id = parseSeriesId(rawId);
    const snap = deps.snapshot();
    if (snap.unavailable.has('history')) throw unavailable(snap.unavailable.get('history')!);
    if (id === null || !snap.series.has(String(id))) {
      throw badRequest(`Unknown strategy id "${rawId}"`, 'invalid_id');
    }
    serve(ctx, bodyKey.history(id, range as TimeRange));
  });

  router.get('/strategies/:id/breakdown', (ctx) => {
    const id = parseSeriesId(ctx.params.id);
    const snap = deps.snapshot();
    if (snap.unavailable.has('breakdown')) throw unavailable(snap.unavailable.get('breakdown')!);
    if (id === null) throw badRequest(`Invalid strategy id "${ctx.params.id}"`, 'invalid_id');
    if (!snap.series.has(String(id))) throw notFound(`No strategy with id ${id}`);
    serve(ctx, bodyKey.breakdown(id));
  });

  router.get('/strategy-content/:slug', (ctx) => {
    const slug = ctx.params.slug ?? '';
    const snap = deps.snapshot();
    if (snap.unavailable.has('content')) throw unavailable(snap.unavailable.get('content')!);
    if (!SLUGS.includes(slug) || !snap.bodies.has(bodyKey.content(slug))) {
      throw notFound(`No strategy content for "${slug}" (known: ${SLUGS.join(', ')})`);
    }
    serve(ctx, bodyKey.content(slug));
  });

  router.get('/openapi.json', (ctx) => sendCached(ctx, openApiBody));

  return router;
}
