/**
 * Operator command: imports the daily history of every feed named in sources.json from DeFiLlama
 * (and, for the on-chain feeds, from the chain's JSON-RPC endpoint in RPC_URL_<CHAIN>) into
 * history.json, the daily price of every priced token from DeFiLlama's coins API into
 * prices.json, and DeFiLlama's /pools snapshot into pools.json, the scanner's input
 * (api/src/modules/import/run-import.ts). A running server picks the new files up by itself, as it does
 * any edit.
 *
 *   pnpm --filter @yield/api data:import                         # from https://yields.llama.fi
 *   pnpm --filter @yield/api data:import -- --dry-run            # what would change, nothing written
 *   pnpm --filter @yield/api data:import -- --from saved/        # saved/chart/<pool>.json, saved/coins/<coin>.json, saved/pools.json, offline
 *   pnpm --filter @yield/api data:import -- --check-selectors [--pools FILE]   # each selector's matches; writes nothing
 *
 * Exit code: 0 every feed, token price and the snapshot imported; 1 one of them (or a write) failed,
 * the good ones were imported;
 * 2 the command could not run (bad arguments, sources.json not loadable).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadRpcUrls, type Config } from '../src/platform/config.ts';
import { openStore } from '../src/composition/data-files.ts';
import { openPublishedData, publishedImport } from '../src/composition/published-data.ts';
import { PublishConflictError } from '../src/platform/pg/published-documents.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { DEFAULT_DEFILLAMA_API_URL } from '../src/modules/import/defillama.ts';
import { DEFAULT_COINS_API_URL } from '../src/modules/import/coins.ts';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_IMPORT_DAYS,
  DEFAULT_TIMEOUT_MS,
  runImport,
  type Figures,
  type ImportResult,
} from '../src/modules/import/run-import.ts';
import { runAsCommand, type CliResult } from './cli.ts';
import { describeSelector } from '../src/modules/import/selectors.ts';

const USAGE = `Usage: data:import [--from DIR] [--dry-run] [--check-selectors [--pools FILE]] [--api-url URL] [--coins-api-url URL] [--days N] [--timeout-ms N] [--concurrency N] [--data-dir DIR]

  --from         read saved responses DIR/chart/<pool>.json, DIR/coins/<chain>:<address>.json and DIR/pools.json instead of fetching (offline)
  --dry-run      print each source's 30-day APR and risk-adjusted APR before and after; write nothing
  --check-selectors  download /pools (or read --pools FILE, or DIR/pools.json with --from) and print
                 each feed selector's matching pools; write nothing. Exit 0 when every selector
                 matches exactly one pool (its expected pool, when sources.json names one)
  --pools        with --check-selectors: a saved /pools answer to check against
  --api-url      DeFiLlama yields API (default: $DEFILLAMA_API_URL, else ${DEFAULT_DEFILLAMA_API_URL})
  --coins-api-url  DeFiLlama coins API, token prices (default: $COINS_API_URL, else ${DEFAULT_COINS_API_URL})
  --days         newest days taken from each feed (default ${DEFAULT_IMPORT_DAYS}; older stored days are kept)
  --timeout-ms   per request (default ${DEFAULT_TIMEOUT_MS})
  --concurrency  requests at once (default ${DEFAULT_CONCURRENCY})
  --data-dir     data directory (default: $DATA_DIR, else api/data)

On-chain feeds (provider onchain in sources.json) are read through $RPC_URL_<CHAIN> (e.g.
RPC_URL_ETHEREUM, RPC_URL_BASE), backfilled at most $ONCHAIN_MAX_DAYS days (default 365); a chain without one
is skipped (a "skip" line, not a failure). A chain whose node fails (unreachable, a head block
that is not one) or does not finish within $RPC_CHAIN_DEADLINE_MS (default 300000, 5 minutes) fails
its own feeds only ("deadline: ..."); the rest is imported. --from does not apply to them. Liquity's Stability
Pool (kind liquity-stability-pool) values each day's ETH and LQTY gains with the day's prices,
imported first; a day without the price it needs is left out and named ("left out").

With $DATABASE_URL the import runs on the published data (docs/api.md, "Published data"): the
published versions of the files it writes are put into the data directory first, and what it
changed is published after (all at once; once more on the newer versions when one moved).

Exit code 0: every feed, token price and the /pools snapshot imported. 1: one of them failed (its
last good data is kept; the others were imported), a data file could not be written or the
import could not be published. 2: bad arguments or unreadable sources.json.`;

function positiveInt(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number of at least 1`);
  return n;
}

const pct = (n: number) => `${n.toFixed(2)}%`;

function figure(f: Figures | null, pick: (f: Figures) => number): string {
  if (!f) return 'n/a';
  if (!f.live) return 'no live data';
  if (f.status === 'insufficient_data') return 'n/a';
  return `${pct(pick(f))}${f.status === 'stale' ? ' (stale)' : ''}`;
}

function selectorReport(result: ImportResult): string {
  const checks = result.selectorChecks ?? [];
  const lines = [`Checked ${checks.length} selectors against /pools from ${result.from}`];
  for (const c of checks) {
    const one = c.matches.length === 1;
    const expectedOk = c.expected === null || (one && c.matches[0]!.pool === c.expected);
    const verdict = !one
      ? c.matches.length === 0
        ? 'NONE'
        : 'MANY'
      : expectedOk
        ? 'ok  '
        : 'DIFF';
    lines.push(`  ${verdict}  ${c.series}  ${describeSelector(c.select)}`);
    if (c.expected !== null) lines.push(`        expected ${c.expected}`);
    for (const m of c.matches)
      lines.push(
        `        match ${m.pool}  ${m.project} ${m.chain} ${m.symbol}${m.poolMeta ? ` (${m.poolMeta})` : ''}  TVL $${Math.round(m.tvlUsd).toLocaleString('en-US')}`,
      );
  }
  if (result.error) lines.push(`Error: ${result.error}`);
  lines.push(
    result.ok
      ? 'Every selector matches exactly one pool.'
      : 'Not every selector matches exactly one (expected) pool: fix sources.json before importing.',
  );
  return lines.join('\n');
}

function report(result: ImportResult, historyFile: string): string {
  const lines: string[] = [];
  const verb = result.dryRun ? 'Dry run of' : 'Imported';
  lines.push(`${verb} ${result.feeds.length} feeds from ${result.from}`);
  const width = Math.max(
    0,
    ...result.feeds.map((f) => f.series.length),
    ...result.unfed.map((s) => s.length),
  );
  for (const f of result.feeds) {
    const from =
      f.provider === 'onchain' ? `onchain ${f.chain}:${f.address}` : (f.pool ?? '(unresolved)');
    const head = `  ${f.ok ? 'ok  ' : 'FAIL'}  ${f.series.padEnd(width)}  ${from}`;
    const resolved = f.select && f.ok ? `, selector resolved` : '';
    const leftOut = f.leftOut?.length ? `, ${f.leftOut.length} day(s) left out` : '';
    lines.push(
      f.ok
        ? `${head}  ${f.days} days, ${f.added} new, ${f.updated} updated, newest ${f.newestDay}${resolved}${leftOut}`
        : `${head}  ${f.reason} (its last good data is kept)`,
    );
    for (const day of f.leftOut ?? [])
      lines.push(`        left out ${day.date ?? '(no date)'}: ${day.reason}`);
  }
  for (const s of result.skipped ?? [])
    lines.push(`  skip  ${s.series.padEnd(width)}  onchain ${s.chain}:${s.address}  ${s.reason}`);
  for (const s of result.unfed)
    lines.push(`  -     ${s.padEnd(width)}  no feed in sources.json: left as it is`);
  for (const p of result.prices)
    lines.push(
      p.ok
        ? `  ok    ${'price'.padEnd(width)}  ${p.coin}  ${p.days} days (${p.lowConfidence} below confidence 0.9 left out), ${p.added} new, ${p.updated} updated, newest ${p.newestDay}`
        : `  FAIL  ${'price'.padEnd(width)}  ${p.coin}  ${p.reason} (its last good prices are kept)`,
    );
  const pools = result.pools;
  if (pools)
    lines.push(
      pools.ok
        ? `  ok    ${'pools'.padEnd(width)}  /pools  ${pools.accepted} pools (${pools.dropped} malformed left out) as of ${pools.asOf}`
        : `  FAIL  ${'pools'.padEnd(width)}  /pools  ${pools.reason} (the last good snapshot is kept)`,
    );
  for (const p of pools?.leftOut ?? [])
    lines.push(`        left out pool ${p.pool ?? '(no id)'}: ${p.field}: ${p.reason}`);
  if (pools && pools.dropped > (pools.leftOut?.length ?? 0))
    lines.push(
      `        (${pools.dropped - (pools.leftOut?.length ?? 0)} more left out, not named)`,
    );
  if (result.error) lines.push(`Error: ${result.error}`);

  if (result.dryRun) {
    lines.push('', 'Nothing written. 30-day APR and risk-adjusted APR, before -> after:');
    const nameWidth = Math.max(...result.figures.map((f) => `${f.id} ${f.name}`.length));
    for (const f of result.figures) {
      const apr = `${figure(f.before, (x) => x.yield30d)} -> ${figure(f.after, (x) => x.yield30d)}`;
      const ra = `${figure(f.before, (x) => x.riskAdjustedYield30d)} -> ${figure(f.after, (x) => x.riskAdjustedYield30d)}`;
      lines.push(
        `  ${`${f.id} ${f.name}`.padEnd(nameWidth)}  APR ${apr.padEnd(24)}  risk-adjusted ${ra}  (data to ${f.after?.asOf ?? 'n/a'})`,
      );
    }
  } else {
    const failed = result.feeds.filter((f) => !f.ok).length;
    const failedPrices = result.prices.filter((p) => !p.ok).length;
    lines.push(
      result.written
        ? `${historyFile} written.`
        : `${historyFile} unchanged${result.error ? '' : ' (no new or changed days)'}.`,
    );
    if (failed > 0 || pools?.ok === false)
      lines.push(
        `${failed} feed(s)${pools?.ok === false ? ' and the /pools snapshot' : ''} failed: see the reasons above and GET /api/health.`,
      );
    if (failedPrices > 0)
      lines.push(
        `${failedPrices} token price(s) failed: see the reasons above and GET /api/health.`,
      );
  }
  return lines.join('\n');
}

export async function runImportCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  now?: () => Date,
): Promise<CliResult> {
  let values;
  let days: number | undefined;
  let timeoutMs: number | undefined;
  let concurrency: number | undefined;
  let config: Config;
  try {
    config = loadConfig(env, ['data:import']);
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        from: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'api-url': { type: 'string' },
        'coins-api-url': { type: 'string' },
        days: { type: 'string' },
        'timeout-ms': { type: 'string' },
        concurrency: { type: 'string' },
        'data-dir': { type: 'string' },
        'check-selectors': { type: 'boolean' },
        pools: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
    days = positiveInt(values.days, '--days');
    timeoutMs = positiveInt(values['timeout-ms'], '--timeout-ms');
    concurrency = positiveInt(values.concurrency, '--concurrency');
    const apiUrl = values['api-url'];
    if (apiUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(apiUrl))
      throw new Error(`the DeFiLlama API URL must be an http(s) URL, got "${apiUrl}"`);
    if (values.pools !== undefined && !values['check-selectors'])
      throw new Error('--pools is only read with --check-selectors');
    const coinsUrl = values['coins-api-url'];
    if (coinsUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(coinsUrl))
      throw new Error(`the coins API URL must be an http(s) URL, got "${coinsUrl}"`);
  } catch (err) {
    if (err instanceof ConfigError) return { exitCode: 2, output: err.message };
    return { exitCode: 2, output: `${(err as Error).message}\n\n${USAGE}` };
  }
  if (values.help) return { exitCode: 0, output: USAGE };

  const dataDir = path.resolve(values['data-dir'] ?? config.DATA_DIR);
  const store = openStore(dataDir, silentLogger);
  await store.loadAll();
  if (!store.get('sources'))
    return {
      exitCode: 2,
      output: `Cannot import: ${store.status()['sources.json']?.error ?? 'sources.json did not load'}`,
    };

  if (values['check-selectors']) {
    const poolsFile = values.pools;
    const checked = await runImport({
      store,
      apiUrl: values['api-url'] ?? config.DEFILLAMA_API_URL,
      fromDir: values.from,
      ...(poolsFile !== undefined ? { poolsFile: path.resolve(poolsFile) } : {}),
      checkSelectors: true,
      timeoutMs,
      now,
    });
    return { exitCode: checked.ok ? 0 : 1, output: selectorReport(checked) };
  }

  const databaseUrl = config.DATABASE_URL;
  const db = databaseUrl
    ? new PgConnection({ connectionString: databaseUrl, logger: silentLogger, poolMax: 2 })
    : null;
  try {
    const published = db ? await openPublishedData(store, db, silentLogger, 0) : null;
    const error = published?.health().error;
    if (error) return { exitCode: 1, output: `Cannot import: ${error}. Nothing was changed.` };
    const run = () => importAll(store, config, values, { days, timeoutMs, concurrency, now }, env);
    const result =
      published && !values['dry-run'] ? await publishedImport(published, run) : await run();
    return {
      exitCode: result.ok ? 0 : 1,
      output: report(result, path.join(dataDir, 'history.json')),
    };
  } catch (err) {
    if (!(err instanceof PublishConflictError)) throw err;
    return {
      exitCode: 1,
      output: `Imported, not published: published again meanwhile (${err.message}); run it again.`,
    };
  } finally {
    await db?.close();
  }
}

/** The import itself: into the files of the store's directory. */
function importAll(
  store: ReturnType<typeof openStore>,
  config: Config,
  values: { 'api-url'?: string; 'coins-api-url'?: string; from?: string; 'dry-run'?: boolean },
  limits: { days?: number; timeoutMs?: number; concurrency?: number; now?: () => Date },
  env: NodeJS.ProcessEnv,
) {
  const { days, timeoutMs, concurrency, now } = limits;
  return runImport({
    store,
    rpcUrls: loadRpcUrls(env),
    onchainMaxDays: config.ONCHAIN_MAX_DAYS,
    onchainDeadlineMs: config.RPC_CHAIN_DEADLINE_MS,
    apiUrl: values['api-url'] ?? config.DEFILLAMA_API_URL,
    coinsApiUrl: values['coins-api-url'] ?? config.COINS_API_URL,
    fromDir: values.from,
    dryRun: values['dry-run'] ?? false,
    days,
    timeoutMs,
    concurrency,
    now,
  });
}

runAsCommand(import.meta.url, (argv) => runImportCli(argv));
