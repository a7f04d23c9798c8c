/**
 * One import: DeFiLlama's `/pools` list is downloaded first (`<fromDir>/pools.json` offline), once:
 * every feed named by a selector is resolved against it (api/src/modules/import/selectors.ts), and
 * the same download later replaces pools.json, the scanner's input, through importPoolsSnapshot
 * (api/src/modules/import/import-pools.ts). Then every feed is read (from DeFiLlama, or from saved
 * responses with `fromDir`), validated (a day the method cannot use is left out and named, the rest
 * imported), merged into history.json and written atomically. The outcome of each feed and of
 * the snapshot is recorded in import-status.json for GET /api/health. Used by `pnpm --filter @yield/api
 * data:import` (api/scripts/import-data.ts) and by the running API's schedule (api/src/composition/deps.ts).
 *
 * A feed that fails never touches its series, a refused snapshot never touches pools.json: the
 * last good data stays. The good feeds are still
 * imported. The running API sees the new history.json as it sees an operator edit (it polls the
 * file), or at once when the import ran in its own process (the store is refreshed).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { DataFileError, type FilesView, type FileSpec } from '../../platform/files/data-store.ts';
import {
  defillamaFeedOf,
  onchainFeedOf,
  priceCoins,
  seriesFeeds,
  type HistoryFile,
  type PricesFile,
  type SourcesFile,
} from '../yields/index.ts';
import {
  type FeedOutcome,
  type PoolsOutcome,
  type PriceOutcome,
  type ImportStatusFile,
} from './schemas.ts';
import type { Pool } from './pools-file.ts';
import type { PoolSelector } from '@yield/contract';
import { computeAllSeries, type SeriesStatus } from '../yields/index.ts';
import { silentLogger, type Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';
import {
  chartUrl,
  DEFAULT_DEFILLAMA_API_URL,
  FeedError,
  fetchChartText,
  parseChart,
  poolsUrl,
} from './defillama.ts';
import { importPoolsSnapshot, preparePoolsSnapshot, type PoolsFiles } from './import-pools.ts';
import type { PoolHistoryDeps } from './pool-backfill.ts';
import {
  coinsChartUrl,
  DEFAULT_COINS_API_URL,
  mergePrices,
  parseCoinsChart,
  type CoinImport,
  type PricesMerge,
} from './coins.ts';
import { guardedWrite } from './guarded-write.ts';
import { costCoins, importCosts, type CostOutcome } from './import-costs.ts';
import type { CostsFile } from '../net-yield/index.ts';
import { resolutionProblem, resolveSelector, selectorMatches } from './selectors.ts';
import { mergeHistory, type ChainImport, type HistoryMerge, type SeriesImport } from './merge.ts';
import {
  readChain,
  rpcVariable,
  type OnchainRead,
  type OnchainTarget,
  type PriceLookup,
} from './onchain.ts';

/** The data files the import reads and writes (the composition root passes the whole store). */
export type ImportFiles = PoolsFiles & {
  sources: FileSpec<SourcesFile>;
  history: FileSpec<HistoryFile>;
  prices: FileSpec<PricesFile>;
  importStatus: FileSpec<ImportStatusFile>;
  costs: FileSpec<CostsFile>;
};

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_CONCURRENCY = 4;
/** Days taken from each response: the sample's span, well over the 180 the site shows. */
export const DEFAULT_IMPORT_DAYS = 450;

export interface ImportOptions {
  /** Feeds come from its sources.json, history.json is written in its directory. */
  store: FilesView<ImportFiles>;
  /** Default: https://yields.llama.fi (callers pass DEFILLAMA_API_URL from the configuration). */
  apiUrl?: string | undefined;
  /** DeFiLlama's coins API (token prices). Default: https://coins.llama.fi (callers pass COINS_API_URL). */
  coinsApiUrl?: string | undefined;
  /**
   * Read saved responses, `<fromDir>/chart/<pool>.json`, `<fromDir>/coins/<chain>:<address>.json`
   * and `<fromDir>/pools.json`, instead of fetching.
   */
  fromDir?: string | undefined;
  /** Compute and report, write nothing. */
  dryRun?: boolean | undefined;
  now?: (() => Date) | undefined;
  logger?: Logger | undefined;
  /** Counts each feed's outcome (yield_import_feed_runs_total): the server's scheduled imports. */
  metrics?: Pick<Metrics, 'importOutcome'> | undefined;
  timeoutMs?: number | undefined;
  concurrency?: number | undefined;
  days?: number | undefined;
  signal?: AbortSignal | undefined;
  userAgent?: string | undefined;
  /** Only download /pools and list each selector's matches (data:import --check-selectors). */
  checkSelectors?: boolean | undefined;
  /** With checkSelectors: a saved /pools answer to read instead. */
  poolsFile?: string | undefined;
  /**
   * JSON-RPC endpoints by chain (RPC_URL_<CHAIN>, see loadRpcUrls): the on-chain feeds of a chain
   * without one are skipped.
   */
  rpcUrls?: Readonly<Record<string, string>> | undefined;
  /** On-chain backfill: at most this many days (ONCHAIN_MAX_DAYS, default 365). */
  onchainMaxDays?: number | undefined;
  /**
   * Each chain's overall deadline (RPC_CHAIN_DEADLINE_MS, default 5 minutes): its feeds not read
   * by then fail with `deadline: …`.
   */
  onchainDeadlineMs?: number | undefined;
  /**
   * The pools' daily history store: the /pools import appends a row per pool to it (the server
   * then queues the backfill of the top pools whose history is short, scanner-state.ts).
   * Default: the store of the data directory.
   */
  poolHistory?: PoolHistoryDeps | undefined;
  /** Test hook: runs between writing history.json's temp file and renaming it into place. */
  beforeCommit?: ((attempt: number) => Promise<void>) | undefined;
}

export interface Figures {
  yield30d: number;
  riskAdjustedYield30d: number;
  status: SeriesStatus;
  asOf: string | null;
  /** False: no live data (provenance kind `none`), so no figures are served. */
  live: boolean;
}

/** One row of the dry run's report: a source or base rate before and after the import. */
export interface FiguresChange {
  id: number | string;
  name: string;
  before: Figures | null;
  after: Figures | null;
}

export interface ImportResult {
  /** Every feed imported and the history written (or, in a dry run, computed). */
  ok: boolean;
  from: string;
  dryRun: boolean;
  startedAt: string;
  finishedAt: string;
  feeds: FeedOutcome[];
  /** Each priced token (prices.json). */
  prices: PriceOutcome[];
  /** Each erc4626 source's deposit and withdrawal costs (costs.json). */
  costs?: CostOutcome[];
  /** The /pools snapshot; null when the run stopped before it. */
  pools: PoolsOutcome | null;
  /** Series no feed is named for: left as they are. */
  unfed: string[];
  /** Selector checks (--check-selectors only): each selector's matches in the /pools list. */
  selectorChecks?: SelectorCheck[];
  /** On-chain feeds not read: no RPC_URL_<CHAIN> for their chain (not a failure). */
  skipped?: { series: string; chain: string; address: string; reason: string }[];
  /** history.json was replaced. */
  written: boolean;
  /** A problem that stopped the whole run. */
  error: string | null;
  /** Dry run only. */
  figures: FiguresChange[];
}

export interface FeedTarget {
  series: string;
  /** The pool named by id: read as is, or the expected resolution of `select`. */
  pool?: string | undefined;
  select?: PoolSelector | undefined;
}

/** One selector's matches in a /pools list (data:import --check-selectors). */
export interface SelectorCheck {
  series: string;
  select: PoolSelector;
  expected: string | null;
  matches: {
    pool: string;
    project: string;
    chain: string;
    symbol: string;
    poolMeta: string | null;
    tvlUsd: number;
  }[];
}

/** The feeds to import (one per series) and the series without one. */
export function feedTargets(sources: SourcesFile): { targets: FeedTarget[]; unfed: string[] } {
  const targets = new Map<string, FeedTarget>();
  const all = new Set<string>();
  const fed = new Set<string>();
  for (const { series, feeds } of seriesFeeds(sources)) {
    all.add(series);
    if (onchainFeedOf(feeds)) fed.add(series);
    const feed = defillamaFeedOf(feeds);
    if (feed !== undefined && !targets.has(series))
      targets.set(series, {
        series,
        ...(feed.pool !== undefined ? { pool: feed.pool } : {}),
        ...(feed.select !== undefined ? { select: feed.select } : {}),
      });
  }
  return {
    targets: [...targets.values()],
    unfed: [...all].filter((s) => !targets.has(s) && !fed.has(s)),
  };
}

/** The on-chain feeds to read (one per series), with what the merge needs to know of each. */
export function chainTargets(sources: SourcesFile, history: HistoryFile | null): OnchainTarget[] {
  const unitOf = new Map<string, 'USD' | 'ETH'>();
  for (const s of sources.sources) unitOf.set(s.series, s.unit);
  for (const b of sources.baseRates) {
    const c = b.components;
    if (c.kind === 'stablecoin')
      for (const coin of c.coins) for (const v of coin.venues) unitOf.set(v.series, 'USD');
    else for (const a of c.assets) if ('series' in a) unitOf.set(a.series, 'ETH');
  }
  const out = new Map<string, OnchainTarget>();
  for (const { series, feeds } of seriesFeeds(sources)) {
    const feed = onchainFeedOf(feeds);
    if (!feed || out.has(series)) continue;
    const p = history?.provenance?.[series];
    const same =
      p?.kind === 'onchain' &&
      p.chain === feed.chain &&
      p.address.toLowerCase() === feed.address.toLowerCase();
    const rows = history?.series[series] ?? [];
    out.set(series, {
      series,
      feed,
      unit: unitOf.get(series) ?? 'USD',
      storedAsOf: same ? (rows[rows.length - 1]?.date ?? null) : null,
    });
  }
  return [...out.values()];
}

/** Reads every on-chain feed, chain by chain; a chain without an RPC endpoint is skipped. */
async function readChains(
  targets: readonly OnchainTarget[],
  options: ImportOptions,
  now: Date,
  price: PriceLookup,
): Promise<(OnchainRead & { skipped: boolean })[]> {
  const byChain = new Map<string, OnchainTarget[]>();
  for (const t of targets) byChain.set(t.feed.chain, [...(byChain.get(t.feed.chain) ?? []), t]);
  const out = await Promise.all(
    [...byChain].map(async ([chain, list]) => {
      const rpcUrl = options.rpcUrls?.[chain];
      if (!rpcUrl)
        return list.map((target) => ({
          target,
          rows: null,
          reason: `${rpcVariable(chain)} is not set: on-chain feed not read`,
          skipped: true,
        }));
      const reads = await readChain(list, {
        rpcUrl,
        today: utcToday(now),
        maxDays: options.onchainMaxDays,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        deadlineMs: options.onchainDeadlineMs,
        price,
      });
      return reads.map((r) => ({ ...r, skipped: false }));
    }),
  );
  return out.flat();
}

/**
 * A token's price on a day from prices.json, only where imported from the coins API (a coin
 * without a provenance entry is sample data and is never used to value a feed).
 */
function importedPrice(prices: PricesFile | null): PriceLookup {
  const byCoin = new Map<string, Map<string, number>>();
  for (const [coin, rows] of Object.entries(prices?.coins ?? {}))
    if (prices?.provenance?.[coin])
      byCoin.set(coin.toLowerCase(), new Map(rows.map((r) => [r.date, r.price])));
  return (coin, day) => byCoin.get(coin.toLowerCase())?.get(day) ?? null;
}

function utcToday(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** A response's text: the saved file `<fromDir>/<saved>` offline, else fetched from `url`. */
async function readResponse(options: ImportOptions, saved: string, url: string): Promise<string> {
  if (options.fromDir) {
    const file = path.join(options.fromDir, saved);
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new FeedError(
        code === 'ENOENT' ? `no saved response ${file}` : `cannot read ${file}: ${code}`,
      );
    }
  }
  return fetchChartText(url, {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    userAgent: options.userAgent ?? 'pigi-yield-importer/1.0',
    signal: options.signal,
  });
}

async function readFeed(pool: string, options: ImportOptions, apiUrl: string, now: Date) {
  const text = await readResponse(
    options,
    path.join('chart', `${pool}.json`),
    chartUrl(apiUrl, pool),
  );
  return parseChart(text, {
    days: options.days ?? DEFAULT_IMPORT_DAYS,
    today: utcToday(now),
  });
}

function figuresOf(sources: SourcesFile, history: HistoryFile | null, now: Date) {
  const out = new Map<string, Figures>();
  if (!history) return out;
  for (const [key, s] of computeAllSeries(sources, history, now)) {
    out.set(key, {
      yield30d: s.result.yield30d,
      riskAdjustedYield30d: s.result.riskAdjustedYield30d,
      status: s.status,
      asOf: s.result.asOf,
      live: s.provenance.kind !== 'none',
    });
  }
  return out;
}

function figuresChange(
  sources: SourcesFile,
  before: HistoryFile | null,
  after: HistoryFile | null,
  now: Date,
): FiguresChange[] {
  const b = figuresOf(sources, before, now);
  const a = figuresOf(sources, after, now);
  return [
    ...sources.sources.map((s) => ({
      key: String(s.id),
      id: s.id as number | string,
      name: s.name,
    })),
    ...sources.baseRates.map((r) => ({ key: r.key, id: r.key, name: `${r.name} (${r.type})` })),
  ].map(({ key, id, name }) => ({
    id,
    name,
    before: b.get(key) ?? null,
    after: a.get(key) ?? null,
  }));
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const logger = options.logger ?? silentLogger;
  const now = options.now?.() ?? new Date();
  const apiUrl = options.apiUrl ?? DEFAULT_DEFILLAMA_API_URL;
  const from = options.poolsFile
    ? `file:${path.resolve(options.poolsFile)}`
    : options.fromDir
      ? `files:${path.resolve(options.fromDir)}`
      : apiUrl;
  const dryRun = options.dryRun ?? false;
  const result: ImportResult = {
    ok: false,
    from,
    dryRun,
    startedAt: now.toISOString(),
    finishedAt: now.toISOString(),
    feeds: [],
    prices: [],
    pools: null,
    unfed: [],
    skipped: [],
    written: false,
    error: null,
    figures: [],
  };
  const finish = async (): Promise<ImportResult> => {
    result.finishedAt = new Date().toISOString();
    result.ok =
      result.error === null &&
      result.feeds.every((f) => f.ok) &&
      result.prices.every((p) => p.ok) &&
      result.pools?.ok === true;
    if (!dryRun) {
      await recordStatus(options, result, logger);
      const m = options.metrics;
      if (m) {
        for (const f of result.feeds)
          m.importOutcome(f.provider === 'onchain' ? `onchain:${f.series}` : f.series, f.ok);
        for (const p of result.prices) m.importOutcome(`price:${p.coin}`, p.ok);
        if (result.pools) m.importOutcome('pools', result.pools.ok);
        if (result.error !== null && result.feeds.length === 0) m.importOutcome('run', false);
      }
    }
    return result;
  };
  try {
    return await importAll(options, { result, finish, logger, now, apiUrl, dryRun });
  } catch (err) {
    // A failure outside every feed's own handling: what was imported stays, and the run's
    // status is still written.
    result.error = `the import stopped: ${(err as Error).message}`;
    logger.error('import stopped', { error: result.error, stack: (err as Error).stack });
    return finish();
  }
}

/** What one run shares between its steps. */
interface Run {
  result: ImportResult;
  /** Records the outcome (import status, metrics) and returns the result. */
  finish: () => Promise<ImportResult>;
  logger: Logger;
  now: Date;
  apiUrl: string;
  dryRun: boolean;
}

async function importAll(options: ImportOptions, run: Run): Promise<ImportResult> {
  const { store } = options;
  const { result, finish, logger, now, apiUrl } = run;
  const sources = await loadSources(store, run);
  if (!sources) return finish();
  const { targets, unfed } = feedTargets(sources);
  result.unfed = unfed;

  // The /pools list, downloaded once: the selectors' and the scanner's.
  const poolsList = await readPoolsList(options, apiUrl, now);
  if (options.checkSelectors) return selectorsChecked(result, targets, poolsList);
  const today = utcToday(now);
  const reads = await readFeeds(
    targets.map((target) => resolveTarget(target, poolsList, today)),
    options,
    run,
  );
  // Token prices first: a Liquity Stability Pool feed values its gains with them.
  const coins = [...new Set([...priceCoins(sources), ...costCoins(sources)])];
  result.prices = await importPrices(options, coins, now, logger);
  // The deposit and withdrawal costs, valued with the native tokens' prices just imported.
  result.costs = await importCosts(sources, {
    store,
    rpcUrls: options.rpcUrls,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    dryRun: run.dryRun,
    now,
    logger,
  });
  // The on-chain feeds: share prices (or rates) at each day's last block.
  const chainReads = await readChains(
    chainTargets(sources, store.get('history')),
    options,
    now,
    importedPrice(store.get('prices')),
  );
  const merged = await writeHistory(options, run, seriesImports(reads), chainImports(chainReads));
  reportFeeds(result, reads, merged);
  reportChainFeeds(run, chainReads, merged);
  if (merged.writeError) result.error = merged.writeError;
  logFeeds(result.feeds, logger);
  if (run.dryRun && merged.merge) {
    result.figures = figuresChange(sources, merged.before, merged.merge.history, now);
  }
  result.pools = await importPools(options, poolsList, now, logger);
  return finish();
}

/** sources.json as it is now (hand edits made since the store last looked count), or null. */
async function loadSources(store: FilesView<ImportFiles>, { result, logger }: Run) {
  await store.refreshFile('sources');
  await store.refreshFile('history');
  const sources = store.get('sources');
  if (!sources) {
    result.error = `sources.json has not loaded: ${store.status()['sources.json']?.error ?? 'unknown error'}`;
    logger.error('import stopped', { error: result.error });
  }
  return sources;
}

/** A run that only checks the feeds' selectors against the /pools list. */
function selectorsChecked(
  result: ImportResult,
  targets: FeedTarget[],
  poolsList: PoolsList,
): ImportResult {
  result.selectorChecks = checkSelectors(targets, poolsList);
  result.error =
    poolsList.ok === false ? `the /pools list could not be read: ${poolsList.reason}` : null;
  result.finishedAt = new Date().toISOString();
  result.ok =
    result.error === null &&
    result.selectorChecks.every(
      (c) => c.matches.length === 1 && (c.expected === null || c.matches[0]!.pool === c.expected),
    );
  return result;
}

/** A DeFiLlama feed's target and what its read gave (null, with a reason, when none). */
type FeedRead = ResolvedTarget & { parsed: Awaited<ReturnType<typeof readFeed>> | null };
type ChainRead = Awaited<ReturnType<typeof readChains>>[number];

/** Reads every feed, a few at a time (DeFiLlama is a shared public service). */
function readFeeds(resolved: ResolvedTarget[], options: ImportOptions, run: Run) {
  const limit = pLimit(options.concurrency ?? DEFAULT_CONCURRENCY);
  return Promise.all(
    resolved.map((r) =>
      limit(async (): Promise<FeedRead> => {
        if (r.pool === null || r.reason !== null) return { ...r, parsed: null };
        try {
          return { ...r, parsed: await readFeed(r.pool, options, run.apiUrl, run.now) };
        } catch (err) {
          const reason =
            err instanceof FeedError ? err.message : `failed: ${(err as Error).message}`;
          return { ...r, parsed: null, reason };
        }
      }),
    ),
  );
}

function seriesImports(reads: FeedRead[]): SeriesImport[] {
  return reads.flatMap((r) =>
    r.parsed && r.pool !== null
      ? [
          {
            series: r.target.series,
            pool: r.pool,
            rows: r.parsed.rows,
            ...(r.resolvedOn !== null ? { resolvedOn: r.resolvedOn } : {}),
          },
        ]
      : [],
  );
}

function chainImports(chainReads: ChainRead[]): ChainImport[] {
  return chainReads.flatMap((r) =>
    r.rows
      ? [
          {
            series: r.target.series,
            chain: r.target.feed.chain,
            address: r.target.feed.address,
            rows: r.rows,
          },
        ]
      : [],
  );
}

/** The history as merged (`before` it and the merge written) and why it was not written. */
interface MergedHistory {
  before: HistoryFile | null;
  merge: HistoryMerge | null;
  writeError: string | null;
}

/**
 * Merges and writes. The merge runs again on top of any edit that lands while writing; what is
 * returned is the merge that was written. A dry run merges without writing.
 */
async function writeHistory(
  options: ImportOptions,
  { result, now, dryRun }: Run,
  imports: SeriesImport[],
  chains: ChainImport[],
): Promise<MergedHistory> {
  const { store } = options;
  const last: MergedHistory = { before: store.get('history'), merge: null, writeError: null };
  if (dryRun) {
    if (last.before) last.merge = mergeHistory(last.before, imports, now, chains);
    else last.writeError = `history.json has not loaded: ${store.status()['history.json']?.error}`;
  } else if (imports.length + chains.length > 0) {
    try {
      const written = await guardedWrite({
        file: path.join(store.dir, store.spec('history').file),
        schema: store.spec('history').schema,
        update: (current) => {
          last.before = current;
          last.merge = mergeHistory(current, imports, now, chains);
          return last.merge.changed ? last.merge.history : null;
        },
        beforeCommit: options.beforeCommit,
      });
      result.written = written.written;
      await store.refreshFile('history');
    } catch (err) {
      last.writeError =
        err instanceof DataFileError ? err.message : `history.json: ${(err as Error).message}`;
    }
  }
  return last;
}

/** Each DeFiLlama feed's outcome, in the run's result. */
function reportFeeds(result: ImportResult, reads: FeedRead[], merged: MergedHistory): void {
  const stats = merged.merge?.stats;
  for (const r of reads) {
    const s = stats?.get(r.target.series);
    const reason = r.reason ?? (merged.writeError ? `not written: ${merged.writeError}` : null);
    const rows = r.parsed?.rows ?? [];
    const leftOut = r.parsed?.leftOut ?? [];
    result.feeds.push({
      series: r.target.series,
      provider: 'defillama',
      pool: r.pool,
      ...(r.target.select ? { select: r.target.select } : {}),
      ...(r.candidates ? { candidates: r.candidates } : {}),
      ok: reason === null,
      reason,
      days: rows.length,
      added: reason === null ? (s?.added ?? 0) : 0,
      updated: reason === null ? (s?.updated ?? 0) : 0,
      newestDay: rows[rows.length - 1]?.date ?? null,
      ...(leftOut.length > 0 ? { leftOut } : {}),
    });
  }
}

/** Each on-chain feed's outcome, in the run's result; a skipped one is logged. */
function reportChainFeeds({ result, logger }: Run, chainReads: ChainRead[], merged: MergedHistory) {
  const chainStats = merged.merge?.chainStats;
  for (const r of chainReads) {
    if (r.skipped) {
      (result.skipped ??= []).push({
        series: r.target.series,
        chain: r.target.feed.chain,
        address: r.target.feed.address,
        reason: r.reason ?? 'not read',
      });
      logger.warn('on-chain feed skipped', { series: r.target.series, reason: r.reason });
      continue;
    }
    const s = chainStats?.get(r.target.series);
    const reason = r.reason ?? (merged.writeError ? `not written: ${merged.writeError}` : null);
    const rows = r.rows ?? [];
    result.feeds.push({
      series: r.target.series,
      provider: 'onchain',
      chain: r.target.feed.chain,
      address: r.target.feed.address,
      ok: reason === null,
      reason,
      days: rows.length,
      added: reason === null ? (s?.added ?? 0) : 0,
      updated: reason === null ? (s?.updated ?? 0) : 0,
      newestDay: rows[rows.length - 1]?.date ?? null,
      ...(r.leftOut?.length ? { leftOut: r.leftOut } : {}),
    });
  }
}

/** One log line per feed: imported (and each day left out), or kept at its last good data. */
function logFeeds(feeds: ImportResult['feeds'], logger: Logger): void {
  for (const f of feeds) {
    const where =
      f.provider === 'onchain' ? { chain: f.chain, address: f.address } : { pool: f.pool };
    if (f.ok) {
      logger.info('feed imported', {
        series: f.series,
        ...where,
        days: f.days,
        added: f.added,
        updated: f.updated,
        newestDay: f.newestDay,
      });
      for (const day of f.leftOut ?? [])
        logger.warn('day left out of a feed', { series: f.series, ...where, ...day });
    } else
      logger.error('feed not imported, keeping its last good data', {
        series: f.series,
        ...where,
        reason: f.reason,
      });
  }
}

/** The /pools download: its raw JSON and the validated pools, or why it could not be used. */
type PoolsList = { ok: true; raw: unknown; pools: Pool[] } | { ok: false; reason: string };

async function readPoolsList(
  options: ImportOptions,
  apiUrl: string,
  now: Date,
): Promise<PoolsList> {
  try {
    const text = options.poolsFile
      ? await readResponse(
          { ...options, fromDir: path.dirname(options.poolsFile) },
          path.basename(options.poolsFile),
          '',
        )
      : await readResponse(options, 'pools.json', poolsUrl(apiUrl));
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new FeedError(`malformed JSON: ${(err as Error).message}`);
    }
    const { file } = preparePoolsSnapshot(raw, { fetchedAt: now });
    return { ok: true, raw, pools: file.data };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

interface ResolvedTarget {
  target: FeedTarget;
  /** The pool to read; null when the selector did not resolve. */
  pool: string | null;
  /** Set when the selector resolved in this import. */
  resolvedOn: string | null;
  candidates: string[] | null;
  /** Why the feed is not read (its series keeps its last good data). */
  reason: string | null;
}

/**
 * The pool a feed reads: its id, or its selector's single match in the /pools list (which must be
 * the id when both are given). Without a usable list, a feed with an id reads that id.
 */
function resolveTarget(target: FeedTarget, list: PoolsList, today: string): ResolvedTarget {
  const expected = target.pool ?? null;
  const out = (fields: Partial<ResolvedTarget>): ResolvedTarget => ({
    target,
    pool: expected,
    resolvedOn: null,
    candidates: null,
    reason: null,
    ...fields,
  });
  if (!target.select) return out({});
  if (!list.ok)
    return expected !== null
      ? out({})
      : out({ reason: `selector not resolved: the pools list could not be read (${list.reason})` });
  const resolution = resolveSelector(target.select, list.pools);
  const problem = resolutionProblem(target.select, resolution);
  if (resolution.kind === 'several')
    return out({ candidates: resolution.candidates, reason: problem });
  if (resolution.kind === 'none') return out({ reason: problem });
  if (expected !== null && resolution.pool !== expected)
    return out({
      candidates: [resolution.pool],
      reason:
        `selector resolves to pool ${resolution.pool}, not to the expected ${expected} ` +
        `(sources.json "pool"): check both on defillama.com and correct one of them`,
    });
  return out({ pool: resolution.pool, resolvedOn: today });
}

/** Each selector's matches (data:import --check-selectors). */
function checkSelectors(targets: FeedTarget[], list: PoolsList): SelectorCheck[] {
  const pools = list.ok ? list.pools : [];
  return targets.flatMap((t) =>
    t.select
      ? [
          {
            series: t.series,
            select: t.select,
            expected: t.pool ?? null,
            matches: selectorMatches(t.select, pools).map((p) => ({
              pool: p.pool,
              project: p.project,
              chain: p.chain,
              symbol: p.symbol,
              poolMeta: p.poolMeta ?? null,
              tvlUsd: p.tvlUsd,
            })),
          },
        ]
      : [],
  );
}

/**
 * Reads, validates and (unless a dry run) merges into prices.json the daily price of every priced
 * token; never throws. A token that fails keeps its last good prices.
 */
async function importPrices(
  options: ImportOptions,
  coins: string[],
  now: Date,
  logger: Logger,
): Promise<PriceOutcome[]> {
  const apiUrl = options.coinsApiUrl ?? DEFAULT_COINS_API_URL;
  const today = utcToday(now);
  const days = options.days ?? DEFAULT_IMPORT_DAYS;
  const limit = pLimit(options.concurrency ?? DEFAULT_CONCURRENCY);
  const reads = await Promise.all(
    coins.map((coin) =>
      limit(async () => {
        try {
          const text = await readResponse(
            options,
            path.join('coins', `${coin}.json`),
            coinsChartUrl(apiUrl, coin, today, days),
          );
          return { coin, parsed: parseCoinsChart(text, coin, { days, today }), reason: null };
        } catch (err) {
          const reason =
            err instanceof FeedError ? err.message : `failed: ${(err as Error).message}`;
          return { coin, parsed: null, reason };
        }
      }),
    ),
  );
  const imports: CoinImport[] = reads.flatMap((r) =>
    r.parsed ? [{ coin: r.coin, rows: r.parsed.rows }] : [],
  );
  const { store } = options;
  let merge: PricesMerge | null = null;
  let writeError: string | null = null;
  try {
    if (options.dryRun) {
      const current = store.get('prices');
      if (current) merge = mergePrices(current, imports, now);
    } else if (imports.length > 0) {
      await store.refreshFile('prices');
      await guardedWrite({
        file: path.join(store.dir, store.spec('prices').file),
        schema: store.spec('prices').schema,
        empty: store.spec('prices').empty,
        update: (current) => {
          merge = mergePrices(current, imports, now);
          return merge.changed ? merge.prices : null;
        },
      });
      await store.refreshFile('prices');
    }
  } catch (err) {
    writeError =
      err instanceof DataFileError ? err.message : `prices.json: ${(err as Error).message}`;
  }
  const stats = (merge as PricesMerge | null)?.stats;
  return reads.map((r): PriceOutcome => {
    const reason = r.reason ?? (writeError ? `not written: ${writeError}` : null);
    const rows = r.parsed?.rows ?? [];
    const s = stats?.get(r.coin);
    const outcome: PriceOutcome = {
      coin: r.coin,
      ok: reason === null,
      reason,
      days: rows.length,
      lowConfidence: r.parsed?.lowConfidence ?? 0,
      added: reason === null ? (s?.added ?? 0) : 0,
      updated: reason === null ? (s?.updated ?? 0) : 0,
      newestDay: rows[rows.length - 1]?.date ?? null,
    };
    if (outcome.ok) logger.info('prices imported', { ...outcome });
    else
      logger.error('prices not imported, keeping their last good data', { coin: r.coin, reason });
    return outcome;
  });
}

/** Validates and (unless a dry run) writes the /pools snapshot already downloaded; never throws. */
async function importPools(
  options: ImportOptions,
  list: PoolsList,
  now: Date,
  logger: Logger,
): Promise<PoolsOutcome> {
  try {
    if (!list.ok) throw new Error(list.reason);
    const report = options.dryRun
      ? preparePoolsSnapshot(list.raw, { fetchedAt: now }).report
      : await importPoolsSnapshot(list.raw, {
          store: options.store,
          fetchedAt: now,
          logger,
          ...(options.poolHistory ? { history: options.poolHistory.store } : {}),
        });
    const { received, accepted, dropped, asOf, leftOut } = report;
    for (const p of leftOut) logger.warn('pool left out of the snapshot', { ...p });
    return {
      ok: true,
      reason: null,
      received,
      accepted,
      dropped,
      asOf,
      ...(leftOut.length > 0 ? { leftOut } : {}),
    };
  } catch (err) {
    const reason = (err as Error).message;
    logger.error('pools snapshot not imported, keeping the last good one', { reason });
    return { ok: false, reason, received: 0, accepted: 0, dropped: 0, asOf: null };
  }
}

/** Keeps the outcome for GET /api/health (also of a CLI import, read by a running server). */
async function recordStatus(options: ImportOptions, result: ImportResult, logger: Logger) {
  const lastRun: NonNullable<ImportStatusFile['lastRun']> = {
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    from: result.from,
    ok: result.ok,
    error: result.error,
    feeds: result.feeds,
    ...(result.pools ? { pools: result.pools } : {}),
    prices: result.prices,
    ...(result.skipped?.length ? { skipped: result.skipped } : {}),
  };
  try {
    await guardedWrite({
      file: path.join(options.store.dir, options.store.spec('importStatus').file),
      schema: options.store.spec('importStatus').schema,
      empty: options.store.spec('importStatus').empty,
      update: () => ({ lastRun }),
    });
    await options.store.refreshFile('importStatus');
  } catch (err) {
    logger.error('import status not recorded', { error: (err as Error).message });
  }
}
