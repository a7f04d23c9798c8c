/**
 * GET /api/track-record: the track record (api/src/engine/top-picks-returns.ts) computed from the
 * answers the site published on the first day of each month (./as-of.ts, computed in the worker of
 * ./as-of-service.ts and kept with the other past days) and the realized daily data of the
 * current snapshot. Computed on the first request and kept with its snapshot.
 */
import { stringify } from 'csv-stringify/sync';
import {
  BASE_KEY_OF_TYPE,
  type BaseRates,
  type StrategyMetrics,
  type TrackRecord,
} from '@yield/contract';
import {
  apyToApr,
  decisionDays,
  trackRecord,
  TRACK_START_VALUE,
  type Decision,
  type RealizedSeries,
  type TrackType,
} from '../../engine/index.ts';
import { coinOf, ETH_COIN, type PricesFile, type YieldSourceRecord } from './schemas.ts';
import { firstDataDay, type AsOfAnswers } from './as-of.ts';
import type { AsOfService } from './as-of-service.ts';
import { cacheBody, cacheBytes, type CachedBody } from '../../platform/http/cached-body.ts';
import { dataInfo, type ComputedSeries, type Snapshot } from './snapshot.ts';

/** The value of one priced token in the source's unit, by day (dollars, or ETH for ETH tokens). */
function tokenValues(record: YieldSourceRecord, prices: PricesFile | null) {
  if (!record.priceToken || !prices) return undefined;
  const points = prices.coins[coinOf(record.priceToken)] ?? [];
  if (record.unit === 'USD') return new Map(points.map((p) => [p.date, p.price]));
  const eth = new Map((prices.coins[ETH_COIN] ?? []).map((p) => [p.date, p.price]));
  const out = new Map<string, number>();
  for (const p of points) {
    const e = eth.get(p.date);
    if (e !== undefined && e > 0) out.set(p.date, p.price / e);
  }
  return out;
}

const aprByDay = (s: ComputedSeries) => new Map(s.rows.map((r) => [r.date, apyToApr(r.apy)]));

/** The newest day of any computed series of a snapshot (null without rows). */
function lastDataDay(snapshot: Snapshot): string | null {
  const lastDays = [...snapshot.series.values()]
    .map((s) => s.rows[s.rows.length - 1]?.date)
    .filter((d): d is string => d !== undefined);
  return lastDays.length > 0 ? lastDays.reduce((a, b) => (a > b ? a : b)) : null;
}

/** The days whose published answers the track record reads: the first of each month. */
export function trackRecordDays(snapshot: Snapshot): { day: string; until: string }[] {
  const history = snapshot.input.history;
  const first = history ? firstDataDay(history) : null;
  const last = lastDataDay(snapshot);
  return first && last ? decisionDays(first, last) : [];
}

/** What was published on `day`: its rows and base rates, read back from its bodies. */
function decisionOf(
  day: string,
  until: string,
  answers: AsOfAnswers,
  records: Map<number, YieldSourceRecord>,
): Decision {
  // JSON keeps every figure exactly: the rows are those the site served that day.
  const strategies = JSON.parse(answers.bodies.strategies.body.toString()) as StrategyMetrics[];
  const b = JSON.parse(answers.bodies.baserate.body.toString()) as BaseRates;
  return {
    day,
    until,
    rows: strategies.map((m) => ({
      id: m.id,
      name: records.get(m.id)!.name,
      type: records.get(m.id)!.type as TrackType,
      unit: records.get(m.id)!.unit,
      status: m.status,
      yield30d: m.yield30d,
      riskAdjustedYield30d: m.riskAdjustedYield30d,
    })),
    base: {
      stablecoin: {
        key: BASE_KEY_OF_TYPE.stablecoin,
        status: b.status.stablecoin,
        yield30d: b.baserateStable,
        riskAdjustedYield30d: b.baserateRiskAdjustedStable,
      },
      defi: {
        key: BASE_KEY_OF_TYPE.defi,
        status: b.status.defi,
        yield30d: b.baserateDefi,
        riskAdjustedYield30d: b.baserateRiskAdjustedDefi,
      },
    },
  };
}

/**
 * The track record of a snapshot, or null when its sources or history never loaded. `published`
 * holds the answers of each of trackRecordDays (null: none that day).
 */
export function computeTrackRecord(
  snapshot: Snapshot,
  published: ReadonlyMap<string, AsOfAnswers | null>,
): TrackRecord | null {
  const { sources, history, prices } = snapshot.input;
  if (!sources || !history) return null;
  const series = new Map<string, RealizedSeries>();
  for (const record of sources.sources) {
    const s = snapshot.series.get(String(record.id));
    if (!s) continue;
    series.set(String(record.id), {
      aprByDay: aprByDay(s),
      valueByDay: tokenValues(record, prices),
      incidents: record.incidents,
      depegs: s.warnings
        .filter((w) => w.kind === 'depeg' && !w.dismissed)
        .map((w) => ({ openedOn: w.openedOn, closedOn: w.closedOn, text: w.text })),
    });
  }
  for (const key of Object.values(BASE_KEY_OF_TYPE)) {
    const s = snapshot.series.get(key);
    if (s) series.set(key, { aprByDay: aprByDay(s) });
  }

  const last = lastDataDay(snapshot);
  const records = new Map(sources.sources.map((s) => [s.id, s]));
  const decisions: Decision[] = [];
  for (const { day, until } of trackRecordDays(snapshot)) {
    const answers = published.get(day);
    if (answers) decisions.push(decisionOf(day, until, answers, records));
  }
  return {
    method: 'ra30-v1',
    sample: dataInfo(snapshot.series, history.asOf).sample,
    asOf: last,
    startValue: TRACK_START_VALUE,
    types: trackRecord(decisions, series).map((t) => ({
      ...t,
      months: t.months.map((m) => ({
        ...m,
        base: { ...m.base, key: BASE_KEY_OF_TYPE[t.type] },
      })),
    })),
  };
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Columns of the CSV, one line per month and type. */
export const TRACK_CSV_COLUMNS = [
  'type',
  'decidedOn',
  'until',
  'days',
  'riskAdjustedPick',
  'riskAdjustedPickId',
  'riskAdjustedPickUnit',
  'riskAdjustedPickRaApr',
  'riskAdjustedPickReturnPct',
  'riskAdjustedPickPriceChangePct',
  'riskAdjustedPickEvents',
  'riskAdjustedPickLossMeasured',
  'rawApyPick',
  'rawApyPickId',
  'rawApyPickUnit',
  'rawApyPickApr',
  'rawApyPickReturnPct',
  'rawApyPickPriceChangePct',
  'rawApyPickEvents',
  'rawApyPickLossMeasured',
  'baseRate',
  'baseRateReturnPct',
  'valueRiskAdjusted',
  'valueRawApy',
  'valueBaseRate',
] as const;

/** RFC 4180 CSV of the track record (the scanner's conventions: CRLF, formulas escaped). */
export function trackRecordCsv(record: TrackRecord): string {
  const events = (e: { kind: string; date: string }[]) =>
    e.map((x) => `${x.kind} ${x.date}`).join('; ');
  const pct = (v: number | null) => (v === null ? '' : round(v, 4));
  const rows = record.types.flatMap((t) =>
    t.months.map((m) => [
      t.type,
      m.decidedOn,
      m.until,
      m.days,
      m.riskAdjusted.name,
      m.riskAdjusted.id,
      m.riskAdjusted.unit,
      round(m.riskAdjusted.riskAdjustedYield30d, 4),
      pct(m.riskAdjusted.returnPct),
      pct(m.riskAdjusted.priceChangePct),
      events(m.riskAdjusted.events),
      m.riskAdjusted.lossMeasured ? 'true' : 'false',
      m.rawApy.name,
      m.rawApy.id,
      m.rawApy.unit,
      round(m.rawApy.yield30d, 4),
      pct(m.rawApy.returnPct),
      pct(m.rawApy.priceChangePct),
      events(m.rawApy.events),
      m.rawApy.lossMeasured ? 'true' : 'false',
      m.base.key,
      pct(m.base.returnPct),
      round(m.value.riskAdjusted, 2),
      round(m.value.rawApy, 2),
      round(m.value.base, 2),
    ]),
  );
  return stringify([[...TRACK_CSV_COLUMNS], ...rows], {
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  });
}

interface TrackBodies {
  json: CachedBody;
  csv: CachedBody;
  asOf: string | null;
}
const cache = new WeakMap<Snapshot, Promise<TrackBodies | null>>();

/**
 * The JSON and CSV bodies of a snapshot's track record (null: the data never loaded), computed
 * once per snapshot: concurrent first requests wait for the same computation.
 */
export function trackRecordBodies(
  snapshot: Snapshot,
  pastDays: AsOfService,
  today: string,
): Promise<TrackBodies | null> {
  let bodies = cache.get(snapshot);
  if (!bodies) {
    bodies = computeBodies(snapshot, pastDays, today);
    cache.set(snapshot, bodies);
    // A failure (the worker stopped) is not kept: the next request tries again.
    bodies.catch(() => cache.delete(snapshot));
  }
  return bodies;
}

async function computeBodies(
  snapshot: Snapshot,
  pastDays: AsOfService,
  today: string,
): Promise<TrackBodies | null> {
  const { sources, history } = snapshot.input;
  if (!sources || !history) return null;
  // Asked for all at once: the worker computes the days not kept yet, one after the other.
  const days = trackRecordDays(snapshot).map(({ day }) => day);
  const answers = await Promise.all(days.map((d) => pastDays.answers(snapshot.input, d, today)));
  const record = computeTrackRecord(snapshot, new Map(days.map((d, i) => [d, answers[i]!])));
  return record
    ? {
        json: cacheBody(record),
        csv: cacheBytes(Buffer.from(trackRecordCsv(record))),
        asOf: record.asOf,
      }
    : null;
}
