/**
 * The track record (docs/methodology.md, "Track record"): month by month, what following the
 * site's top picks would have paid. Pure: the rankings as published on each decision day and the
 * daily data in, the months and the value of a starting amount out. No Koa, no files, no clock.
 *
 * - Decision days are the first day of each month; the holding runs over the days after it, up
 *   to and including the first day of the next month (a pick made with a day's data earns from the
 *   next day on: no day is both seen and earned).
 * - Per type, the picks are the top row by risk-adjusted 30-day APR and the top row by 30-day APR
 *   among the rows whose status was `ok` that day (ties: the lower id). A month without a base
 *   rate or any `ok` row of the type is left out.
 * - What a pick paid: ∏(1 + APR_d / 100 / 365) over the days held that have a row, times the
 *   value of its priced token at the end over its value at the start (in the source's unit: the
 *   dollar, or ETH for a token pegged to ETH), so a depeg is the loss it was. When no prices
 *   cover both ends the factor is 1, and a month with an incident or a depeg in it says that its
 *   loss is not measured (`lossMeasured: false`).
 * - The base rate of the type paid its own compounded daily APRs.
 */

export type TrackType = 'stablecoin' | 'defi';

/** One row of a day's published ranking (GET /api/strategies?asOf=…). */
export interface RankedRow {
  id: number;
  name: string;
  type: TrackType;
  unit: 'USD' | 'ETH';
  status: string;
  yield30d: number;
  riskAdjustedYield30d: number;
}

/** A base rate as published that day (GET /api/baserate?asOf=…). */
export interface PublishedBase {
  key: string;
  status: string;
  yield30d: number;
  riskAdjustedYield30d: number;
}

export interface Decision {
  /** The decision day (first of the month). */
  day: string;
  /** The end of the holding (first of the next month). */
  until: string;
  rows: readonly RankedRow[];
  base: Readonly<Record<TrackType, PublishedBase>>;
}

export interface TrackEvent {
  kind: 'incident' | 'depeg';
  date: string;
  summary: string;
}

/** What is known of one series over the whole history, to measure what it paid. */
export interface RealizedSeries {
  /** The day's APR (%), by day. */
  aprByDay: ReadonlyMap<string, number>;
  /** The value of one token in the series' unit, by day (absent without prices). */
  valueByDay?: ReadonlyMap<string, number>;
  /** Incidents (by day) and depeg warnings (opened, closed or null). */
  incidents?: readonly { date: string; kind: string; summary: string }[];
  depegs?: readonly { openedOn: string; closedOn: string | null; text: string }[];
}

export interface PickOutcome {
  id: number;
  name: string;
  unit: 'USD' | 'ETH';
  yield30d: number;
  riskAdjustedYield30d: number;
  returnPct: number;
  yieldPct: number;
  priceChangePct: number | null;
  events: TrackEvent[];
  lossMeasured: boolean;
}

export interface TrackMonth {
  decidedOn: string;
  until: string;
  days: number;
  riskAdjusted: PickOutcome;
  rawApy: PickOutcome;
  base: { key: string; yield30d: number; riskAdjustedYield30d: number; returnPct: number };
  value: { riskAdjusted: number; rawApy: number; base: number };
}

export interface TrackOfType {
  type: TrackType;
  months: TrackMonth[];
  final: { riskAdjusted: number; rawApy: number; base: number };
}

export const TRACK_START_VALUE = 10_000;
export const TRACK_TYPES: readonly TrackType[] = ['stablecoin', 'defi'];

const DAY_MS = 86_400_000;
const dayAfter = (day: string, n = 1) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The first day of every month from the month of `first` on whose next month starts by `last`. */
export function decisionDays(first: string, last: string): { day: string; until: string }[] {
  const out: { day: string; until: string }[] = [];
  let y = Number(first.slice(0, 4));
  let m = Number(first.slice(5, 7));
  const iso = (yy: number, mm: number) => `${yy}-${String(mm).padStart(2, '0')}-01`;
  let day = iso(y, m);
  if (day < first) {
    if (m === 12) [y, m] = [y + 1, 1];
    else m += 1;
    day = iso(y, m);
  }
  for (;;) {
    const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
    const until = iso(ny, nm);
    if (until > last) break;
    out.push({ day, until });
    [y, m, day] = [ny, nm, until];
  }
  return out;
}

/** The value of the newest day on or before `day` (null when there is none). */
function valueOnOrBefore(values: ReadonlyMap<string, number>, day: string, notBefore: string) {
  for (let d = day; d >= notBefore; d = dayAfter(d, -1)) {
    const v = values.get(d);
    if (v !== undefined) return v;
  }
  return null;
}

/** Days a price may lag its day (the newest price within this many days before it counts). */
export const PRICE_LOOKBACK_DAYS = 3;

/** What one series paid from the day after `from` up to and including `until`. */
export function realized(series: RealizedSeries, from: string, until: string) {
  let factor = 1;
  let days = 0;
  for (let d = dayAfter(from); d <= until; d = dayAfter(d)) {
    const apr = series.aprByDay.get(d);
    if (apr === undefined) continue;
    factor *= 1 + apr / 100 / 365;
    days++;
  }
  let priceFactor: number | null = null;
  if (series.valueByDay) {
    const start = valueOnOrBefore(series.valueByDay, from, dayAfter(from, -PRICE_LOOKBACK_DAYS));
    const end = valueOnOrBefore(series.valueByDay, until, dayAfter(until, -PRICE_LOOKBACK_DAYS));
    if (start !== null && end !== null && start > 0) priceFactor = end / start;
  }
  const events: TrackEvent[] = [
    ...(series.incidents ?? [])
      .filter((i) => i.date > from && i.date <= until)
      .map((i): TrackEvent => ({ kind: 'incident', date: i.date, summary: i.summary })),
    ...(series.depegs ?? [])
      .filter((w) => w.openedOn <= until && (w.closedOn === null || w.closedOn > from))
      .map((w): TrackEvent => ({ kind: 'depeg', date: w.openedOn, summary: w.text })),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const total = factor * (priceFactor ?? 1);
  return {
    growth: total,
    days,
    yieldPct: 100 * (factor - 1),
    returnPct: 100 * (total - 1),
    priceChangePct: priceFactor === null ? null : 100 * (priceFactor - 1),
    events,
    lossMeasured: events.length === 0 || priceFactor !== null,
  };
}

/** The top `ok` row of `type` by `key` (ties: the lower id), or null. */
export function topPick(
  rows: readonly RankedRow[],
  type: TrackType,
  key: 'riskAdjustedYield30d' | 'yield30d',
): RankedRow | null {
  let best: RankedRow | null = null;
  for (const r of rows) {
    if (r.type !== type || r.status !== 'ok') continue;
    if (!best || r[key] > best[key] || (r[key] === best[key] && r.id < best.id)) best = r;
  }
  return best;
}

/**
 * The track record of each type. `series` holds the realized data of every source by id and of
 * each base rate by its key.
 */
export function trackRecord(
  decisions: readonly Decision[],
  series: ReadonlyMap<string, RealizedSeries>,
  startValue = TRACK_START_VALUE,
): TrackOfType[] {
  const empty: RealizedSeries = { aprByDay: new Map() };
  return TRACK_TYPES.map((type) => {
    const value = { riskAdjusted: startValue, rawApy: startValue, base: startValue };
    const months: TrackMonth[] = [];
    for (const d of decisions) {
      const base = d.base[type];
      const ra = topPick(d.rows, type, 'riskAdjustedYield30d');
      const raw = topPick(d.rows, type, 'yield30d');
      if (!ra || !raw || base.status !== 'ok') continue;
      const outcome = (row: RankedRow): PickOutcome => {
        const r = realized(series.get(String(row.id)) ?? empty, d.day, d.until);
        return {
          id: row.id,
          name: row.name,
          unit: row.unit,
          yield30d: row.yield30d,
          riskAdjustedYield30d: row.riskAdjustedYield30d,
          returnPct: r.returnPct,
          yieldPct: r.yieldPct,
          priceChangePct: r.priceChangePct,
          events: r.events,
          lossMeasured: r.lossMeasured,
        };
      };
      const riskAdjusted = outcome(ra);
      const rawApy = outcome(raw);
      const baseReturn = realized(series.get(base.key) ?? empty, d.day, d.until);
      value.riskAdjusted *= 1 + riskAdjusted.returnPct / 100;
      value.rawApy *= 1 + rawApy.returnPct / 100;
      value.base *= 1 + baseReturn.returnPct / 100;
      months.push({
        decidedOn: d.day,
        until: d.until,
        days: Math.round((Date.parse(d.until) - Date.parse(d.day)) / DAY_MS),
        riskAdjusted,
        rawApy,
        base: {
          key: base.key,
          yield30d: base.yield30d,
          riskAdjustedYield30d: base.riskAdjustedYield30d,
          returnPct: baseReturn.returnPct,
        },
        value: { ...value },
      });
    }
    return { type, months, final: { ...value } };
  });
}
