/**
 * GET /api/track-record: the track record (api/src/engine/track-record.ts) computed from the
 * answers the site published on the first day of each month (./as-of.ts) and the realized daily
 * data of the current snapshot. Computed on the first request and kept with its snapshot.
 */
import { stringify } from 'csv-stringify/sync';
import { BASE_KEY_OF_TYPE, type TrackRecord } from '@yield/contract';
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
import { answersAsOf, firstDataDay } from './as-of.ts';
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

/** The track record of a snapshot, or null when its sources or history never loaded. */
export function computeTrackRecord(snapshot: Snapshot): TrackRecord | null {
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

  const first = firstDataDay(history);
  const lastDays = [...snapshot.series.values()]
    .map((s) => s.rows[s.rows.length - 1]?.date)
    .filter((d): d is string => d !== undefined);
  const last = lastDays.length > 0 ? lastDays.reduce((a, b) => (a > b ? a : b)) : null;
  const records = new Map(sources.sources.map((s) => [s.id, s]));
  const decisions: Decision[] = [];
  if (first && last) {
    for (const { day, until } of decisionDays(first, last)) {
      const answers = answersAsOf(snapshot, day);
      if (!answers) continue;
      const b = answers.baseRates;
      decisions.push({
        day,
        until,
        rows: answers.strategies.map((m) => ({
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
      });
    }
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
const cache = new WeakMap<Snapshot, TrackBodies | null>();

/** The JSON and CSV bodies of a snapshot's track record (null: the data never loaded). */
export function trackRecordBodies(snapshot: Snapshot): TrackBodies | null {
  if (cache.has(snapshot)) return cache.get(snapshot)!;
  const record = computeTrackRecord(snapshot);
  const bodies = record
    ? {
        json: cacheBody(record),
        csv: cacheBytes(Buffer.from(trackRecordCsv(record))),
        asOf: record.asOf,
      }
    : null;
  cache.set(snapshot, bodies);
  return bodies;
}
