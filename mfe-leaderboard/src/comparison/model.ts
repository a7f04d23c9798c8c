/**
 * The comparison's rules as pure functions (the method is docs/methodology.md): rows built from
 * the API's lists, sorting, name shortening, number formats, GREAT and the chart's axes.
 */
import type {
  BaseRates,
  Incident,
  RiskBreakdown,
  SourceType,
  StrategyMetrics,
  YieldSource,
} from '@yield/platform';
import { formatApr, formatDay, formatPoints, formatTvl as formatTvlShared } from '@yield/ui';

export type BreakdownId = RiskBreakdown['id'];

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
  /** null when the API has no live metric for the source (listed, shown as N/A). */
  yield30d: number | null;
  riskAdjustedYield30d: number | null;
  tvl: number | null;
  /** ok: plotted and ranked; insufficient_data: fewer than 20 days of history. */
  status: 'ok' | 'insufficient_data';
  breakdownId: BreakdownId;
}

export const ZERO_BASE_RATES: BaseRates = {
  baserateDefi: 0,
  baserateStable: 0,
  baserateRiskAdjustedDefi: 0,
  baserateRiskAdjustedStable: 0,
};

function baseRateOf(type: SourceType, rates: BaseRates) {
  return type === 'stablecoin'
    ? { yield30d: rates.baserateStable, riskAdjustedYield30d: rates.baserateRiskAdjustedStable }
    : { yield30d: rates.baserateDefi, riskAdjustedYield30d: rates.baserateRiskAdjustedDefi };
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
      };
      if (source.isBaseRate) {
        const base = baseRateOf(type, rates);
        return {
          ...common,
          key: `base-${type}`,
          ...base,
          tvl: null,
          status: 'ok',
          breakdownId: type === 'stablecoin' ? 'base-stablecoin' : 'base-defi',
        };
      }
      const live = metricsById.get(source.id);
      const insufficient = live?.status === 'insufficient_data';
      return {
        ...common,
        key: `source-${source.id}`,
        yield30d: live && !insufficient ? live.yield30d : null,
        riskAdjustedYield30d: live && !insufficient ? live.riskAdjustedYield30d : null,
        tvl: live && !insufficient ? live.tvl : null,
        status: insufficient ? 'insufficient_data' : 'ok',
        breakdownId: source.id,
      };
    });
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
  | 'liquidity';
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
  const value = row[key];
  // A missing live metric counts as 0 when sorting.
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? value.toLocaleLowerCase('en') : value;
}

function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}

/**
 * Sorts a table's rows; the DeFi Base Rate row always stays last. Ties fall back to the higher
 * risk-adjusted APR, then the name, so the order never depends on the API's list order.
 */
export function sortRows(rows: readonly ComparisonRow[], sort: SortState): ComparisonRow[] {
  const sign = sort.direction === 'ascend' ? 1 : -1;
  const sources = rows.filter((r) => !r.isBaseRate);
  const baseRows = rows.filter((r) => r.isBaseRate);
  const sorted = [...sources].sort((a, b) => {
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

/** The four sources with a public page go there; every other source to its premium page. */
export function detailPath(row: Pick<ComparisonRow, 'id' | 'detailSlug'>): string {
  return row.detailSlug ? `/options/${row.detailSlug}` : `/premium/${row.id}`;
}

/** TVL on the comparison page: B with two decimals ($4.96B), M and K with one. */
export function formatTvl(value: number | null, billionDecimals = 2): string {
  return formatTvlShared(value, billionDecimals);
}

// The site's formats (@yield/ui), as the comparison's modules use them.
export { formatApr, formatDay, formatPoints };

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
  detailSlug: YieldSource['detailSlug'];
}

/**
 * GREAT (docs/methodology.md, step 7): the point's reward is above the base rate's
 * reward/risk slope times its risk. Without a base risk (zeros after a failed fetch) there is no
 * slope, and a source with an active incident is never GREAT.
 */
export function isGreat(
  point: { risk: number; reward: number; hasIncident: boolean },
  base: { risk: number; reward: number },
): boolean {
  if (point.hasIncident || !(base.risk > 0)) return false;
  return point.reward > (base.reward / base.risk) * point.risk;
}

/** A table's rows as chart points; sources without live figures are listed but not plotted. */
export function chartPoints(rows: readonly ComparisonRow[]): ChartPoint[] {
  const baseRow = rows.find((r) => r.isBaseRate);
  const base = {
    reward: baseRow?.yield30d ?? 0,
    risk: (baseRow?.yield30d ?? 0) - (baseRow?.riskAdjustedYield30d ?? 0),
  };
  return rows
    .filter((r) => r.yield30d !== null && r.riskAdjustedYield30d !== null)
    .filter((r) => !r.isBaseRate || r.yield30d !== 0 || r.riskAdjustedYield30d !== 0)
    .map((r) => {
      const reward = r.yield30d!;
      const risk = reward - r.riskAdjustedYield30d!;
      const hasIncident = r.activeIncidents.length > 0;
      return {
        key: r.key,
        id: r.id,
        name: r.name,
        type: r.type,
        isBaseRate: r.isBaseRate,
        risk,
        reward,
        riskAdjusted: r.riskAdjustedYield30d!,
        great: !r.isBaseRate && isGreat({ risk, reward, hasIncident }, base),
        hasIncident,
        detailSlug: r.detailSlug,
      };
    });
}

export interface AxisRange {
  min: number;
  max: number;
  /** Gridlines at quarter steps of the axis. */
  tickPositions: number[];
}

function quarterTicks(min: number, max: number): number[] {
  const step = (max - min) / 4;
  return [0, 1, 2, 3, 4].map((i) => Number((min + step * i).toFixed(6)));
}

/** x max = largest risk + 0.3, y max = largest reward + 1, gridlines at quarters. */
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
    x: { min: minRisk, max: xMax, tickPositions: quarterTicks(minRisk, xMax) },
    y: { min: minReward, max: yMax, tickPositions: quarterTicks(minReward, yMax) },
  };
}
