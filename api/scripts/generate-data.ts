/**
 * Deterministic sample-data generator: daily history for every source and
 * base-rate component, and the strategy pages' liquidity series. A fixed seed gives byte-identical
 * files, so a reviewer can rerun it and diff.
 *
 *   pnpm --filter @yield/api data:generate              # writes api/data (or $DATA_DIR)
 *   pnpm --filter @yield/api data:generate -- --out /tmp/data --seed 7 --days 500
 *
 * Only history.json, liquidity.json and prices.json are generated; settings, sources and strategy
 * content are hand-written operator files and are never overwritten here (prices.json covers the
 * tokens sources.json names as `priceToken`).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/platform/config.ts';
import type { DailyRow } from '../src/engine/index.ts';
import { AMIHUD_MAX, AMIHUD_MIN, LIQUIDITY_PCT_MAX } from '@yield/contract/constants';
import {
  coinOf,
  ETH_COIN,
  priceCoins,
  type HistoryFile,
  type LiquidityFile,
  type PricesFile,
  type SourcesFile,
} from '../src/modules/yields/schemas.ts';

export const DEFAULT_SEED = 20261121;
export const DEFAULT_AS_OF = '2026-11-21';
export const DEFAULT_DAYS = 450;
export const LIQUIDITY_DAYS = 180;
/** Days of sample prices: the longest history chart the site shows. */
export const PRICE_DAYS = 180;

/** mulberry32: tiny, fast, and identical on every platform (Math.random is not seedable). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  uniform(lo = 0, hi = 1): number {
    return lo + (hi - lo) * this.next();
  }
  normal(mean = 0, sd = 1): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const clip = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round = (x: number, digits: number) => Number(x.toFixed(digits));

function dates(asOf: string, days: number): string[] {
  const end = Date.parse(`${asOf}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Mean-reverting random walk (AR(1)) around `mean`. */
function ar1(rng: Rng, n: number, mean: number, sd: number, phi = 0.9, start = mean): number[] {
  const out: number[] = [];
  let x = start;
  for (let i = 0; i < n; i++) {
    x = mean + phi * (x - mean) + rng.normal(0, sd);
    out.push(x);
  }
  return out;
}

/** Geometric random walk of a TVL with drift (per day) and daily volatility. */
function tvlWalk(
  rng: Rng,
  n: number,
  start: number,
  drift: number,
  vol: number,
  lo: number,
  hi: number,
): number[] {
  const out: number[] = [];
  let x = start;
  for (let i = 0; i < n; i++) {
    x = clip(x * Math.exp(drift + rng.normal(0, vol)), lo, hi);
    out.push(x);
  }
  return out;
}

function rows(
  ds: string[],
  apy: number[],
  tvl: number[],
  reward?: number[],
  holders?: number[],
): DailyRow[] {
  // Key order date, apy, apyReward, tvlUsd, holders: the order operators read in the file.
  return ds.map((date, i) => ({
    date,
    apy: round(apy[i]!, 4),
    ...(reward ? { apyReward: round(Math.max(0, reward[i]!), 4) } : {}),
    tvlUsd: Math.round(tvl[i]!),
    ...(holders ? { holders: Math.round(holders[i]!) } : {}),
  }));
}

/**
 * A sample holder count that follows the TVL at a typical position size. Drawn from no random
 * numbers, so adding it leaves every other generated figure as it was.
 */
const holdersAt = (tvl: number[], positionUsd: number) => tvl.map((x) => x / positionUsd);

export interface GenerateOptions {
  seed?: number;
  asOf?: string;
  days?: number;
}

export function generateHistory(options: GenerateOptions = {}): HistoryFile {
  const seed = options.seed ?? DEFAULT_SEED;
  const asOf = options.asOf ?? DEFAULT_AS_OF;
  const n = options.days ?? DEFAULT_DAYS;
  const ds = dates(asOf, n);
  // One independent stream per series, so adding a series never changes the others.
  let stream = 0;
  const rngFor = () => new Rng(seed + 7919 * ++stream);
  const series: Record<string, DailyRow[]> = {};
  const incidentIndex = ds.indexOf('2026-03-22');

  // Liquity v1 Stability Pool: ~4.5% base, jumps on liquidation days, ~1 pp of LQTY fading.
  {
    const r = rngFor();
    const base = ar1(r, n, 3.6, 0.12, 0.8);
    let boost = 0;
    const apy = base.map((b) => {
      if (r.chance(0.05)) boost = r.uniform(1.5, 3);
      else boost *= 0.35;
      return clip(b + boost + 1, 4, 7);
    });
    const reward = ds.map((_, i) => 1.2 - (0.4 * i) / n + r.normal(0, 0.03));
    const tvl = tvlWalk(r, n, 92e6, -0.0006, 0.006, 55e6, 110e6);
    // The numeric strategy page (/strategy/3) shows this series' holder count.
    series['liquity-sp'] = rows(ds, apy, tvl, reward, holdersAt(tvl, 40_000));
  }
  // Sky sUSDS: governance steps 6.5% -> 4.5% -> 4.0%, flat between steps.
  {
    const r = rngFor();
    const apy = ds.map((_, i) =>
      i < Math.floor(n * 0.2) ? 6.5 : i < Math.floor(n * 0.62) ? 4.5 : 4.0,
    );
    series['sky-susds'] = rows(ds, apy, tvlWalk(r, n, 2.1e9, 0.0019, 0.008, 2e9, 5e9));
  }
  // Ether.fi Liquid ETH: 3-5% with moderate noise, ~1 pp rewards.
  {
    const r = rngFor();
    const apy = ar1(r, n, 4, 0.25, 0.85).map((x) => clip(x, 3, 5));
    const reward = apy.map(() => clip(r.normal(1, 0.15), 0.5, 1.5));
    series['etherfi-liquid-eth'] = rows(
      ds,
      apy,
      tvlWalk(r, n, 600e6, 0, 0.012, 450e6, 750e6),
      reward,
    );
  }
  // Ethena sUSDe: funding regimes of 20-60 days, high daily noise, 4-25%.
  {
    const r = rngFor();
    const levels = [5, 8, 12, 18, 22];
    let level = 12;
    let left = 0;
    const apy = ds.map(() => {
      if (left-- <= 0) {
        level = levels[Math.floor(r.uniform(0, levels.length))]!;
        left = Math.floor(r.uniform(20, 60));
      }
      return clip(level + r.normal(0, 1.6), 4, 25);
    });
    const tvl = ar1(r, n, 4e9, 0.09e9, 0.97).map((x) => clip(x, 3e9, 5e9));
    series['ethena-susde'] = rows(ds, apy, tvl);
  }
  // USD0++: 3-10%, almost all rewards; one sharp outflow (-40% over a week).
  {
    const r = rngFor();
    const apy = ar1(r, n, 6.5, 0.5, 0.9).map((x) => clip(x, 3, 10));
    const reward = apy.map((a) => a * r.uniform(0.85, 0.95));
    const crash = Math.floor(n * 0.45);
    let x = 0.6e9;
    const tvl = ds.map((_, i) => {
      if (i < crash) x *= Math.exp(0.0045 + r.normal(0, 0.01));
      else if (i < crash + 7) x *= Math.pow(0.6, 1 / 7);
      else x *= Math.exp(0.0008 + r.normal(0, 0.008));
      x = clip(x, 0.3e9, 1.5e9);
      return x;
    });
    series['usd0pp-pool'] = rows(ds, apy, tvl, reward);
  }
  // Fluid GHO lending: 5-10%, utilisation-driven noise.
  {
    const r = rngFor();
    const apy = ar1(r, n, 7.2, 0.6, 0.75).map((x) => clip(x, 5, 10));
    series['fluid-gho'] = rows(ds, apy, tvlWalk(r, n, 45e6, 0.0005, 0.02, 30e6, 80e6));
  }
  // Resolv stUSR: ~8-10% until the 2026-03-22 exploit, then <1%; TVL 400M -> ~100M.
  {
    const r = rngFor();
    const cut = incidentIndex >= 0 ? incidentIndex : Math.floor(n * 0.5);
    const apy = ds.map((_, i) =>
      i < cut ? clip(r.normal(9, 0.45), 8, 10) : clip(r.normal(0.55, 0.15), 0.1, 0.95),
    );
    let x = 300e6;
    const tvl = ds.map((_, i) => {
      if (i < cut) x = clip(x * Math.exp(0.0015 + r.normal(0, 0.008)), 250e6, 420e6);
      else if (i < cut + 21) x *= Math.pow(0.22, 1 / 21) * Math.exp(r.normal(0, 0.01));
      else x = clip(x * Math.exp(r.normal(0, 0.006)), 70e6, 120e6);
      return x;
    });
    series['resolv-stusr'] = rows(ds, apy, tvl);
  }
  // Fluid stETH vault: 3-5%.
  {
    const r = rngFor();
    const apy = ar1(r, n, 4, 0.2, 0.9).map((x) => clip(x, 3, 5));
    series['fluid-steth-vault'] = rows(ds, apy, tvlWalk(r, n, 160e6, 0, 0.008, 130e6, 190e6));
  }
  // Morpho MEV Capital WETH: 2-4%.
  {
    const r = rngFor();
    const apy = ar1(r, n, 3, 0.22, 0.85).map((x) => clip(x, 2, 4));
    series['morpho-mevcap-weth'] = rows(ds, apy, tvlWalk(r, n, 100e6, 0, 0.012, 70e6, 130e6));
  }
  // Gauntlet USD Alpha: 5-9%, ~1 pp MORPHO rewards.
  {
    const r = rngFor();
    const apy = ar1(r, n, 7, 0.35, 0.85).map((x) => clip(x, 5, 9));
    const reward = apy.map(() => clip(r.normal(0.9, 0.12), 0.4, 1.4));
    series['gauntlet-usd-alpha'] = rows(
      ds,
      apy,
      tvlWalk(r, n, 48e6, 0.0004, 0.012, 40e6, 70e6),
      reward,
    );
  }
  // Lido stETH: smooth 2.6-3.2%, with rare one-day spikes (one in the newest 30 days, which the
  // spike control must clamp).
  {
    const r = rngFor();
    const spikes = new Set([Math.floor(n * 0.3), n - 12]);
    const apy = ds.map((_, i) => {
      const smooth = 2.9 + 0.22 * Math.sin((2 * Math.PI * i) / 120) + r.normal(0, 0.025);
      return spikes.has(i) ? 5.8 : clip(smooth, 2.6, 3.2);
    });
    series['lido-steth'] = rows(ds, apy, tvlWalk(r, n, 26e9, 0.0003, 0.012, 22e9, 33e9));
  }
  // Base-rate components (the venues and assets listed in sources.json).
  const lending = (key: string, mean: number, lo: number, hi: number, tvl: number) => {
    const r = rngFor();
    const apy = ar1(r, n, mean, 0.3, 0.9).map((x) => clip(x, lo, hi));
    series[key] = rows(ds, apy, tvlWalk(r, n, tvl, 0.0002, 0.008, tvl * 0.6, tvl * 1.6));
  };
  lending('aave-v3-usdc', 4.8, 3, 7, 3.2e9);
  lending('compound-v3-usdc', 4.5, 3, 7, 1.1e9);
  lending('aave-v3-usdt', 5.0, 3, 7, 2.6e9);
  lending('compound-v3-usdt', 4.7, 3, 7, 0.8e9);
  {
    const r = rngFor();
    const apy = ds.map((_, i) =>
      i < Math.floor(n * 0.25) ? 5.75 : i < Math.floor(n * 0.6) ? 4.75 : 4.5,
    );
    series['sky-dsr-dai'] = rows(ds, apy, tvlWalk(r, n, 1.6e9, -0.0003, 0.006, 1e9, 2.5e9));
  }
  lending('spark-dai', 5.0, 4, 6, 0.9e9);
  {
    const r = rngFor();
    const apy = ar1(r, n, 2.8, 0.08, 0.9).map((x) => clip(x, 2.5, 3.1));
    series['rocketpool-reth'] = rows(ds, apy, tvlWalk(r, n, 1.4e9, 0, 0.01, 1e9, 2e9));
  }
  {
    const r = rngFor();
    const apy = ar1(r, n, 2.7, 0.08, 0.9).map((x) => clip(x, 2.4, 3.0));
    series['coinbase-cbeth'] = rows(ds, apy, tvlWalk(r, n, 1.8e9, 0, 0.01, 1.2e9, 2.6e9));
  }

  return {
    sample: true,
    asOf,
    note: 'Sample data generated by api/scripts/generate-data.ts (fixed seed). Plausible levels from public 2024-2026 figures; not measurements.',
    generator: { script: 'api/scripts/generate-data.ts', seed },
    series,
  };
}

export function generateLiquidity(options: GenerateOptions = {}): LiquidityFile {
  const seed = options.seed ?? DEFAULT_SEED;
  const asOf = options.asOf ?? DEFAULT_AS_OF;
  const ds = dates(asOf, LIQUIDITY_DAYS);
  const profiles = {
    liquity: { pct: 1.6, amihud: 5.6e-11 },
    'sky-spark': { pct: 2.5, amihud: 3.6e-11 },
    gauntlet: { pct: 1.3, amihud: 6.2e-11 },
    lido: { pct: 2.2, amihud: 3.9e-11 },
  } as const;
  const series: LiquidityFile['series'] = {};
  let stream = 100;
  for (const [slug, p] of Object.entries(profiles) as [
    keyof typeof profiles,
    (typeof profiles)[keyof typeof profiles],
  ][]) {
    const r = new Rng(seed + 7919 * ++stream);
    const pct = ar1(r, LIQUIDITY_DAYS, p.pct, 0.25, 0.85);
    const am = ar1(r, LIQUIDITY_DAYS, p.amihud, 0.5e-11, 0.85);
    // The panel's clamps: liquidity 0-3% of TVL, Amihud between 3.2e-11 and 7.51e-11.
    series[slug] = ds.map((date, i) => ({
      date,
      liquidityPct: round(clip(pct[i]!, 0, LIQUIDITY_PCT_MAX), 3),
      amihud: clip(Math.round(am[i]! * 1e15) / 1e15, AMIHUD_MIN, AMIHUD_MAX),
    }));
  }
  return {
    sample: true,
    note: "Sample liquidity panel series (exit liquidity as % of TVL and the Amihud illiquidity ratio), generated with the spec's clamps. Not measurements.",
    series,
  };
}

/**
 * Sample daily USD prices of the priced tokens: dollar tokens within a few hundredths of a cent
 * of $1, ETH on a random walk, ETH tokens a little under ETH. None is off its peg: the sample
 * raises no depeg warning.
 */
export function generatePrices(sources: SourcesFile, options: GenerateOptions = {}): PricesFile {
  const seed = options.seed ?? DEFAULT_SEED;
  const asOf = options.asOf ?? DEFAULT_AS_OF;
  const ds = dates(asOf, PRICE_DAYS);
  const ethPegged = new Set(
    sources.sources.flatMap((s) =>
      s.priceToken && s.unit === 'ETH' ? [coinOf(s.priceToken)] : [],
    ),
  );
  const eth = ar1(new Rng(seed + 7919 * 200), PRICE_DAYS, 3000, 45, 0.97).map((x) =>
    clip(x, 2400, 3600),
  );
  const coins: PricesFile['coins'] = {};
  let stream = 200;
  for (const coin of priceCoins(sources)) {
    const r = new Rng(seed + 7919 * ++stream);
    coins[coin] = ds.map((date, i) => {
      if (coin === ETH_COIN) return { date, price: round(eth[i]!, 2) };
      if (ethPegged.has(coin))
        return { date, price: round(eth[i]! * clip(0.9995 + r.normal(0, 0.0006), 0.997, 1), 2) };
      return { date, price: round(clip(1 + r.normal(0, 0.0006), 0.997, 1.003), 5) };
    });
  }
  return {
    sample: true,
    note: "Sample daily USD prices generated by api/scripts/generate-data.ts (fixed seed), near each token's peg. Not measurements.",
    generator: { script: 'api/scripts/generate-data.ts', seed },
    coins,
  };
}

/**
 * A data file with one row per line (diffable and a third of pretty-printed size): its other
 * fields pretty-printed, then `field` (a record of row lists).
 */
function formatRows<K extends string>(
  file: Record<K, Record<string, readonly unknown[] | undefined>> & object,
  field: K,
): string {
  const { [field]: lists, ...meta } = file;
  const head = JSON.stringify(meta, null, 2).slice(0, -2);
  const blocks = Object.entries(lists).map(
    ([key, list]) =>
      `    ${JSON.stringify(key)}: [\n${(list ?? []).map((r) => `      ${JSON.stringify(r)}`).join(',\n')}\n    ]`,
  );
  return `${head},\n  ${JSON.stringify(field)}: {\n${blocks.join(',\n')}\n  }\n}\n`;
}

export function formatHistory(file: HistoryFile): string {
  return formatRows(file, 'series');
}

export function formatLiquidity(file: LiquidityFile): string {
  return formatRows(file, 'series');
}

export function formatPrices(file: PricesFile): string {
  return formatRows(file, 'coins');
}

/** Atomic write (temp + rename), like the server's own writes. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  await writeFile(tmp, text);
  await rename(tmp, file);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      'as-of': { type: 'string' },
      days: { type: 'string' },
    },
  });
  const out = path.resolve(values.out ?? loadConfig(process.env, ['data:generate']).DATA_DIR);
  const options: GenerateOptions = {
    seed: values.seed ? Number(values.seed) : DEFAULT_SEED,
    asOf: values['as-of'] ?? DEFAULT_AS_OF,
    days: values.days ? Number(values.days) : DEFAULT_DAYS,
  };
  if ((options.days ?? 0) < 400)
    throw new Error('--days must be at least 400 (the issue asks for 400+ days)');
  await writeAtomic(path.join(out, 'history.json'), formatHistory(generateHistory(options)));
  await writeAtomic(path.join(out, 'liquidity.json'), formatLiquidity(generateLiquidity(options)));
  const sources = JSON.parse(await readFile(path.join(out, 'sources.json'), 'utf8')) as SourcesFile;
  await writeAtomic(path.join(out, 'prices.json'), formatPrices(generatePrices(sources, options)));
  console.log(
    `wrote history.json, liquidity.json and prices.json to ${out} (seed ${options.seed}, as of ${options.asOf}, ${options.days} days)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}
