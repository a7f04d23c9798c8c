/**
 * DeFiLlama's coins API, as the importer reads it (docs/data-sources.md, "Token prices"):
 * `GET {COINS_API_URL}/chart/{chain}:{address}?start={unix s}&span={points}&period=1d` answers
 * `{coins: {"chain:address": {symbol, confidence, decimals, prices: [{timestamp, price}]}}}`,
 * prices in USD, timestamps in Unix seconds. A coin DeFiLlama cannot price is left out of `coins`.
 *
 * Mapping onto prices.json: one point per UTC day of `timestamp` (the latest of a day wins), the
 * price as sent. A point whose confidence (its own, else the coin's) is below MIN_CONFIDENCE is
 * left out and counted; a day without a point stays missing (never filled in).
 */
import { z } from 'zod';
import type { PricePoint, PricesFile } from '../yields/index.ts';
import { FeedError, parseResponse } from './defillama.ts';

export { DEFAULT_COINS_API_URL } from '../../platform/config.ts';
/** DeFiLlama's own threshold of a trustworthy price; points below it are not imported. */
export const MIN_CONFIDENCE = 0.9;
/** The chart endpoint answers at most this many points per request. */
export const MAX_SPAN = 500;

const confidence = z.number().finite().min(0).max(1);

/** The published shape; unknown extra fields are allowed (DeFiLlama adds fields over time). */
export const coinsChartSchema = z.object({
  coins: z.record(
    z.string(),
    z.object({
      symbol: z.string().optional(),
      decimals: z.number().optional(),
      confidence: confidence.optional(),
      prices: z.array(
        z.object({
          timestamp: z.number().int().positive(),
          price: z.number().finite(),
          confidence: confidence.optional(),
        }),
      ),
    }),
  ),
});

export function coinsChartUrl(apiUrl: string, coin: string, today: string, days: number): string {
  const span = Math.min(days, MAX_SPAN);
  const start = Date.parse(`${today}T00:00:00Z`) / 1000 - (span - 1) * 86_400;
  return `${apiUrl.replace(/\/+$/, '')}/chart/${coin}?start=${start}&span=${span}&period=1d`;
}

export interface ParsedPrices {
  rows: PricePoint[];
  /** Points left out for a confidence below MIN_CONFIDENCE. */
  lowConfidence: number;
}

/**
 * Validates a chart answer for `coin` and turns it into one price per UTC day, the newest `days`
 * days. Throws a FeedError for malformed JSON, a shape that is not the published one, an answer
 * without the coin or without a trusted point, or an implausible price.
 */
export function parseCoinsChart(
  text: string,
  coin: string,
  options: { days: number; today: string },
): ParsedPrices {
  const parsed = { data: parseResponse(text, coinsChartSchema) };
  // DeFiLlama answers keys as asked; compare case-insensitively (addresses are checksummed or not).
  const entry = Object.entries(parsed.data.coins).find(
    ([key]) => key.toLowerCase() === coin.toLowerCase(),
  )?.[1];
  if (!entry) throw new FeedError(`no prices for ${coin} in the response`);

  const latest = new Map<string, { at: number; price: number; index: number }>();
  let lowConfidence = 0;
  entry.prices.forEach((p, index) => {
    if ((p.confidence ?? entry.confidence ?? 1) < MIN_CONFIDENCE) {
      lowConfidence++;
      return;
    }
    const day = new Date(p.timestamp * 1000).toISOString().slice(0, 10);
    const seen = latest.get(day);
    if (!seen || p.timestamp >= seen.at)
      latest.set(day, { at: p.timestamp, price: p.price, index });
  });
  const days = [...latest.keys()].sort();
  if (days.length === 0)
    throw new FeedError(
      lowConfidence > 0
        ? `no price with confidence ${MIN_CONFIDENCE} or more (${lowConfidence} left out)`
        : 'no data points',
    );
  const newest = days[days.length - 1]!;
  const from = new Date(Date.parse(`${newest}T00:00:00Z`) - (options.days - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const rows: PricePoint[] = [];
  for (const day of days) {
    if (day < from) continue;
    const { price, index } = latest.get(day)!;
    const where = `$.coins["${coin}"].prices[${index}] (${day})`;
    if (day > options.today)
      throw new FeedError(`implausible value at ${where}: dated in the future`);
    if (!(price > 0)) throw new FeedError(`implausible value at ${where}: price ${price}`);
    rows.push({ date: day, price });
  }
  return { rows, lowConfidence };
}

export interface CoinImport {
  coin: string;
  rows: PricePoint[];
}

export interface PricesMerge {
  prices: PricesFile;
  stats: Map<string, { added: number; updated: number }>;
  changed: boolean;
}

/**
 * Merges imported days into prices.json. A coin that was sample data is replaced on its first
 * import; afterwards new days are added, days present in both take the new price, older days are
 * kept. Pure: the same inputs give the same file.
 */
export function mergePrices(
  file: PricesFile,
  imports: readonly CoinImport[],
  now: Date,
): PricesMerge {
  const coins = { ...file.coins };
  const provenance = { ...file.provenance };
  const stats = new Map<string, { added: number; updated: number }>();
  let changed = false;
  for (const imp of imports) {
    if (imp.rows.length === 0) continue;
    const previous = file.provenance?.[imp.coin];
    const byDate = new Map(
      previous || !file.sample ? (coins[imp.coin] ?? []).map((r) => [r.date, r]) : [],
    );
    const s = { added: 0, updated: 0 };
    for (const r of imp.rows) {
      const old = byDate.get(r.date);
      if (!old) s.added++;
      else if (old.price !== r.price) s.updated++;
      else continue;
      byDate.set(r.date, { ...r });
    }
    stats.set(imp.coin, s);
    if (s.added + s.updated === 0 && previous) continue;
    changed = true;
    coins[imp.coin] = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    const newest = imp.rows[imp.rows.length - 1]!.date;
    provenance[imp.coin] = {
      kind: 'defillama',
      asOf: previous && previous.asOf > newest ? previous.asOf : newest,
      importedAt: now.toISOString(),
    };
  }
  if (!changed) return { prices: file, stats, changed };
  const { coins: _coins, provenance: _provenance, ...rest } = file;
  return { prices: { ...rest, provenance, coins }, stats, changed };
}
