/**
 * The net figure of a deposit in one source (GET /api/net-yield) and every source's, ranked (GET
 * /api/net-yield/ranking): the source's current 30-day APR (lastApr of GET /api/history), the
 * costs the import stored in costs.json, the formula of api/src/engine/net-yield.ts.
 */
import {
  BASE_KEY_OF_TYPE,
  type AmountUnit,
  type BaseKey,
  type NetYieldAnswer,
  type NetYieldRankingAnswer,
  type SourceType,
} from '@yield/contract';
import { netYield, type Cost, type NetYieldResult } from '../../engine/net-yield.ts';
import type { CostsFile, SourceCostsRecord } from './schemas.ts';

/** The coins API's name of ETH, the unit of ETH sources (prices.json). */
export const ETH_COIN = 'coingecko:ethereum';

/** What a source's feed says of where it lives (GET /api/sources `feeds`). */
type FeedView =
  | { provider: 'onchain'; chain: string; kind: string }
  | { provider: 'defillama'; select?: { chain: string } };

/** What the net figures read of a series (the yields module's ComputedSeries satisfies it). */
export interface SeriesView {
  id: number | string;
  type: SourceType;
  result: { yield30d: number; asOf: string | null };
  source: { unit: AmountUnit; feeds: readonly FeedView[] };
}

/** What they read of the read model (the yields module's Snapshot satisfies it). */
export interface NetYieldReadModel {
  series: ReadonlyMap<string, SeriesView>;
  input: { prices: { coins: Record<string, readonly { date: string; price: number }[]> } | null };
}

/** Why a cost is unknown, in words a saver understands. */
export const REASONS = {
  noContract: 'Not read from the chain: this source has no contract we read',
  noPreviews: (kind: string) =>
    `Not read from the chain: this kind of contract (${kind}) does not preview its fees`,
  noGasFigure: 'No measured gas figure for this kind of contract',
  notReadYet: 'Not read from the chain yet: no import has read this contract',
  noUnitPrice: 'No ETH price imported to convert the gas into ETH',
} as const;

const COST_KEYS = ['entry', 'exit', 'gasIn', 'gasOut'] as const;

/** The source's on-chain feed, if it has one. */
function onchainFeed(series: SeriesView) {
  return series.source.feeds.find(
    (f): f is Extract<FeedView, { provider: 'onchain' }> => f.provider === 'onchain',
  );
}

/** The chain the source lives on: its contract's, else its DeFiLlama pool's. */
function chainOf(series: SeriesView): string | null {
  const onchain = onchainFeed(series);
  if (onchain) return onchain.chain;
  for (const f of series.source.feeds)
    if (f.provider === 'defillama' && f.select) return f.select.chain.toLowerCase();
  return null;
}

/** The USD price of one unit on `day` (the newest on or before it, else the nearest after); null if none. */
function unitPrice(model: NetYieldReadModel, unit: AmountUnit, day: string | null): number | null {
  if (unit === 'USD') return 1;
  const rows = model.input.prices?.coins[ETH_COIN] ?? [];
  let found: number | null = null;
  for (const r of rows) if (day === null || r.date <= day || found === null) found = r.price;
  return found;
}

/** The four costs of a source with nothing stored: each unknown with the reason. */
function reasonsWithoutRecord(series: SeriesView): Record<(typeof COST_KEYS)[number], Cost> {
  const feed = onchainFeed(series);
  const fee = !feed
    ? REASONS.noContract
    : feed.kind === 'erc4626'
      ? REASONS.notReadYet
      : REASONS.noPreviews(feed.kind);
  const gas = !feed
    ? REASONS.noContract
    : feed.kind === 'erc4626'
      ? REASONS.notReadYet
      : REASONS.noGasFigure;
  return {
    entry: { unknown: fee },
    exit: { unknown: fee },
    gasIn: { unknown: gas },
    gasOut: { unknown: gas },
  };
}

/** Gas of a deposit and of a withdrawal in USD, from the stored parts. */
function gasCosts(rec: SourceCostsRecord): { gasIn: Cost; gasOut: Cost } {
  const missing = [rec.gasUnits, rec.gasPrice, rec.nativeUsd].find((p) => 'unknown' in p);
  if (missing && 'unknown' in missing)
    return { gasIn: { unknown: missing.unknown }, gasOut: { unknown: missing.unknown } };
  const units = rec.gasUnits as { deposit: number; withdraw: number };
  const wei = BigInt((rec.gasPrice as { wei: string }).wei);
  const usd = (rec.nativeUsd as { usd: number }).usd;
  const toUsd = (n: number) => (Number(BigInt(n) * wei) / 1e18) * usd;
  return { gasIn: { value: toUsd(units.deposit) }, gasOut: { value: toUsd(units.withdraw) } };
}

/** The day the stored costs were read: the oldest day among the parts used; null when none. */
function costsDay(rec: SourceCostsRecord | undefined): string | null {
  if (!rec) return null;
  const days = [rec.entry, rec.exit, rec.gasUnits, rec.gasPrice, rec.nativeUsd].map((p) => p.date);
  return days.reduce((a, b) => (a < b ? a : b));
}

function storedCosts(rec: SourceCostsRecord): Record<(typeof COST_KEYS)[number], Cost> {
  const rate = (p: SourceCostsRecord['entry']): Cost =>
    'unknown' in p ? { unknown: p.unknown } : { value: p.rate };
  return { entry: rate(rec.entry), exit: rate(rec.exit), ...gasCosts(rec) };
}

interface Figures {
  series: SeriesView;
  costsAsOf: string | null;
  unitPriceUsd: number | null;
  result: NetYieldResult;
}

/** The net figures of `amount` held `days` days in one source. */
export function sourceFigures(
  model: NetYieldReadModel,
  costs: CostsFile | null,
  series: SeriesView,
  amount: number,
  days: number,
): Figures {
  const rec = costs?.sources[String(series.id)];
  const costsAsOf = costsDay(rec);
  const unitPriceUsd = unitPrice(model, series.source.unit, costsAsOf);
  const parts = rec ? storedCosts(rec) : reasonsWithoutRecord(series);
  // Without the unit's price the gas (paid in USD terms) cannot be put in the source's unit.
  const gas = (c: Cost): Cost =>
    unitPriceUsd === null && 'value' in c ? { unknown: REASONS.noUnitPrice } : c;
  const result = netYield({
    amount,
    apr: series.result.yield30d,
    days,
    unitPriceUsd: unitPriceUsd ?? 1,
    entryRate: parts.entry,
    exitRate: parts.exit,
    gasInUsd: gas(parts.gasIn),
    gasOutUsd: gas(parts.gasOut),
  });
  return { series, costsAsOf, unitPriceUsd, result };
}

const figuresOf = (r: NetYieldResult) => ({
  apr: r.apr,
  netAmount: r.netAmount,
  netApr: r.netApr,
  breakEvenDays: r.breakEvenDays,
});

/** The body of GET /api/net-yield (the unit's price known: the caller checks it). */
export function netYieldAnswer(
  model: NetYieldReadModel,
  figures: Figures & { unitPriceUsd: number },
  amount: number,
  days: number,
): NetYieldAnswer {
  const { series, result } = figures;
  const key: BaseKey = BASE_KEY_OF_TYPE[series.type];
  const base = model.series.get(key);
  const none: Cost = { value: 0 };
  const baseResult = netYield({
    amount,
    apr: base?.result.yield30d ?? 0,
    days,
    unitPriceUsd: figures.unitPriceUsd,
    entryRate: none,
    exitRate: none,
    gasInUsd: none,
    gasOutUsd: none,
  });
  return {
    id: series.id as number,
    amount,
    unit: series.source.unit,
    days,
    chain: chainOf(series),
    costsAsOf: figures.costsAsOf,
    unitPriceUsd: figures.unitPriceUsd,
    costs: result.costs,
    totalCost: result.totalCost,
    ...figuresOf(result),
    base: { key, ...figuresOf(baseResult) },
  };
}

/** The body of GET /api/net-yield/ranking: highest net APR first, unknown ones last by gross APR. */
export function netYieldRanking(
  model: NetYieldReadModel,
  costs: CostsFile | null,
  amount: number,
  days: number,
): NetYieldRankingAnswer {
  const items = [...model.series.values()]
    .filter((s) => typeof s.id === 'number')
    .map((s) => sourceFigures(model, costs, s, amount, days))
    .map(({ series, result }) => ({
      id: series.id as number,
      unit: series.source.unit,
      totalCost: result.totalCost,
      unknownCosts: COST_KEYS.filter((k) => result.costs[k].unknown !== null),
      ...figuresOf(result),
    }));
  items.sort((a, b) => {
    if (a.netApr !== null && b.netApr !== null) return b.netApr - a.netApr || a.id - b.id;
    if (a.netApr !== null) return -1;
    if (b.netApr !== null) return 1;
    return b.apr - a.apr || a.id - b.id;
  });
  return { amount, days, items };
}
