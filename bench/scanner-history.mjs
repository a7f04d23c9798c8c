/**
 * The scanner with every pool's own history: 20,000 pools, each with a generated daily history
 * (BENCH_HISTORY_DAYS, default 365) in the pool history store (DATA_DIR/pool-history, one
 * append-only file per pool), then, in one run on one machine:
 *
 * - the store's size on disk;
 * - the daily /pools import for 20,000 pools (importPoolsSnapshot: pools.json + one row appended
 *   per pool), and the append alone;
 * - reading one pool's whole history (p50/p95 over 200 pools) and the trailing 30 days of every
 *   pool (what the scanner reads after each import);
 * - GET /api/scanner p95 over a mix of typical queries, the index built with every pool's
 *   history, against a naive JSON.parse + filter + sort of the snapshot per query
 *   (api/test/naive-scan.ts) on the same queries.
 *
 *   node bench/scanner-history.mjs          # or: pnpm --filter @yield/bench bench:scanner-history
 *   BENCH_POOLS=20000 BENCH_HISTORY_DAYS=365 BENCH_PASSES=5 node bench/scanner-history.mjs
 *   BENCH_STORE=pg node bench/scanner-history.mjs
 *
 * BENCH_STORE=pg measures the PostgreSQL store instead (the table pool_history, used with
 * DATABASE_URL; api/src/modules/import/pg-pool-history.ts) on a throwaway cluster with its crash
 * safety on (api/test/pg-cluster.ts, Debian's postgresql binaries): the table's size, the daily
 * upsert of every pool's row, one pool's whole history (p50/p95), and the trailing 30 days of
 * 5,000 pools and of every pool (the one query the scanner makes after each import), each read
 * also by the file store on the same histories for comparison.
 *
 * Prints numbers only (no pass/fail): they are recorded in docs/performance.md.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
const POOLS = Number(process.env.BENCH_POOLS ?? 20_000);
const DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 365);
const PASSES = Number(process.env.BENCH_PASSES ?? 5);
const STORE = process.env.BENCH_STORE ?? 'files';

const childScript = `
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { createApp, createDeps, silentLogger } from './src/index.ts';
import { generatePoolsResponse } from './scripts/generate-pools.ts';
import { importPoolsSnapshot } from './src/modules/import/import-pools.ts';
import { projectSafetyTable } from './src/modules/scanner/project-safety.ts';
import { formatHistory, PoolHistoryStore } from './src/modules/import/pool-history.ts';
import { naiveScan } from './test/naive-scan.ts';

const dataDir = process.env.DATA_DIR;
const POOLS = ${POOLS};
const DAYS = ${DAYS};
const PASSES = ${PASSES};
const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const summary = (v) =>
  'n=' + v.length + ' p50 ' + pct(v, 50).toFixed(2) + ' ms, p95 ' + pct(v, 95).toFixed(2) + ' ms, max ' + Math.max(...v).toFixed(2) + ' ms';
const timeIt = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
};

const raw = generatePoolsResponse({ count: POOLS, seed: 11 });
const lastDay = new Date(Date.UTC(2026, 10, 25));
// The histories (set-up, not timed): DAYS days per pool ending the day before the import.
const store = new PoolHistoryStore(dataDir);
const limit = pLimit(32);
await Promise.all(
  raw.data.map((p, i) =>
    limit(async () => {
      const rows = [];
      let apy = p.apy;
      for (let k = DAYS; k >= 1; k--) {
        apy = Math.max(0, apy * (1 + (((i * 31 + k * 17) % 101) / 101 - 0.5) * 0.06));
        rows.push({
          date: new Date(lastDay.getTime() - k * 86400000).toISOString().slice(0, 10),
          apy: Math.round(apy * 1e5) / 1e5,
          apyBase: p.apyBase ?? null,
          apyReward: p.apyReward ?? null,
          tvlUsd: Math.round(p.tvlUsd * (1 + ((k % 13) - 6) / 100)),
        });
      }
      const file = store.fileOf(p.pool);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, formatHistory(rows));
    }),
  ),
);
const du = () => execFileSync('du', ['-sk', '--apparent-size', store.dir]).toString().split('\\t')[0] * 1024;
const duBlocks = () => execFileSync('du', ['-sk', store.dir]).toString().split('\\t')[0] * 1024;
const mb = (b) => (b / 1024 / 1024).toFixed(1) + ' MB';
console.log('store before the import: ' + mb(du()) + ' of data, ' + mb(duBlocks()) + ' on disk (blocks), ' + POOLS + ' files');

// The daily import: pools.json written and each pool's row appended.
const [importMs] = await timeIt(() =>
  importPoolsSnapshot(raw, { dataDir, fetchedAt: lastDay, logger: silentLogger }),
);
const [appendMs] = await timeIt(() =>
  store.appendSnapshot(new Date(lastDay.getTime() + 3600000).toISOString(), raw.data),
);
console.log('daily /pools import of ' + POOLS + ' pools (pools.json + one row per pool): ' + importMs.toFixed(0) + ' ms; the appends alone: ' + appendMs.toFixed(0) + ' ms');
console.log('store after the import: ' + mb(du()) + ' of data, ' + mb(duBlocks()) + ' on disk (blocks)');

// Reads.
const one = [];
for (let k = 0; k < 200; k++) {
  const pool = raw.data[(k * 97) % POOLS].pool;
  const [ms, rows] = await timeIt(() => store.read(pool));
  if (rows.length !== DAYS + 1) throw new Error('expected ' + (DAYS + 1) + ' days, got ' + rows.length);
  one.push(ms);
}
console.log('one pool\\'s whole history (' + (DAYS + 1) + ' days): ' + summary(one));
const [allMs, all] = await timeIt(() => store.trailingOfAll(raw.data.map((p) => p.pool), 30));
console.log('trailing 30 days of all ' + all.size + ' pools: ' + allMs.toFixed(0) + ' ms');

// The API, its index built with every pool's trailing history.
const deps = await createDeps({ logger: silentLogger, watchIntervalMs: 0, importIntervalMs: null, poolBackfill: { top: 0 } });
const [settleMs] = await timeIt(() => deps.scanner.settled());
console.log('scanner index with histories ready ' + settleMs.toFixed(0) + ' ms after start');
const server = http.createServer(createApp(deps).callback());
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = 'http://127.0.0.1:' + server.address().port;

const text = await readFile(path.join(dataDir, 'pools.json'), 'utf8');
const tiers = JSON.parse(await readFile(path.join(dataDir, 'project-tiers.json'), 'utf8'));
const sources = JSON.parse(await readFile(path.join(dataDir, 'sources.json'), 'utf8'));
const naive = (q) => {
  const snapshot = JSON.parse(text);
  const safety = projectSafetyTable(tiers, sources, snapshot.asOf.slice(0, 10));
  return naiveScan(snapshot.data, (p) => safety.of(p).safety, q);
};

const queries = [];
const assets = ['USDC', 'USDT', 'WETH', 'DAI', null];
const chains = ['Ethereum', 'Arbitrum', 'Base', null];
const sorts = ['riskAdjusted', 'apy', 'tvl'];
let k = 0;
for (const asset of assets)
  for (const chain of chains) {
    const q = { sort: sorts[k % 3], limit: 10 };
    if (asset) q.asset = asset;
    if (chain) q.chain = chain;
    if (k % 3 === 0) q.minTvl = 1e6;
    if (k % 4 === 1) q.stablecoin = true;
    queries.push(q);
    k++;
  }
const url = (q) => base + '/api/scanner?' + new URLSearchParams(Object.entries(q).map(([a, b]) => [a, String(b)]));
for (const q of queries) await (await fetch(url(q))).json(); // warm-up
const apiMs = [];
const naiveMs = [];
for (let pass = 0; pass < PASSES; pass++) {
  for (const q of queries) {
    const [ms] = await timeIt(async () => (await fetch(url(q))).json());
    apiMs.push(ms);
  }
  if (pass === 0) for (const q of queries) naiveMs.push((await timeIt(() => naive(q)))[0]);
}
console.log('GET /api/scanner (round trip, ' + queries.length + ' typical queries):  ' + summary(apiMs));
console.log('naive JSON.parse + filter + sort per query (in process): ' + summary(naiveMs));
console.log('p95 naive / API: ' + (pct(naiveMs, 95) / pct(apiMs, 95)).toFixed(1) + 'x');
server.close();
await deps.close();
`;

const pgScript = `
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { silentLogger } from './src/index.ts';
import { generatePoolsResponse } from './scripts/generate-pools.ts';
import { formatHistory, PoolHistoryStore } from './src/modules/import/pool-history.ts';
import { PgPoolHistoryStore } from './src/modules/import/pg-pool-history.ts';
import { PgConnection } from './src/platform/pg/connection.ts';
import { startCluster } from './test/pg-cluster.ts';

const POOLS = ${POOLS};
const DAYS = ${DAYS};
const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const timeIt = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
};
const cluster = await startCluster({ durable: true });
const db = new PgConnection({ connectionString: await cluster.createDatabase('bench'), logger: silentLogger });
try {
  const table = new PgPoolHistoryStore(db);
  const files = new PoolHistoryStore(process.env.DATA_DIR);
  const raw = generatePoolsResponse({ count: POOLS, seed: 11 });
  const lastDay = new Date(Date.UTC(2026, 10, 25));
  // The same histories in both stores (set-up, not timed).
  const limit = pLimit(32);
  const batch = [];
  const flush = async () => { await table.addMissing(batch.splice(0)); };
  for (const [i, p] of raw.data.entries()) {
    const rows = [];
    let apy = p.apy;
    for (let k = DAYS; k >= 1; k--) {
      apy = Math.max(0, apy * (1 + (((i * 31 + k * 17) % 101) / 101 - 0.5) * 0.06));
      rows.push({
        date: new Date(lastDay.getTime() - k * 86400000).toISOString().slice(0, 10),
        apy: Math.round(apy * 1e5) / 1e5,
        apyBase: p.apyBase ?? null,
        apyReward: p.apyReward ?? null,
        tvlUsd: Math.round(p.tvlUsd * (1 + ((k % 13) - 6) / 100)),
      });
    }
    for (const day of rows) batch.push({ pool: p.pool, day });
    if (batch.length >= 100000) await flush();
    await limit(async () => {
      const file = files.fileOf(p.pool);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, formatHistory(rows));
    });
  }
  await flush();
  await db.query('VACUUM ANALYZE pool_history');
  const size = (await db.query("SELECT pg_total_relation_size('pool_history') AS b")).rows[0].b;
  console.log('table pool_history: ' + (Number(size) / 1024 / 1024).toFixed(0) + ' MB (table + primary key), ' + POOLS * DAYS + ' rows');

  const [upsertMs] = await timeIt(() => table.appendSnapshot(lastDay.toISOString(), raw.data));
  console.log('daily upsert of ' + POOLS + ' rows (one transaction, unnest + ON CONFLICT): ' + upsertMs.toFixed(0) + ' ms');

  const one = [];
  for (let k = 0; k < 200; k++) {
    const [ms, rows] = await timeIt(() => table.read(raw.data[(k * 97) % POOLS].pool));
    if (rows.length !== DAYS + 1) throw new Error('expected ' + (DAYS + 1) + ' days, got ' + rows.length);
    one.push(ms);
  }
  console.log("one pool's whole history (" + (DAYS + 1) + ' days): p50 ' + pct(one, 50).toFixed(2) + ' ms, p95 ' + pct(one, 95).toFixed(2) + ' ms');

  for (const n of [...new Set([Math.min(5000, POOLS), POOLS])]) {
    const ids = raw.data.slice(0, n).map((p) => p.pool);
    for (const [name, store] of [['PostgreSQL', table], ['files', files]]) {
      const runs = [];
      for (let pass = 0; pass < 3; pass++) {
        const [ms, read] = await timeIt(() => store.trailingOfAll(ids, 30, '2026-11-24'));
        if (read.size !== n) throw new Error(name + ': ' + read.size + ' pools read of ' + n);
        runs.push(ms);
      }
      console.log('trailing 30 days of ' + n + ' pools, ' + name + ': ' + runs.map((ms) => ms.toFixed(0)).join(' / ') + ' ms (3 runs)');
    }
  }
} finally {
  await db.close();
  await cluster.destroy();
}
`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-scanner-history-'));
await cp(path.join(apiDir, 'data'), dataDir, {
  recursive: true,
  filter: (src) => !path.basename(src).startsWith('.') || src === path.join(apiDir, 'data'),
});
console.log(
  `${POOLS} pools × ${DAYS} days, ${STORE === 'pg' ? 'PostgreSQL and files' : 'files'}; node ${process.version}, ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
try {
  const code = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', STORE === 'pg' ? pgScript : childScript],
      {
        cwd: apiDir,
        env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', DATA_POLL_MS: '0' },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const timer = setTimeout(() => child.kill(), 15 * 60_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  process.exitCode = code ?? 1;
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
