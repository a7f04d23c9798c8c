/**
 * The fleet: API processes (`src/server.ts`) on one PostgreSQL, each with its own data directory
 * holding the shipped sample, against the local DeFiLlama stand-in (api/test/replay-server.ts:
 * /pools, each feed's /chart, the coins API), in one run:
 *
 * - (b) the upstream requests of one scheduled import round (`DATA_IMPORT_INTERVAL=1h`, the import
 *   every process starts with, and the pool history backfill after it, `POOL_BACKFILL_TOP`
 *   pools), by kind: `/pools`, the feeds' `/chart`, the coins API, the backfill's `/chart`; for
 *   1 machine on a fresh database, then 3 on another. No `RPC_URL_*` is set, so the on-chain
 *   feeds are skipped and the RPC sees nothing.
 * - (a) on the 3 processes: the time from the start of `data:publish` of an edited settings.json
 *   (a new `siteTitle`) to every process serving it on `GET /api/settings` (each polled every
 *   20 ms), BENCH_PUBLISH_RUNS times: median and max, and the publish command's own time.
 *
 *   node bench/fleet.mjs          # or: pnpm --filter @yield/bench bench:fleet
 *   BENCH_PUBLISH_RUNS=10 BENCH_BACKFILL_TOP=20 node bench/fleet.mjs
 *
 * The PostgreSQL cluster is a throwaway one (api/test/pg-cluster.ts: Debian's postgresql
 * binaries, a temp directory, a free loopback port), removed at the end. Prints numbers only
 * (no pass/fail): they are recorded in docs/performance.md, "The fleet".
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
const RUNS = Number(process.env.BENCH_PUBLISH_RUNS ?? 10);
const TOP = Number(process.env.BENCH_BACKFILL_TOP ?? 20);

const childScript = `
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isInstallationFile } from './src/composition/data-files.ts';
import { DEFAULT_DATA_DIR } from './src/platform/paths.ts';
import { feedTargets } from './src/modules/import/run-import.ts';
import { runDataPublished } from './scripts/data-published.ts';
import { freePort, startCluster } from './test/pg-cluster.ts';
import { chartBody, dailyPoints, startReplayServer } from './test/replay-server.ts';
import { feedPoolId } from './test/selector-pools.ts';

const RUNS = ${RUNS};
const TOP = ${TOP};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const temps = [];
async function sampleDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-fleet-'));
  temps.push(dir);
  await cp(DEFAULT_DATA_DIR, dir, {
    recursive: true,
    filter: (src) => src === DEFAULT_DATA_DIR || !isInstallationFile(path.basename(src)),
  });
  return dir;
}

// The stand-in: every feed of the shipped sources.json with 60 days ending today.
const today = new Date().toISOString().slice(0, 10);
const { targets } = feedTargets(JSON.parse(await readFile(path.join(DEFAULT_DATA_DIR, 'sources.json'), 'utf8')));
const feedPools = new Set(targets.map(feedPoolId));
const llama = await startReplayServer();
targets.forEach((t, n) =>
  llama.set(feedPoolId(t), {
    kind: 'json',
    body: chartBody(dailyPoints({ lastDay: today, days: 60, apy: (i) => 3 + n * 0.25 + (i % 5) * 0.02, tvlUsd: (i) => 2e8 + i * 1e5 })),
  }),
);
// A feed's pool is asked by the import first; asked again, it is the backfill's (the feeds' pools
// are among the largest by TVL).
const counts = (from) => {
  const out = { pools: 0, 'feed chart': 0, coins: 0, 'backfill chart': 0, other: 0 };
  const fed = new Set();
  for (const url of llama.requests.slice(from)) {
    const pool = url.slice('/chart/'.length);
    if (url === '/pools') out.pools++;
    else if (/^\\/chart\\/[a-z][a-z0-9_-]*:/.test(url)) out.coins++;
    else if (feedPools.has(pool) && !fed.has(pool)) {
      fed.add(pool);
      out['feed chart']++;
    } else if (url.startsWith('/chart/')) out['backfill chart']++;
    else out.other++;
  }
  return out;
};

const cluster = await startCluster();
const procs = [];
let databases = 0;
async function cleanup() {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : null)));
  await llama.close();
  await cluster.destroy();
  for (const d of temps) await rm(d, { recursive: true, force: true });
}

/** Starts an API process; resolves once it listens, with its port and its log lines. */
async function startApi(databaseUrl, dir, importing) {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'server.ts')], {
    env: {
      ...process.env,
      API_PORT: String(port), DATA_DIR: dir, DATABASE_URL: databaseUrl,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      ALERTS_SECRET: 'bench-alerts-bench-alerts-bench-alerts-000',
      DEFILLAMA_API_URL: llama.url, COINS_API_URL: llama.url,
      DATA_IMPORT_INTERVAL: importing ? '1h' : '', POOL_BACKFILL_TOP: String(TOP),
      RATE_LIMIT_MAX: '100000000', SMTP_URL: '', LOG_LEVEL: 'info', NODE_ENV: 'production',
      RPC_URL_ETHEREUM: '', RPC_URL_BASE: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  procs.push(proc);
  const lines = [];
  let buffered = '';
  proc.stdout.on('data', (chunk) => {
    buffered += String(chunk);
    const all = buffered.split('\\n');
    buffered = all.pop();
    lines.push(...all);
  });
  for (let i = 0; i < 1200 && !lines.some((l) => l.includes('api listening')); i++) await sleep(50);
  if (!lines.some((l) => l.includes('api listening'))) throw new Error('the API did not start');
  return { port, lines };
}

/** The round is over on a process once it imported and published, or skipped the round. */
const roundDone = (api) =>
  api.lines.some((l) => /"message":"(import published|scheduled import skipped[^"]*)"/.test(l));

async function importRound(machines) {
  const databaseUrl = await cluster.createDatabase(\`fleet_\${machines}_\${databases++}\`);
  const from = llama.requests.length;
  const apis = [];
  for (let i = 0; i < machines; i++) apis.push(startApi(databaseUrl, await sampleDir(), true));
  const fleet = await Promise.all(apis);
  for (let i = 0; i < 2400 && !fleet.every(roundDone); i++) await sleep(50);
  // The backfill follows the import: wait until DeFiLlama has heard nothing for 5 s.
  let seen = -1;
  while (seen !== llama.requests.length) {
    seen = llama.requests.length;
    await sleep(5000);
  }
  const c = counts(from);
  const total = Object.values(c).reduce((a, b) => a + b, 0);
  console.log(
    \`\${machines} machine(s): /pools \${c.pools}, feed /chart \${c['feed chart']}, coins \${c.coins}, \` +
      \`backfill /chart \${c['backfill chart']}, RPC 0, total \${total}\` +
      (fleet.every(roundDone) ? '' : ' (a process did not finish its round)'),
  );
  return { databaseUrl, fleet };
}

async function settingsTitle(port) {
  const res = await fetch(\`http://127.0.0.1:\${port}/api/settings\`);
  return (await res.json()).siteTitle;
}

async function publishLatency(databaseUrl, fleet) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-fleet-edit-'));
  temps.push(dir);
  const env = { DATABASE_URL: databaseUrl };
  const pulled = await runDataPublished(['pull', '--dir', dir], env);
  if (pulled.exitCode !== 0) throw new Error(pulled.output);
  const served = [];
  const command = [];
  for (let run = 1; run <= RUNS; run++) {
    const file = path.join(dir, 'settings.json');
    const settings = JSON.parse(await readFile(file, 'utf8'));
    const title = \`Pigi, publish \${run}\`;
    await writeFile(file, JSON.stringify({ ...settings, siteTitle: title }, null, 2) + '\\n');
    const t0 = performance.now();
    const published = await runDataPublished(['publish', '--dir', dir], env);
    const t1 = performance.now();
    if (published.exitCode !== 0) throw new Error(published.output);
    const times = await Promise.all(
      fleet.map(async ({ port }) => {
        while ((await settingsTitle(port)) !== title) await sleep(20);
        return performance.now() - t0;
      }),
    );
    served.push(Math.max(...times));
    command.push(t1 - t0);
    console.log(\`  publish \${run}: the command \${(t1 - t0).toFixed(0)} ms, every process serving it after \${Math.max(...times).toFixed(0)} ms (each: \${times.map((t) => t.toFixed(0)).join(', ')})\`);
    // Runs start at different moments of the processes' 2-second polls.
    await sleep(300 + Math.random() * 2000);
  }
  const fmt = (v) => \`median \${median(v).toFixed(0)} ms, max \${Math.max(...v).toFixed(0)} ms\`;
  console.log(\`data:publish of settings.json to all \${fleet.length} processes serving it (\${RUNS} runs): \${fmt(served)}\`);
  console.log(\`the data:publish command alone: \${fmt(command)}\`);
}

try {
  console.log(\`Upstream requests of one scheduled import round (POOL_BACKFILL_TOP=\${TOP}):\`);
  await importRound(1);
  const three = await importRound(3);
  console.log('Publish to serve, 3 processes:');
  await publishLatency(three.databaseUrl, three.fleet);
} finally {
  await cleanup();
}
`;

const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--input-type=module', '-e', childScript],
  {
    cwd: apiDir,
    stdio: 'inherit',
  },
);
child.on('exit', (code) => process.exit(code ?? 1));
