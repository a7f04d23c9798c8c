/**
 * Everything GET endpoints serve, computed once per accepted data change (never per request):
 * metrics by the engine, response bodies serialised to bytes with their ETag. A request for
 * /api/strategies is then a map lookup and a write of a ready Buffer.
 */
import { createHash } from 'node:crypto';
import {
  apyToApr,
  computeRa30,
  cryptoBaseSeries,
  derivedSeries,
  isGreat,
  stableBaseSeries,
  type DailyRow,
  type Ra30Result,
  type Scores,
} from '../engine/index.ts';
import type {
  BaseRates,
  HistoryPoint,
  HistoryResponse,
  RiskBreakdown,
  SiteSettings,
  StrategyContent,
  StrategyMetrics,
  ThirdPartyRating,
  TimeRange,
  YieldSource,
} from '../contract.ts';
import type {
  BaseRateRecord,
  HistoryFile,
  LiquidityFile,
  SettingsFile,
  SourcesFile,
  StrategyContentFile,
  YieldSourceRecord,
} from './schemas.ts';

export const TIME_RANGE_DAYS: Record<TimeRange, number> = {
  '7D': 7,
  '30D': 30,
  '90D': 90,
  '180D': 180,
};
export const BASE_KEYS = ['base-stablecoin', 'base-defi'] as const;
export type BaseKey = (typeof BASE_KEYS)[number];
export type SeriesId = number | BaseKey;
export const PREMIUM_HISTORY_DAYS = 180;

export interface CachedBody {
  body: Buffer;
  etag: string;
}

export function cacheBody(value: unknown): CachedBody {
  return cacheBytes(Buffer.from(JSON.stringify(value)));
}

/** A body already serialised (the scanner assembles its JSON from precomputed parts). */
export function cacheBytes(body: Buffer): CachedBody {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag };
}

export interface ComputedSeries {
  id: SeriesId;
  name: string;
  type: 'stablecoin' | 'defi';
  rows: DailyRow[];
  points: HistoryPoint[];
  result: Ra30Result;
  great: boolean;
  activeIncident: boolean;
  source: YieldSource;
  breakdown: RiskBreakdown;
}

export interface SnapshotInput {
  settings: SettingsFile | null;
  sources: SourcesFile | null;
  history: HistoryFile | null;
  strategyContent: StrategyContentFile | null;
  liquidity: LiquidityFile | null;
}

export interface Snapshot {
  builtAt: string;
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
): YieldSource & Record<string, unknown> {
  const common = {
    name: record.name,
    token: record.token,
    yieldToken: record.yieldToken,
    type: record.type,
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
  };
  if ('key' in record) {
    return {
      id: 0,
      ...common,
      isBaseRate: true,
      detailSlug: null,
      key: record.key,
      depositUrl: null,
    };
  }
  return {
    id: record.id,
    ...common,
    isBaseRate: false,
    detailSlug: record.detailSlug,
    depositUrl: record.depositUrl,
  };
}

function baseRows(record: BaseRateRecord, history: HistoryFile): DailyRow[] {
  const series = (key: string): DailyRow[] => history.series[key] ?? [];
  const c = record.components;
  if (c.kind === 'stablecoin') {
    return stableBaseSeries({
      coins: c.coins.map((coin) => ({
        coin: coin.coin,
        venues: coin.venues.map((v) => series(v.series)),
      })),
    });
  }
  return cryptoBaseSeries({
    assets: c.assets.map((a) =>
      'series' in a
        ? { asset: a.asset, rows: series(a.series), derived: false }
        : { asset: a.asset, rows: derivedSeries(series(a.derivedFrom), a.divisor), derived: true },
    ),
  });
}

function breakdownOf(id: SeriesId, result: Ra30Result, great: boolean): RiskBreakdown {
  return {
    id,
    method: result.method,
    asOf: result.asOf ?? '',
    status: result.status,
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
  };
}

/** Engine run over every source and both base rates. Pure given its inputs. */
export function computeAllSeries(
  sources: SourcesFile,
  history: HistoryFile,
): Map<string, ComputedSeries> {
  const out = new Map<string, ComputedSeries>();
  const base = new Map<'stablecoin' | 'defi', { result: Ra30Result }>();

  for (const record of sources.baseRates) {
    const rows = baseRows(record, history);
    const last = rows[rows.length - 1]?.date ?? null;
    const score = scoreAt(record.scores, last);
    const result = computeRa30(rows, score);
    base.set(record.type, { result });
    out.set(record.key, {
      id: record.key,
      name: record.name,
      type: record.type,
      rows,
      points: toHistoryPoints(rows),
      result,
      // A benchmark is the line others are compared with, never itself GREAT.
      great: false,
      activeIncident: record.incidents.some((i) => i.active),
      source: yieldSourceOf(record, score),
      breakdown: breakdownOf(record.key, result, false),
    });
  }

  for (const record of sources.sources) {
    const rows = history.series[record.series] ?? [];
    const last = rows[rows.length - 1]?.date ?? null;
    const score = scoreAt(record.scores, last);
    const result = computeRa30(rows, score);
    const activeIncident = record.incidents.some((i) => i.active);
    const baseResult = base.get(record.type)?.result;
    const great = baseResult ? isGreat(result, baseResult, activeIncident) : false;
    out.set(String(record.id), {
      id: record.id,
      name: record.name,
      type: record.type,
      rows,
      points: toHistoryPoints(rows),
      result,
      great,
      activeIncident,
      source: yieldSourceOf(record, score),
      breakdown: breakdownOf(record.id, result, great),
    });
  }
  return out;
}

export function historyResponse(
  series: ComputedSeries,
  days: number,
): HistoryResponse & Record<string, unknown> {
  const data = series.points.slice(Math.max(0, series.points.length - days));
  const last = series.rows[series.rows.length - 1];
  return {
    data,
    lastTvl: last?.tvlUsd ?? 0,
    lastApr: series.result.yield30d,
    lastRaApr: series.result.riskAdjustedYield30d,
    status: series.result.status,
    method: series.result.method,
    asOf: series.result.asOf,
  };
}

export function buildSnapshot(input: SnapshotInput): Snapshot {
  const unavailable = new Map<string, string>();
  const bodies = new Map<string, CachedBody>();
  const contents = new Map<string, StrategyContent>();
  let series = new Map<string, ComputedSeries>();
  let sources: YieldSource[] | null = null;

  const missing = (file: string) => `${file} has not loaded (see GET /api/health)`;

  if (input.settings && input.history) {
    const settings: SiteSettings = {
      ...input.settings,
      data: { sample: input.history.sample, asOf: input.history.asOf },
    };
    bodies.set(bodyKey.settings, cacheBody(settings));
  } else {
    unavailable.set(bodyKey.settings, missing(input.settings ? 'history.json' : 'settings.json'));
  }

  if (input.sources && input.history) {
    series = computeAllSeries(input.sources, input.history);
    const list = [...series.values()];
    const sourceRows = list.filter((s) => typeof s.id === 'number');
    const baseRows = list.filter((s) => typeof s.id !== 'number');
    // The static list: sources in file order, then the two benchmark rows (the tables keep them last).
    sources = [...sourceRows, ...baseRows].map((s) => s.source);
    bodies.set(bodyKey.sources, cacheBody(sources));

    const strategies: (StrategyMetrics & Record<string, unknown>)[] = sourceRows.map((s) => ({
      id: s.id as number,
      yield30d: s.result.yield30d,
      riskAdjustedYield30d: s.result.riskAdjustedYield30d,
      tvl: s.result.inputs.tvl,
      status: s.result.status,
      method: s.result.method,
      risk: s.result.risk,
      great: s.great,
      asOf: s.result.asOf,
    }));
    bodies.set(bodyKey.strategies, cacheBody(strategies));

    const stable = series.get('base-stablecoin')!.result;
    const defi = series.get('base-defi')!.result;
    const rates: BaseRates & Record<string, unknown> = {
      baserateDefi: defi.yield30d,
      baserateStable: stable.yield30d,
      baserateRiskAdjustedDefi: defi.riskAdjustedYield30d,
      baserateRiskAdjustedStable: stable.riskAdjustedYield30d,
      method: stable.method,
      asOf: stable.asOf,
      status: { stablecoin: stable.status, defi: defi.status },
    };
    bodies.set(bodyKey.baserate, cacheBody(rates));

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

  return { builtAt: new Date().toISOString(), unavailable, bodies, series, sources, contents };
}
