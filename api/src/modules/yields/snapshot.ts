/**
 * Everything GET endpoints serve, computed once per accepted data change (never per request):
 * metrics by the engine, response bodies serialised to bytes with their ETag. A request for
 * /api/strategies is then a map lookup and a write of a ready Buffer.
 */
import { cacheBody, type CachedBody } from '../../platform/http/cached-body.ts';
import {
  apyToApr,
  computeRa30,
  cryptoBaseSeries,
  derivedSeries,
  detectWarnings,
  isGreat,
  stableBaseSeries,
  type DailyRow,
  type Ra30Result,
  type Scores,
} from '../../engine/index.ts';
import {
  BASE_KEY_OF_TYPE,
  BLOCKING_WARNING_KINDS,
  TIME_RANGE_DAYS,
  type DetectedWarning,
  type BaseRates,
  type HistoryPoint,
  type HistoryResponse,
  type RiskBreakdown,
  type SeriesId,
  type SiteSettings,
  type SourceType,
  type StrategyContent,
  type StrategyMetrics,
  type ThirdPartyRating,
  type TimeRange,
  type WarningThresholds,
  type YieldSource,
} from '@yield/contract';
import {
  coinOf,
  ETH_COIN,
  seriesFeeds,
  type BaseRateRecord,
  type HistoryFile,
  type LiquidityFile,
  type PricesFile,
  type SettingsFile,
  type SourcesFile,
  type StrategyContentFile,
  type YieldSourceRecord,
} from './schemas.ts';
import {
  combineProvenance,
  isLive,
  nextStaleAt,
  publishFeeds,
  seriesProvenance,
  type PublishedFeed,
  type RowProvenance,
  type SeriesProvenance,
} from './provenance.ts';

export const PREMIUM_HISTORY_DAYS = 180;

/** The engine's status, or `stale` when the figures stand on an imported series that stopped arriving. */
export type SeriesStatus = RiskBreakdown['status'];
export type SeriesBreakdown = RiskBreakdown;

export interface ComputedSeries {
  id: SeriesId;
  name: string;
  type: SourceType;
  rows: DailyRow[];
  points: HistoryPoint[];
  result: Ra30Result;
  /** result.status, except `stale` (figures still computed) when provenance.stale. */
  status: SeriesStatus;
  provenance: RowProvenance;
  great: boolean;
  activeIncident: boolean;
  /** Detected from data, oldest first; empty for a base rate. */
  warnings: DetectedWarning[];
  source: YieldSource & { feeds: PublishedFeed[]; provenance: RowProvenance };
  breakdown: SeriesBreakdown;
}

export interface SnapshotInput {
  settings: SettingsFile | null;
  sources: SourcesFile | null;
  history: HistoryFile | null;
  strategyContent: StrategyContentFile | null;
  liquidity: LiquidityFile | null;
  prices: PricesFile | null;
}

export interface Snapshot {
  builtAt: string;
  /** The accepted data files it was built from (the answers as of a past day are cut from them). */
  input: SnapshotInput;
  /** When an imported series turns stale and the snapshot must be rebuilt (ms), null if never. */
  staleAt: number | null;
  /** Why a body is missing, per missing piece (a file that never loaded). */
  unavailable: Map<string, string>;
  bodies: Map<string, CachedBody>;
  series: Map<string, ComputedSeries>;
  sources: YieldSource[] | null;
  contents: Map<string, StrategyContent>;
}

export const bodyKey = {
  strategies: 'strategies',
  baserate: 'baserate',
  sources: 'sources',
  settings: 'settings',
  history: (id: SeriesId, range: TimeRange) => `history:${id}:${range}`,
  breakdown: (id: SeriesId) => `breakdown:${id}`,
  content: (slug: string) => `content:${slug}`,
};

/** The dated score in effect on `date`: the newest dated on or before it (else the oldest). */
export function scoreAt(scores: SourcesFile['sources'][number]['scores'], date: string | null) {
  const sorted = [...scores].sort((a, b) => (a.date < b.date ? -1 : 1));
  let current = sorted[0]!;
  for (const s of sorted) if (date === null || s.date <= date) current = s;
  return current;
}

export function toHistoryPoints(rows: readonly DailyRow[]): HistoryPoint[] {
  return rows.map((r) => ({
    timestamp: Date.parse(`${r.date}T00:00:00Z`),
    tvl: r.tvlUsd,
    apr: apyToApr(r.apy),
  }));
}

function yieldSourceOf(
  record: YieldSourceRecord | BaseRateRecord,
  scores: Scores & {
    date: string;
    safetyRationale: string;
    liquidityRationale: string;
    links: string[];
  },
  feeds: PublishedFeed[],
  provenance: RowProvenance,
  warnings: DetectedWarning[],
): YieldSource {
  const common = {
    name: record.name,
    token: record.token,
    yieldToken: record.yieldToken,
    type: record.type,
    unit: record.unit,
    rating: record.rating,
    safety: scores.safety,
    liquidity: scores.liquidity,
    yield_type: record.yield_type,
    real_or_incentive: record.real_or_incentive,
    yield_category: record.yield_category,
    incidents: record.incidents,
    description: record.description,
    scoreRationale: {
      date: scores.date,
      safety: scores.safetyRationale,
      liquidity: scores.liquidityRationale,
      links: scores.links,
    },
    feeds,
    provenance,
    warnings,
  };
  if ('key' in record) {
    return {
      id: 0,
      ...common,
      isBaseRate: true,
      detailSlug: null,
      key: record.key,
      depositUrl: null,
      exit: null,
    };
  }
  return {
    id: record.id,
    ...common,
    isBaseRate: false,
    detailSlug: record.detailSlug,
    depositUrl: record.depositUrl,
    ...(record.depositsPaused ? { depositsPaused: record.depositsPaused } : {}),
    exit: record.exit,
  };
}

/**
 * A base rate's daily rows from the components with live data (`live`): a component without is
 * left out of the mean (a coin with no live venue too), never averaged in with sample figures.
 */
function baseRows(
  record: BaseRateRecord,
  history: HistoryFile,
  live: (series: string) => boolean,
): DailyRow[] {
  const series = (key: string): DailyRow[] => history.series[key] ?? [];
  const c = record.components;
  if (c.kind === 'stablecoin') {
    return stableBaseSeries({
      coins: c.coins
        .map((coin) => ({
          coin: coin.coin,
          venues: coin.venues.filter((v) => live(v.series)).map((v) => series(v.series)),
        }))
        .filter((coin) => coin.venues.length > 0),
    });
  }
  return cryptoBaseSeries({
    assets: c.assets
      .filter((a) => live('series' in a ? a.series : a.derivedFrom))
      .map((a) =>
        'series' in a
          ? { asset: a.asset, rows: series(a.series), derived: false }
          : {
              asset: a.asset,
              rows: derivedSeries(series(a.derivedFrom), a.divisor),
              derived: true,
            },
      ),
  });
}

/** Insufficient data wins (there are no figures); stale figures exist but are not current. */
function statusOf(result: Ra30Result, provenance: RowProvenance): SeriesStatus {
  return result.status === 'ok' && provenance.stale ? 'stale' : result.status;
}

function breakdownOf(
  id: SeriesId,
  result: Ra30Result,
  great: boolean,
  status: SeriesStatus,
  provenance: RowProvenance,
): SeriesBreakdown {
  return {
    id,
    method: result.method,
    asOf: result.asOf ?? '',
    status,
    window: {
      from: result.window.from ?? '',
      to: result.window.to ?? '',
      days: result.window.days,
    },
    inputs: result.inputs,
    yield30d: result.yield30d,
    riskAdjustedYield30d: result.riskAdjustedYield30d,
    risk: result.risk,
    charges: result.charges,
    great,
    provenance,
  };
}

/** The history series a base rate is built from (a derived asset counts its source series). */
function baseComponentSeries(record: BaseRateRecord): string[] {
  const c = record.components;
  const keys =
    c.kind === 'stablecoin'
      ? c.coins.flatMap((coin) => coin.venues.map((v) => v.series))
      : c.assets.map((a) => ('series' in a ? a.series : a.derivedFrom));
  return [...new Set(keys)];
}

/** What the warnings of the sources are detected from (no thresholds: none are detected). */
export interface WarningData {
  prices: PricesFile | null;
  thresholds: WarningThresholds | null;
  /** DeFiLlama's rows of the series led by an on-chain feed (history.json `secondary`). */
  secondary?: HistoryFile['secondary'] | undefined;
}

/**
 * A source's detected warnings (api/src/engine/warnings.ts) with the operators' dismissals
 * (sources.json `warningDismissals`, matched by kind and opening day).
 */
export function sourceWarnings(
  record: YieldSourceRecord,
  rows: readonly DailyRow[],
  data: WarningData,
): DetectedWarning[] {
  if (!data.thresholds) return [];
  const coins = data.prices?.coins ?? {};
  const detected = detectWarnings(
    {
      rows,
      prices: record.priceToken ? (coins[coinOf(record.priceToken)] ?? []) : [],
      ethPrices: coins[ETH_COIN] ?? [],
      pegTo: record.unit,
      secondaryRows: data.secondary?.[record.series]?.rows,
    },
    data.thresholds,
  );
  return detected.map((w) => {
    const d = record.warningDismissals?.find((x) => x.kind === w.kind && x.openedOn === w.openedOn);
    return { ...w, detected: true, ...(d ? { dismissed: { on: d.on, note: d.note } } : {}) };
  });
}

/** An open outflow, depeg or feeds-disagree warning that no operator dismissed: never GREAT. */
export function hasBlockingWarning(warnings: readonly DetectedWarning[]): boolean {
  return warnings.some(
    (w) => w.closedOn === null && !w.dismissed && BLOCKING_WARNING_KINDS.includes(w.kind),
  );
}

/**
 * Engine run over every source and both base rates. Pure given its inputs; `now` only decides
 * which imported series are stale (api/src/modules/yields/provenance.ts).
 */
export function computeAllSeries(
  sources: SourcesFile,
  history: HistoryFile,
  now: Date = new Date(),
  warningData: WarningData = { prices: null, thresholds: null },
): Map<string, ComputedSeries> {
  const out = new Map<string, ComputedSeries>();
  const base = new Map<SourceType, { result: Ra30Result }>();

  for (const record of sources.baseRates) {
    const components = baseComponentSeries(record).map((series) => ({
      series,
      ...seriesProvenance(history, series, now),
    }));
    const liveSeries = new Set(components.filter(isLive).map((c) => c.series));
    const rows = baseRows(record, history, (series) => liveSeries.has(series));
    const last = rows[rows.length - 1]?.date ?? null;
    const score = scoreAt(record.scores, last);
    const result = computeRa30(rows, score);
    base.set(record.type, { result });
    const provenance = combineProvenance(components, last);
    const feeds = seriesFeeds({ sources: [], baseRates: [record] }).flatMap((f) =>
      publishFeeds(f.series, f.feeds, history),
    );
    const status = statusOf(result, provenance);
    out.set(record.key, {
      id: record.key,
      name: record.name,
      type: record.type,
      rows,
      points: toHistoryPoints(rows),
      result,
      status,
      provenance,
      // A benchmark is the line others are compared with, never itself GREAT.
      great: false,
      activeIncident: record.incidents.some((i) => i.active),
      warnings: [],
      source: yieldSourceOf(record, score, feeds, provenance, []),
      breakdown: breakdownOf(record.key, result, false, status, provenance),
    });
  }

  for (const record of sources.sources) {
    const provenance: RowProvenance = {
      series: record.series,
      ...seriesProvenance(history, record.series, now),
    };
    // No live data: its shipped sample rows are not served, so it has no figures or points.
    const rows = isLive(provenance) ? (history.series[record.series] ?? []) : [];
    const last = rows[rows.length - 1]?.date ?? null;
    const score = scoreAt(record.scores, last);
    const result = computeRa30(rows, score);
    const activeIncident = record.incidents.some((i) => i.active);
    const baseResult = base.get(record.type)?.result;
    const status = statusOf(result, provenance);
    const warnings = sourceWarnings(record, rows, {
      ...warningData,
      secondary: warningData.secondary ?? history.secondary,
    });
    // Stale figures describe a past window: never GREAT until the feed is current again.
    const great =
      baseResult && !provenance.stale && !hasBlockingWarning(warnings)
        ? isGreat(result, baseResult, activeIncident)
        : false;
    const feeds = publishFeeds(record.series, record.feeds, history);
    out.set(String(record.id), {
      id: record.id,
      name: record.name,
      type: record.type,
      rows,
      points: toHistoryPoints(rows),
      result,
      status,
      provenance,
      great,
      activeIncident,
      warnings,
      source: yieldSourceOf(record, score, feeds, provenance, warnings),
      breakdown: breakdownOf(record.id, result, great, status, provenance),
    });
  }
  return out;
}

/** The provenance of every series behind the site's rows (a base rate counts its components). */
function shownProvenances(series: Map<string, ComputedSeries>): SeriesProvenance[] {
  return [...series.values()].flatMap(
    (s): SeriesProvenance[] => s.provenance.components ?? [s.provenance],
  );
}

/**
 * The settings' `data` block: sample while any series shown on the site (a source's, or a base
 * rate component's) is still sample; asOf the newest day among them; stale when one is.
 */
export function dataInfo(series: Map<string, ComputedSeries>, fallbackAsOf: string) {
  const shown = shownProvenances(series);
  const days = shown.map((p) => p.asOf).filter((d): d is string => d !== null);
  return {
    sample: shown.length === 0 || shown.some((p) => p.kind === 'sample'),
    asOf: days.length > 0 ? days.reduce((a, b) => (a > b ? a : b)) : fallbackAsOf,
    stale: shown.some((p) => p.stale),
  };
}

export function historyResponse(series: ComputedSeries, days: number): HistoryResponse {
  const data = series.points.slice(Math.max(0, series.points.length - days));
  const last = series.rows[series.rows.length - 1];
  return {
    data,
    lastTvl: last?.tvlUsd ?? 0,
    lastHolders: last?.holders ?? null,
    lastApr: series.result.yield30d,
    lastRaApr: series.result.riskAdjustedYield30d,
    status: series.status,
    method: series.result.method,
    asOf: series.result.asOf,
    provenance: series.provenance,
  };
}

/** The body of GET /api/strategies: one row per source, in file order. */
export function strategiesBody(series: Map<string, ComputedSeries>): StrategyMetrics[] {
  return [...series.values()]
    .filter((s) => typeof s.id === 'number')
    .map((s) => ({
      id: s.id as number,
      yield30d: s.result.yield30d,
      riskAdjustedYield30d: s.result.riskAdjustedYield30d,
      tvl: s.result.inputs.tvl,
      status: s.status,
      method: s.result.method,
      risk: s.result.risk,
      great: s.great,
      asOf: s.result.asOf,
      charges: s.result.charges,
      provenance: s.provenance,
      warnings: s.warnings,
    }));
}

/** The body of GET /api/baserate: both base rates. */
export function baseRatesBody(series: Map<string, ComputedSeries>): BaseRates {
  const stableSeries = series.get(BASE_KEY_OF_TYPE.stablecoin)!;
  const defiSeries = series.get(BASE_KEY_OF_TYPE.defi)!;
  const stable = stableSeries.result;
  const defi = defiSeries.result;
  return {
    baserateDefi: defi.yield30d,
    baserateStable: stable.yield30d,
    baserateRiskAdjustedDefi: defi.riskAdjustedYield30d,
    baserateRiskAdjustedStable: stable.riskAdjustedYield30d,
    method: stable.method,
    asOf: stable.asOf,
    status: { stablecoin: stableSeries.status, defi: defiSeries.status },
    provenance: { stablecoin: stableSeries.provenance, defi: defiSeries.provenance },
    charges: { stablecoin: stable.charges, defi: defi.charges },
  };
}

export function buildSnapshot(input: SnapshotInput, now: Date = new Date()): Snapshot {
  const unavailable = new Map<string, string>();
  const bodies = new Map<string, CachedBody>();
  const contents = new Map<string, StrategyContent>();
  let series = new Map<string, ComputedSeries>();
  let sources: YieldSource[] | null = null;
  let staleAt: number | null = null;

  const missing = (file: string) => `${file} has not loaded (see GET /api/health)`;

  if (input.sources && input.history) {
    series = computeAllSeries(input.sources, input.history, now, {
      prices: input.prices,
      thresholds: input.settings?.warnings ?? null,
    });
    staleAt = nextStaleAt(shownProvenances(series));
    const list = [...series.values()];
    const sourceRows = list.filter((s) => typeof s.id === 'number');
    const baseRows = list.filter((s) => typeof s.id !== 'number');
    // The static list: sources in file order, then the two benchmark rows (the tables keep them last).
    sources = [...sourceRows, ...baseRows].map((s) => s.source);
    bodies.set(bodyKey.sources, cacheBody(sources));

    bodies.set(bodyKey.strategies, cacheBody(strategiesBody(series)));
    bodies.set(bodyKey.baserate, cacheBody(baseRatesBody(series)));

    for (const s of list) {
      bodies.set(bodyKey.breakdown(s.id), cacheBody(s.breakdown));
      for (const [range, days] of Object.entries(TIME_RANGE_DAYS) as [TimeRange, number][]) {
        bodies.set(bodyKey.history(s.id, range), cacheBody(historyResponse(s, days)));
      }
    }
  } else {
    const reason = missing(input.sources ? 'history.json' : 'sources.json');
    for (const key of [
      bodyKey.sources,
      bodyKey.strategies,
      bodyKey.baserate,
      'history',
      'breakdown',
    ])
      unavailable.set(key, reason);
  }

  if (input.settings && input.history) {
    const settings: SiteSettings = {
      ...input.settings,
      data: dataInfo(series, input.history.asOf),
    };
    bodies.set(bodyKey.settings, cacheBody(settings));
  } else {
    unavailable.set(bodyKey.settings, missing(input.settings ? 'history.json' : 'settings.json'));
  }

  if (input.strategyContent && input.liquidity) {
    const providers = new Map(input.strategyContent.providers.map((p) => [p.name, p.url]));
    for (const s of input.strategyContent.strategies) {
      const thirdPartyRatings: ThirdPartyRating[] = s.thirdPartyRatings.map((r) => ({
        provider: r.provider,
        providerUrl: providers.get(r.provider)!,
        value: r.value,
        date: r.date,
        link: r.link,
      }));
      const content: StrategyContent = {
        ...s,
        thirdPartyRatings,
        liquidity: { sample: input.liquidity.sample, points: input.liquidity.series[s.slug] ?? [] },
      };
      contents.set(s.slug, content);
      bodies.set(bodyKey.content(s.slug), cacheBody(content));
    }
  } else {
    unavailable.set(
      'content',
      missing(input.strategyContent ? 'liquidity.json' : 'strategy-content.json'),
    );
  }

  return {
    builtAt: new Date().toISOString(),
    input,
    staleAt,
    unavailable,
    bodies,
    series,
    sources,
    contents,
  };
}
