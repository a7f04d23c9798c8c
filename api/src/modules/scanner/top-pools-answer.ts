/**
 * GET /api/track-record/scanner: the scanner's track record (api/src/engine/top-pools-returns.ts)
 * computed from the whole daily history of every pool of the current snapshot (pool-history.ts,
 * read one pool at a time: only each pool's decisions are kept, not its history), the projects'
 * safety as of each decision day, and the DeFi Base Rates' daily APYs of the current data
 * snapshot. Computed on the first request and kept until an input changes: the data snapshot (a
 * new history.json), pools.json, project-tiers.json, sources.json, or the history of a pool it
 * reads (a non-outlier pool of the snapshot) gaining days from a backfill (scanner-state.ts,
 * `trackInputs`). A backfill of an outlier or of a pool outside the snapshot keeps it.
 */
import pLimit from 'p-limit';
import { stringify } from 'csv-stringify/sync';
import { BASE_KEY_OF_TYPE, type ScannerTrackRecord } from '@yield/contract';
import {
  assembleScannerTrack,
  poolDecisions,
  SCANNER_TRACK_SIZE,
  TRACK_START_VALUE,
  widenSpan,
  type HistorySpan,
  type Score,
} from '../../engine/index.ts';
import { cacheBody, cacheBytes, type CachedBody } from '../../platform/http/cached-body.ts';
import type { Snapshot } from '../yields/index.ts';
import type { PoolIndex } from './pool-index.ts';
import type { PoolHistory } from '../import/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { projectSafetyTable } from './project-safety.ts';
import type { ProjectTiersFile } from './schemas.ts';
import type { SourcesFile } from '../yields/index.ts';
import { MIN_HISTORY_DAYS, TRAILING_DAYS } from './score-from-history.ts';

export interface ScannerTrackInputs {
  index: PoolIndex;
  store: PoolHistory;
  snapshot: Snapshot;
  tiers: ProjectTiersFile;
  sources: SourcesFile;
}

/** The daily APYs of a base rate of the data snapshot, by day (empty without it). */
function baseByDay(snapshot: Snapshot, key: string): Map<string, number> {
  const series = snapshot.series.get(key);
  return new Map((series?.rows ?? []).map((r) => [r.date, r.apy]));
}

export async function computeScannerTrackRecord(
  inputs: ScannerTrackInputs,
): Promise<ScannerTrackRecord> {
  const { index, store, snapshot, tiers, sources } = inputs;
  const tables = new Map<string, ReturnType<typeof projectSafetyTable>>();
  const safetyOf = (project: string, day: string): Score => {
    let table = tables.get(day);
    if (!table) {
      table = projectSafetyTable(tiers, sources, day);
      tables.set(day, table);
    }
    return table.of(project).safety;
  };
  const options = {
    size: SCANNER_TRACK_SIZE,
    minDays: MIN_HISTORY_DAYS,
    trailingDays: TRAILING_DAYS,
  };
  const span: HistorySpan = { firstDay: null, lastDay: null };
  const limit = pLimit(16);
  // One pool at a time: only its decisions are kept, not its history. The scanner's default
  // query leaves outliers out: their histories are not read.
  const decisions = await Promise.all(
    index.items
      .filter((item) => !item.outlier)
      .map((item) =>
        limit(async () => {
          const history = await store.read(item.pool);
          widenSpan(span, history);
          return poolDecisions(
            {
              pool: item.pool,
              project: item.project,
              chain: item.chain,
              symbol: item.symbol,
              stablecoin: item.stablecoin,
              ilRisk: item.ilRisk,
              exposure: item.exposure,
              outlier: item.outlier,
              history,
            },
            safetyOf,
            options,
          );
        }),
      ),
  );
  const track = assembleScannerTrack(
    decisions,
    span,
    {
      stablecoin: baseByDay(snapshot, BASE_KEY_OF_TYPE.stablecoin),
      crypto: baseByDay(snapshot, BASE_KEY_OF_TYPE.defi),
    },
    options,
  );
  return {
    method: index.method as ScannerTrackRecord['method'],
    sample: index.sample,
    firstDay: track.firstDay,
    asOf: track.lastDay,
    startValue: TRACK_START_VALUE,
    size: SCANNER_TRACK_SIZE,
    minDays: MIN_HISTORY_DAYS,
    months: track.months,
    skipped: track.skipped,
    final: track.final,
  };
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Columns of the CSV, one line per month, group and pick. */
export const SCANNER_TRACK_CSV_COLUMNS = [
  'decidedOn',
  'until',
  'days',
  'candidates',
  'group',
  'rank',
  'pool',
  'project',
  'chain',
  'symbol',
  'kind',
  'apy',
  'riskAdjustedApr',
  'realizedApy',
  'daysWithData',
  'groupRealizedApy',
  'groupBaseApy',
  'groupValue',
  'baseValue',
] as const;

/** RFC 4180 CSV (the scanner's conventions: CRLF, formulas escaped: pool names are third-party). */
export function scannerTrackCsv(record: ScannerTrackRecord): string {
  const rows = record.months.flatMap((m) =>
    (['riskAdjusted', 'rawApy'] as const).flatMap((group) =>
      m[group].picks.map((p, k) => [
        m.decidedOn,
        m.until,
        m.days,
        m.candidates,
        group,
        k + 1,
        p.pool,
        p.project,
        p.chain,
        p.symbol,
        p.kind,
        round(p.apy, 4),
        round(p.riskAdjustedApr, 4),
        round(p.realizedApy, 4),
        p.daysWithData,
        round(m[group].realizedApy, 4),
        round(m[group].baseApy, 4),
        round(m.value[group], 2),
        round(m.value.base, 2),
      ]),
    ),
  );
  return stringify([[...SCANNER_TRACK_CSV_COLUMNS], ...rows], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  });
}

export interface ScannerTrackBodies {
  json: CachedBody;
  csv: CachedBody;
  asOf: string | null;
}

const cache = new WeakMap<object, { snapshot: Snapshot; bodies: Promise<ScannerTrackBodies> }>();

export interface ScannerTrackRequest extends ScannerTrackInputs {
  /**
   * Stands for every input but the data snapshot: the scanner state's `trackInputs()`, a new
   * object when pools.json, project-tiers.json or sources.json changes or a backfill adds days
   * to a non-outlier pool of the snapshot. A new index built for any other reason (the trailing
   * histories read, a backfill of a pool the record does not read) keeps it.
   */
  key: object;
  logger?: Logger;
}

/** The JSON and CSV bodies, computed once per set of inputs (`key`) and data snapshot. */
export function scannerTrackBodies(inputs: ScannerTrackRequest): Promise<ScannerTrackBodies> {
  const hit = cache.get(inputs.key);
  if (hit && hit.snapshot === inputs.snapshot) return hit.bodies;
  const started = performance.now();
  const bodies = computeScannerTrackRecord(inputs).then((record) => {
    inputs.logger?.info('scanner track record computed', {
      pools: inputs.index.size,
      ms: Math.round(performance.now() - started),
    });
    return {
      json: cacheBody(record),
      csv: cacheBytes(Buffer.from(scannerTrackCsv(record))),
      asOf: record.asOf,
    };
  });
  cache.set(inputs.key, { snapshot: inputs.snapshot, bodies });
  // A failed read is not kept: the next request tries again.
  bodies.catch(() => {
    if (cache.get(inputs.key)?.bodies === bodies) cache.delete(inputs.key);
  });
  return bodies;
}
