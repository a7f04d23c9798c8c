/**
 * The comparison's rules as pure functions (the method is docs/methodology.md): rows built from
 * the API's lists, sorting, name shortening, number formats and the chart's axes. Risk and GREAT
 * are the API's (GET /api/strategies), never recomputed here.
 */
import type {
  BaseRates,
  DetectedWarning,
  Exit,
  Incident,
  MetricStatus,
  NetYieldRankingItem,
  Provenance,
  RiskCharges,
  SeriesId,
  SourceType,
  StrategyMetrics,
  YieldSource,
} from '@yield/contract';
import { BASE_KEY_OF_TYPE, METHOD_VERSION, type ProvenanceKind } from '@yield/contract/constants';
import { niceTicks } from '@yield/charts';
import {
  formatApr,
  formatDay,
  formatPoints,
  formatProvenance,
  formatStale,
  formatTvl as formatTvlShared,
  hasNoLiveData,
  NO_LIVE_DATA,
  sourcePagePath,
} from '@yield/ui';

export interface ComparisonRow {
  /** Unique per table: the base rows share id 0, so they are keyed by their type. */
  key: string;
  id: number;
  name: string;
  token: string;
  yieldToken: string;
  type: SourceType;
  rating: number;
  safety: number;
  liquidity: number;
  isBaseRate: boolean;
  detailSlug: YieldSource['detailSlug'];
  activeIncidents: Incident[];
  /** Open warnings detected from data (dismissed ones too, with the operators' note). */
  openWarnings: DetectedWarning[];
  /** How the money comes back out; null on a base-rate row. */
  exit: Exit | null;
  /** exit.days, the Exit column's sort value. */
  exitDays: number | null;
  /** null when the API has no live metric for the source (listed, shown as N/A). */
  yield30d: number | null;
  riskAdjustedYield30d: number | null;
  tvl: number | null;
  /** 30d APR − risk-adjusted APR (the sum of the charges), percentage points a year. */
  risk: number | null;
  /** The API's verdict; a base-rate row is never GREAT itself. */
  great: boolean;
  /**
   * ok: plotted and ranked; insufficient_data: fewer than 20 days of history (N/A); stale: the
   * figures of the newest day the feed sent, marked stale and never GREAT.
   */
  status: MetricStatus;
  /** Where the row's figures come from (a base rate lists its components). */
  provenance: Provenance;
  breakdownId: SeriesId;
  /** The charges behind `risk` (the saver's weights scale them); null without live figures. */
  charges: RiskCharges | null;
  /**
   * The source's net figure for the saver's amount (net-yield/), while one is asked: null when
   * the ranking has no figure for it; absent otherwise.
   */
  net?: NetFigure | null;
}

/** A source's item of GET /api/net-yield/ranking and its place there (0 first). */
export type NetFigure = NetYieldRankingItem & { rank: number };

/** After a failed base-rate call all four rates count as 0. */
export const ZERO_BASE_RATES: BaseRates = {
  baserateDefi: 0,
  baserateStable: 0,
  baserateRiskAdjustedDefi: 0,
  baserateRiskAdjustedStable: 0,
  method: METHOD_VERSION,
  asOf: null,
  status: { stablecoin: 'ok', defi: 'ok' },
  provenance: {
    stablecoin: { kind: 'sample', asOf: null, stale: false },
    defi: { kind: 'sample', asOf: null, stale: false },
  },
};

function baseRateOf(
  type: SourceType,
  rates: BaseRates,
): Pick<ComparisonRow, 'yield30d' | 'riskAdjustedYield30d' | 'risk' | 'status' | 'provenance'> {
  const [reward, riskAdjusted] =
    type === 'stablecoin'
      ? [rates.baserateStable, rates.baserateRiskAdjustedStable]
      : [rates.baserateDefi, rates.baserateRiskAdjustedDefi];
  const status = rates.status[type];
  const provenance = rates.provenance[type];
  if (status === 'insufficient_data' || hasNoLiveData(provenance))
    return { yield30d: null, riskAdjustedYield30d: null, risk: null, status, provenance };
  // The base rates carry no risk of their own: by definition it is APR − risk-adjusted APR.
  // A stale base rate keeps its figures (computed from the days that arrived) and says so.
  return {
    yield30d: reward,
    riskAdjustedYield30d: riskAdjusted,
    risk: reward - riskAdjusted,
    status,
    provenance,
  };
}

/** One table's rows: the sources of `type` with their live metrics, and its DeFi Base Rate row. */
export function buildRows(
  type: SourceType,
  sources: readonly YieldSource[],
  metrics: readonly StrategyMetrics[],
  rates: BaseRates,
): ComparisonRow[] {
  const metricsById = new Map(metrics.map((m) => [m.id, m]));
  return sources
    .filter((s) => s.type === type)
    .map((source): ComparisonRow => {
      const common = {
        id: source.id,
        name: source.name,
        token: source.token,
        yieldToken: source.yieldToken,
        type: source.type,
        rating: source.rating,
        safety: source.safety,
        liquidity: source.liquidity,
        isBaseRate: source.isBaseRate,
        detailSlug: source.detailSlug,
        activeIncidents: source.incidents.filter((i) => i.active),
        openWarnings: source.warnings.filter((w) => w.closedOn === null),
        exit: source.exit,
        exitDays: source.exit?.days ?? null,
      };
      if (source.isBaseRate) {
        return {
          ...common,
          key: `base-${type}`,
          ...baseRateOf(type, rates),
          // After a failed base-rate call the list's own provenance says where the rate comes from.
          ...(rates === ZERO_BASE_RATES ? { provenance: source.provenance } : {}),
          tvl: null,
          great: false,
          breakdownId: BASE_KEY_OF_TYPE[type],
          charges:
            rates.status[type] === 'insufficient_data' ? null : (rates.charges?.[type] ?? null),
        };
      }
      const live = metricsById.get(source.id);
      // A stale source keeps its figures (those of its newest day), marked stale, never GREAT.
      // No live data (the site has imported, the source has no feed yet): listed without figures.
      const measured =
        live && live.status !== 'insufficient_data' && !hasNoLiveData(live.provenance)
          ? live
          : undefined;
      return {
        ...common,
        key: `source-${source.id}`,
        yield30d: measured ? measured.yield30d : null,
        riskAdjustedYield30d: measured ? measured.riskAdjustedYield30d : null,
        tvl: measured ? measured.tvl : null,
        risk: measured ? measured.risk : null,
        great: measured ? measured.great && measured.status === 'ok' : false,
        status: live?.status ?? 'ok',
        provenance: live?.provenance ?? source.provenance,
        breakdownId: source.id,
        charges: measured?.charges ?? null,
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Where the figures come from

/** The page's note above the comparison: `lead`, the day (formatDay), then `tail`. */
export interface DataNote {
  /** The kind of data the note speaks for; rows of another kind carry a tag (`rowDataTag`). */
  kind: ProvenanceKind;
  lead: string;
  asOf: string;
  tail: string;
}

const SAMPLE_MEANING = 'realistic examples, not live market figures.';
const NO_LIVE_MEANING = ` Rows marked ${NO_LIVE_DATA} have no feed the site imports yet: they are listed without figures, and neither plotted nor ranked.`;
const STALE_MEANING =
  ' Rows marked Stale have had no new data for more than 48 hours: their figures are from their last day, and they are never marked GREAT.';

/**
 * The note above the comparison, from the settings' `data` (all the first paint knows) and, once
 * loaded, the rows' own provenance: "Sample data as of …" while every row is sample, "Data:
 * DeFiLlama, as of …" once any row is imported (the sample rows are then tagged), "Data as of …"
 * for rows an operator typed (or before the rows are known, when the settings say no sample).
 */
export function dataNote(
  data: { sample: boolean; asOf: string; stale: boolean },
  rows?: readonly Pick<ComparisonRow, 'provenance' | 'status'>[],
): DataNote {
  const kinds = new Set(rows?.map((r) => r.provenance.kind));
  const stale = data.stale || Boolean(rows?.some((r) => r.status === 'stale'));
  // Rows without live data exist only once the site has imported: the note speaks for the rest.
  const kind: ProvenanceKind =
    kinds.size === 0
      ? data.sample
        ? 'sample'
        : 'operator'
      : kinds.has('defillama')
        ? 'defillama'
        : kinds.has('onchain')
          ? 'onchain'
          : kinds.has('operator')
            ? 'operator'
            : kinds.has('sample')
              ? 'sample'
              : 'defillama';
  const staleTail = stale ? STALE_MEANING : '';
  const noLiveTail = kinds.has('none') ? NO_LIVE_MEANING : '';
  if (kind === 'sample') {
    return {
      kind,
      lead: 'Sample data as of ',
      asOf: data.asOf,
      tail: `: ${SAMPLE_MEANING}${staleTail}`,
    };
  }
  const sampleTail = kinds.has('sample') ? ` Rows marked Sample data are ${SAMPLE_MEANING}` : '';
  const lead =
    kind === 'defillama'
      ? 'Data: DeFiLlama, as of '
      : kind === 'onchain'
        ? 'Data: share prices on chain, as of '
        : 'Data as of ';
  return { kind, lead, asOf: data.asOf, tail: `.${sampleTail}${noLiveTail}${staleTail}` };
}

/** The tag a row carries when its data is not of the kind the page's note speaks for. */
export function rowDataTag(
  row: Pick<ComparisonRow, 'provenance'>,
  noteKind: ProvenanceKind,
): string | null {
  if (hasNoLiveData(row.provenance)) return NO_LIVE_DATA;
  if (row.provenance.kind === noteKind) return null;
  if (row.provenance.kind === 'sample') return 'Sample data';
  if (row.provenance.kind === 'operator') return 'Operator data';
  if (row.provenance.kind === 'onchain') return 'On chain';
  return 'DeFiLlama';
}

/** A stale row's note: since when its data (or a base rate's component's) stopped arriving. */
export function staleNote(row: Pick<ComparisonRow, 'name' | 'isBaseRate' | 'provenance'>): string {
  const { provenance } = row;
  if (!row.isBaseRate) {
    const since = provenance.asOf ? formatDay(provenance.asOf) : 'its first day';
    return `${row.name}: no new data since ${since}. Its figures are those of that day, and it is never marked GREAT while it is stale.`;
  }
  const stale = (provenance.components ?? []).filter((c) => c.stale);
  const days = stale.map((c) => c.asOf).filter((d): d is string => d !== null);
  const since =
    days.length > 0 ? formatDay(days.reduce((a, b) => (a < b ? a : b))) : 'its first day';
  const which = stale.length > 0 ? ` (${stale.map((c) => c.series).join(', ')})` : '';
  return `${row.name}: built on a component with no new data since ${since}${which}. The rate is computed from the days that arrived.`;
}

/**
 * A base rate with a component without live data: which components its mean uses and which it
 * leaves out (null when it uses all of them).
 */
export function baseComponentsNote(
  row: Pick<ComparisonRow, 'name' | 'isBaseRate' | 'provenance'>,
): string | null {
  const components = row.isBaseRate ? (row.provenance.components ?? []) : [];
  const left = components.filter((c) => hasNoLiveData(c)).map((c) => c.series);
  if (left.length === 0) return null;
  const used = components.filter((c) => !hasNoLiveData(c)).map((c) => c.series);
  if (used.length === 0)
    return `${row.name}: none of its components (${left.join(', ')}) has live data yet, so it has no figures.`;
  return `${row.name}: the mean of ${used.join(', ')}. Left out, without live data: ${left.join(', ')}.`;
}

// ---------------------------------------------------------------------------------------------
// Sorting

export type SortKey =
  | 'name'
  | 'token'
  | 'yieldToken'
  | 'rating'
  | 'yield30d'
  | 'riskAdjustedYield30d'
  | 'tvl'
  | 'safety'
  | 'liquidity'
  | 'exitDays'
  | 'netApr';
export type SortDirection = 'ascend' | 'descend';
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

/** Every table starts on Overall Rating, best first. */
export const DEFAULT_SORT: SortState = { key: 'rating', direction: 'descend' };

/** Clicking the active header flips it; clicking another header selects it ascending. */
export function nextSort(current: SortState, clicked: SortKey): SortState {
  if (current.key === clicked) {
    return { key: clicked, direction: current.direction === 'ascend' ? 'descend' : 'ascend' };
  }
  return { key: clicked, direction: 'ascend' };
}

function sortValue(row: ComparisonRow, key: SortKey): number | string {
  const value = key === 'netApr' ? row.net?.netApr : row[key];
  // A missing live metric counts as 0 when sorting.
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? value.toLocaleLowerCase('en') : value;
}

function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}

/** Where a row stands in the net ranking: its API rank, after every ranked source when none. */
const netRank = (row: ComparisonRow) => row.net?.rank ?? Number.MAX_SAFE_INTEGER;

/**
 * By net APR: the rows whose net APR is unknown last, whichever the direction, in the API's order
 * (by gross APR); ties in the API's order too.
 */
function compareNet(a: ComparisonRow, b: ComparisonRow, sign: number): number {
  const x = a.net?.netApr ?? null;
  const y = b.net?.netApr ?? null;
  if (x === null && y !== null) return 1;
  if (y === null && x !== null) return -1;
  const primary = x === null || y === null ? 0 : (x - y) * sign;
  return primary !== 0 ? primary : netRank(a) - netRank(b);
}

/**
 * Sorts a table's rows; the DeFi Base Rate row always stays last, after the sources without live
 * data (never ranked, in the sort's order among themselves). Ties fall back to the higher
 * risk-adjusted APR, then the name, so the order never depends on the API's list order.
 */
export function sortRows(rows: readonly ComparisonRow[], sort: SortState): ComparisonRow[] {
  const sign = sort.direction === 'ascend' ? 1 : -1;
  const sources = rows.filter((r) => !r.isBaseRate);
  const baseRows = rows.filter((r) => r.isBaseRate);
  const sorted = [...sources].sort((a, b) => {
    // Rows without live data are not ranked: last, whichever way the table is sorted.
    const unranked = Number(hasNoLiveData(a.provenance)) - Number(hasNoLiveData(b.provenance));
    if (unranked !== 0) return unranked;
    if (sort.key === 'netApr') return compareNet(a, b, sign);
    const primary = compareValues(sortValue(a, sort.key), sortValue(b, sort.key)) * sign;
    if (primary !== 0) return primary;
    const byRiskAdjusted = compareValues(
      sortValue(b, 'riskAdjustedYield30d'),
      sortValue(a, 'riskAdjustedYield30d'),
    );
    if (byRiskAdjusted !== 0) return byRiskAdjusted;
    return compareValues(sortValue(a, 'name'), sortValue(b, 'name'));
  });
  return [...sorted, ...baseRows];
}

// ---------------------------------------------------------------------------------------------
// Names, links and formats

/** Under 600 px names drop the text after ' - ' ("Lido - stETH" → "Lido"). */
export function shortenName(name: string): string {
  const cut = name.indexOf(' - ');
  return cut === -1 ? name : name.slice(0, cut);
}

/**
 * The names one table shows under 600 px, by full name: each shortened as {@link shortenName}
 * says, except where that would make two of them equal. Those keep the first words after ' - '
 * that tell them apart ("Resolv - USD0++ Pool", "Resolv - USR Staking" → "Resolv USD0++",
 * "Resolv USR"); a name no prefix of words tells apart stays whole.
 */
export function distinctShortNames(names: readonly string[]): Map<string, string> {
  const short = new Map(names.map((name) => [name, shortenName(name)]));
  const clashing = (label: string) => names.filter((name) => short.get(name) === label);
  for (const name of names) {
    const group = clashing(short.get(name)!);
    if (group.length < 2) continue;
    const rests = group.map((full) =>
      full
        .slice(shortenName(full).length + 3)
        .split(/\s+/)
        .filter(Boolean),
    );
    const longest = Math.max(...rests.map((words) => words.length));
    for (let words = 1; words <= longest; words++) {
      const labels = group.map((full, i) =>
        [shortenName(full), ...rests[i]!.slice(0, words)].join(' '),
      );
      const taken = names.filter((other) => !group.includes(other)).map((o) => short.get(o));
      if (new Set(labels).size === labels.length && !labels.some((l) => taken.includes(l))) {
        group.forEach((full, i) => short.set(full, labels[i]!));
        break;
      }
      if (words === longest) group.forEach((full) => short.set(full, full));
    }
  }
  return short;
}

/** The four sources with a public page go there; every other source to its premium page. */
export const detailPath: (row: Pick<ComparisonRow, 'id' | 'detailSlug'>) => string = sourcePagePath;

/** The Exit column's words: "Instant", "7-day cooldown", "Queue, up to 5 days", "Locked 585 days". */
export function exitLabel(exit: Exit): string {
  const days = `${exit.days} day${exit.days === 1 ? '' : 's'}`;
  switch (exit.kind) {
    case 'instant':
      return 'Instant';
    case 'cooldown':
      return `${exit.days}-day cooldown`;
    case 'queue':
      return `Queue, up to ${days}`;
    case 'lock':
      return `Locked ${days}`;
  }
}

/** TVL on the comparison page: B with two decimals ($4.96B), M and K with one. */
export function formatTvl(value: number | null, billionDecimals = 2): string {
  return formatTvlShared(value, billionDecimals);
}

// The site's formats (@yield/ui), as the comparison's modules use them.
export { formatApr, formatDay, formatPoints, formatProvenance, formatStale };

// ---------------------------------------------------------------------------------------------
// Chart points, GREAT and the axes

export interface ChartPoint {
  key: string;
  id: number;
  name: string;
  type: SourceType;
  isBaseRate: boolean;
  /** 30d APR − risk-adjusted APR (percentage points a year). */
  risk: number;
  /** 30d APR. */
  reward: number;
  riskAdjusted: number;
  great: boolean;
  hasIncident: boolean;
  /** An open warning detected from data that no operator dismissed. */
  hasWarning: boolean;
  detailSlug: YieldSource['detailSlug'];
}

/**
 * A table's rows as chart points; sources without live figures are listed but not plotted, and so
 * is a zeroed base rate (after a failed base-rate call). GREAT (docs/methodology.md, step 7) is the API's.
 */
export function chartPoints(rows: readonly ComparisonRow[]): ChartPoint[] {
  return rows
    .filter((r) => !hasNoLiveData(r.provenance))
    .filter((r) => r.yield30d !== null && r.riskAdjustedYield30d !== null && r.risk !== null)
    .filter((r) => !r.isBaseRate || r.yield30d !== 0 || r.riskAdjustedYield30d !== 0)
    .map((r) => ({
      key: r.key,
      id: r.id,
      name: r.name,
      type: r.type,
      isBaseRate: r.isBaseRate,
      risk: r.risk!,
      reward: r.yield30d!,
      riskAdjusted: r.riskAdjustedYield30d!,
      great: r.great,
      hasIncident: r.activeIncidents.length > 0,
      hasWarning: r.openWarnings.some((w) => !w.dismissed),
      detailSlug: r.detailSlug,
    }));
}

export interface AxisRange {
  min: number;
  max: number;
  /**
   * Gridlines about a quarter of the axis apart, at round values (`niceTicks` of
   * `@yield/charts`: 0, 2, 4, 6% rather than 0, 2.17, 4.33%); the axis ends stay where the spec
   * puts them, so the points use the whole plot.
   */
  tickPositions: number[];
}

/** The base rate's reward per unit of risk (the chart's dashed line from the origin), if any. */
export function baseRateSlope(points: readonly ChartPoint[]): number | null {
  const base = points.find((p) => p.isBaseRate);
  return base && base.risk > 0 ? base.reward / base.risk : null;
}

/** x max = largest risk + 0.3, y max = largest reward + 1, round gridlines about a quarter apart. */
export function chartAxes(points: readonly Pick<ChartPoint, 'risk' | 'reward'>[]): {
  x: AxisRange;
  y: AxisRange;
} {
  const maxRisk = points.length ? Math.max(...points.map((p) => p.risk)) : 0;
  const maxReward = points.length ? Math.max(...points.map((p) => p.reward)) : 0;
  const minRisk = Math.min(0, ...points.map((p) => p.risk));
  const minReward = Math.min(0, ...points.map((p) => p.reward));
  // Rounded like the ticks, so the top gridline and its label are not dropped as "past the max".
  const xMax = Number((maxRisk + 0.3).toFixed(6));
  const yMax = Number((maxReward + 1).toFixed(6));
  return {
    x: { min: minRisk, max: xMax, tickPositions: niceTicks(minRisk, xMax) },
    y: { min: minReward, max: yMax, tickPositions: niceTicks(minReward, yMax) },
  };
}
