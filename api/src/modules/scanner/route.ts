/**
 * GET /api/scanner: every pool of the /pools snapshot ranked by rapool-v3, filtered and paged.
 *
 * Anyone gets the first TEASER_SIZE items of any query (`teaser: true`); a premium token gets the
 * whole ranking and CSV. The answer is assembled from JSON precomputed per pool at index time.
 * Anonymous answers are cacheable like the other GETs (ETag, max-age=60); anything sent with an
 * Authorization header is private and never stored.
 */
import Router from '@koa/router';
import { stringify } from 'csv-stringify/sync';
import { cacheBytes } from '../../platform/http/cached-body.ts';
import { badRequest, notFound, unauthorized, unavailable } from '../../platform/http/errors.ts';
import { cacheBody } from '../../platform/http/cached-body.ts';
import { utcDay } from '../import/index.ts';
import { sampleHistory } from './sample-history.ts';
import { MIN_HISTORY_DAYS } from './score-from-history.ts';
import { binder, type Bind, type BindHost } from '../../platform/http/bind.ts';
import type { Logger } from '../../platform/logger.ts';
import type { FileReader } from '../../platform/files/data-store.ts';
import { queryPools, type PoolIndex } from './pool-index.ts';
import type { Context } from 'koa';
import {
  endpoints,
  SCANNER_TEASER_SIZE as TEASER_SIZE,
  type PoolHistoryAnswer,
  type ScannerQuery,
} from '@yield/contract';
import { RateLimiter, type RateCounter } from '../../platform/http/rate-limit.ts';
import { clientKey } from '../../platform/http/client-address.ts';
import { CLIENT_WINDOW_MS, type EnqueueResult, type PoolHistoryDeps } from '../import/index.ts';
import { parseScannerQuery } from './contract.ts';
import type { ScannerState } from './scanner-state.ts';
import type { ProjectTiersFile } from './schemas.ts';
import type { Snapshot, SourcesFile } from '../yields/index.ts';
import { scannerTrackBodies } from './top-pools-answer.ts';

const PRIVATE = 'private, no-store';

export interface ScannerPage {
  total: number;
  offset: number;
  /** The limit applied: the requested one, or what is left of the teaser from `offset`. */
  limit: number;
  teaser: boolean;
  page: ArrayLike<number>;
}

/** Runs a validated query; without premium the window is cut to the first TEASER_SIZE items. */
export function scannerPage(index: PoolIndex, query: ScannerQuery, premium: boolean): ScannerPage {
  const limit = premium
    ? query.limit
    : Math.max(0, Math.min(query.limit, TEASER_SIZE - query.offset));
  const { total, page } = queryPools(index, { ...query, limit });
  return { total, offset: query.offset, limit, teaser: !premium, page };
}

export function scannerJson(index: PoolIndex, result: ScannerPage): string {
  const items: string[] = [];
  for (let k = 0; k < result.page.length; k++) items.push(index.itemJson[result.page[k]!]!);
  return (
    `{"asOf":${JSON.stringify(index.asOf)},"sample":${index.sample},` +
    `"method":${JSON.stringify(index.method)},"total":${result.total},` +
    `"offset":${result.offset},"limit":${result.limit},"teaser":${result.teaser},` +
    `"teaserSize":${TEASER_SIZE},"items":[${items.join(',')}]}`
  );
}

/** CSV columns: the item's fields, charges and safety inputs flattened (dotted names). */
export const CSV_COLUMNS = [
  'pool',
  'project',
  'chain',
  'symbol',
  'tvlUsd',
  'apy',
  'apyBase',
  'apyReward',
  'expected',
  'riskAdjustedApr',
  'charges.impermanentLoss',
  'charges.rewardPrice',
  'charges.outflow',
  'charges.size',
  'charges.safety',
  'risk',
  'apySpot',
  'apyBasis',
  'stablecoin',
  'ilRisk',
  'exposure',
  'outlier',
  'poolMeta',
  'inputs.safety',
  'inputs.safetyBasis',
  'url',
] as const;

/**
 * RFC 4180 CSV (CRLF, fields with commas, quotes or line breaks quoted, quotes doubled) by
 * csv-stringify; text cells starting with = + - @ are prefixed with ' so a spreadsheet never runs
 * a pool name as a formula (the names come from a third party).
 */
export function scannerCsv(index: PoolIndex, result: ScannerPage): string {
  const rows: unknown[] = [];
  for (let k = 0; k < result.page.length; k++) rows.push(index.items[result.page[k]!]);
  return stringify(rows, {
    header: true,
    columns: CSV_COLUMNS.map((key) => ({ key })),
    record_delimiter: 'windows',
    // csv-stringify quotes fields holding the whole CRLF delimiter; RFC 4180 wants a lone CR or LF quoted too.
    quoted_match: /[\r\n]/,
    escape_formulas: true,
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}

/** What the answer's `backfill` says of each result of the queue. */
const BACKFILL_ANSWER: Record<EnqueueResult, PoolHistoryAnswer['backfill']> = {
  queued: 'queued',
  waiting: 'queued',
  recent: 'recent',
  full: 'deferred',
  limited: 'deferred',
  stopped: 'deferred',
};

/**
 * Queues the backfill of a pool whose page was opened, in the page-view queue, through the
 * client's limit (POOL_BACKFILL_CLIENT_MAX per hour, counted only when the pool would be queued,
 * in the rate limits' counter: shared in PostgreSQL with DATABASE_URL). Never an error: a full
 * queue, a client over its limit or a counter out of reach answers `deferred`.
 */
function pageViewBackfill(deps: ScannerDeps, history: PoolHistoryDeps) {
  const limiter = new RateLimiter(
    { max: history.clientMax, windowMs: CLIENT_WINDOW_MS },
    deps.rateCounter,
  );
  return async (pool: string, ctx: Context): Promise<PoolHistoryAnswer['backfill']> => {
    const gate = async () => (await limiter.hit(`pool-backfill|${clientKey(ctx.ip)}`)) === 0;
    try {
      return BACKFILL_ANSWER[await history.backfill.enqueue(pool, 'page', gate)];
    } catch (err) {
      deps.logger.warn('pool page backfill not queued', { pool, error: (err as Error).message });
      return 'deferred';
    }
  };
}

/** What the scanner's routes take: its state (built by the composition root) and what it reads. */
export interface ScannerDeps extends BindHost<unknown> {
  scanner: ScannerState;
  store: FileReader<'projectTiers', ProjectTiersFile> & FileReader<'sources', SourcesFile>;
  snapshot(): Snapshot;
  now(): Date;
  rateCounter: RateCounter;
  logger: Logger;
}

export function scannerRouter(deps: ScannerDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);
  bindScanner(bind, deps.scanner);
  bindPoolHistory(bind, deps);
  bindScannerTrackRecord(bind, deps);
  return router;
}

/** GET /api/scanner: a page of the index (JSON), or all of it as CSV with a premium token. */
function bindScanner(bind: Bind<unknown>, state: ScannerState) {
  bind(endpoints.scanner).to(
    async ({ query, bearer, ctx }) => {
      // A valid token whose user was deleted or whose invite was disabled counts as none.
      const premium = (await bearer()) !== null;
      if (query.format === 'csv' && !premium) {
        throw unauthorized('CSV export needs a premium token', 'premium_required');
      }
      const index = state.index();
      if (!index) throw unavailable(state.unavailableReason());
      const result = scannerPage(index, query, premium);

      if (query.format === 'csv') {
        return {
          status: 200,
          csv: scannerCsv(index, result),
          headers: {
            'Cache-Control': PRIVATE,
            'Content-Disposition': `attachment; filename="pigi-scanner-${index.asOf?.slice(0, 10) ?? 'empty'}.csv"`,
          },
        };
      }
      const body = Buffer.from(scannerJson(index, result));
      if (ctx.get('Authorization')) {
        return { status: 200, raw: body, headers: { 'Cache-Control': PRIVATE } };
      }
      // The same URL answers differently with a token: shared caches must key on it.
      return {
        status: 200,
        cached: cacheBytes(body),
        headers: { Vary: 'Accept-Encoding, Authorization' },
      };
    },
    // Empty values count as not given; unknown or repeated parameters are refused (contract.ts).
    { readQuery: (ctx) => parseScannerQuery(ctx.query) },
  );
}

/** GET /api/scanner/pools/{pool}/history: a pool's days, its backfill queued when too few. */
function bindPoolHistory(bind: Bind<unknown>, deps: ScannerDeps) {
  const state = deps.scanner;
  const positions = new WeakMap<PoolIndex, Map<string, number>>();
  const positionOf = (index: PoolIndex, pool: string): number | undefined => {
    let map = positions.get(index);
    if (!map) {
      map = new Map(index.items.map((item, i) => [item.pool.toLowerCase(), i]));
      positions.set(index, map);
    }
    return map.get(pool.toLowerCase());
  };
  const invalidPool = (pool: string | undefined) =>
    badRequest(`Not a DeFiLlama pool id: "${(pool ?? '').slice(0, 80)}"`, 'invalid_pool');

  const queuePageView = pageViewBackfill(deps, state.history);
  bind(endpoints.poolHistory).to(
    async ({ params, ctx }) => {
      const index = state.index();
      if (!index) throw unavailable(state.unavailableReason());
      const position = positionOf(index, params.pool);
      const item = position === undefined ? null : index.items[position]!;
      let days = await state.history.store.read(params.pool);
      let sample = false;
      if (days.length === 0 && index.sample && item) {
        // The shipped sample snapshot has no DeFiLlama history: a generated one, marked sample.
        days = sampleHistory(
          { ...item, apy: item.apySpot },
          index.asOf ? utcDay(index.asOf) : utcDay(deps.now()),
        );
        sample = true;
      }
      if (!item && days.length === 0) throw notFound(`No pool ${params.pool} in the scanner`);
      const backfill =
        !sample && days.length < MIN_HISTORY_DAYS ? await queuePageView(params.pool, ctx) : 'none';
      return {
        status: 200,
        cached: cacheBody({
          pool: item?.pool ?? params.pool.toLowerCase(),
          sample,
          item,
          days,
          backfill,
        }),
      };
    },
    { invalid: ({ ctx }) => invalidPool(ctx.params.pool) },
  );
}

function bindScannerTrackRecord(bind: Bind<unknown>, deps: ScannerDeps) {
  const state = deps.scanner;
  bind(endpoints.scannerTrackRecord).to(
    async ({ query }) => {
      const index = state.index();
      const tiers = deps.store.get('projectTiers');
      const sources = deps.store.get('sources');
      if (!index || !tiers || !sources) throw unavailable(state.unavailableReason());
      const bodies = await scannerTrackBodies({
        key: state.trackInputs(),
        logger: deps.logger,
        index,
        store: state.history.store,
        snapshot: deps.snapshot(),
        tiers,
        sources,
      });
      if (query.format === 'csv')
        return {
          status: 200,
          cached: bodies.csv,
          type: 'text/csv; charset=utf-8',
          headers: {
            'Content-Disposition': `attachment; filename="pigi-scanner-track-record-${bodies.asOf ?? 'empty'}.csv"`,
          },
        };
      return { status: 200, cached: bodies.json };
    },
    {
      invalid: () => badRequest('Query parameter format must be json or csv', 'invalid_query'),
    },
  );
}
