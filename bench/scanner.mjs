/**
 * Scanner latency: p95 of GET /api/scanner for a mix of filtered queries on a 20,000-pool
 * snapshot (the real Koa app, createApp + createDeps, as the site server runs it), against a
 * naive server that answers the same queries with a JSON.parse of the same snapshot, a filter and
 * a sort per query (api/test/naive-scan.ts, the tests' reference), in the same run, on the same
 * machine. Target: the API's p95 at least 10× below the naive p95.
 *
 *   node bench/scanner.mjs               # or: pnpm --filter @yield/bench bench:scanner
 *   BENCH_POOLS=20000 BENCH_API_PASSES=10 BENCH_NAIVE_PASSES=1 node bench/scanner.mjs
 *
 * Requests are sent one at a time (latency, not throughput) over keep-alive connections, so
 * neither server queues. Both servers run in one child process on a temp copy of api/data, which
 * also records each request's time inside the server (arrival to the end of the response): on a
 * loaded machine the round trip is mostly the scheduler, the server time the work itself.
 * Before timing, every query's answer is checked to be the same on both (total and pool order).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
const POOLS = Number(process.env.BENCH_POOLS ?? 20_000);
const API_PASSES = Number(process.env.BENCH_API_PASSES ?? 10);
const NAIVE_PASSES = Number(process.env.BENCH_NAIVE_PASSES ?? 1);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 18_795);
const NAIVE_PORT = Number(process.env.BENCH_NAIVE_PORT ?? 18_796);
const CONTROL_PORT = Number(process.env.BENCH_CONTROL_PORT ?? 18_797);

const childScript = `
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createApp, createDeps, silentLogger } from './src/index.ts';
import { generatePoolsResponse } from './scripts/generate-pools.ts';
import { importPoolsSnapshot } from './src/modules/import/import-pools.ts';
import { projectSafetyTable } from './src/modules/scanner/project-safety.ts';
import { signPremiumToken } from './src/modules/premium/tokens.ts';
import { createInvite } from './src/modules/premium/invite-codes.ts';
import { naiveScan } from './test/naive-scan.ts';

const dataDir = process.env.DATA_DIR;
await importPoolsSnapshot(generatePoolsResponse({ count: ${POOLS} }), { dataDir });
const deps = await createDeps({ logger: silentLogger });
// A real premium member: the API honours a token only while its user exists.
const { invite } = await createInvite(deps.userData, { maxUses: 1, note: 'bench' });
const joined = new Date().toISOString();
await deps.userData.redeemInvite({
  inviteId: invite.id,
  user: { userId: 'bench', inviteId: invite.id, email: null, createdAt: joined, lastLoginAt: joined },
  now: new Date(),
});

// Server-side time of each request, from its arrival to the end of the response.
const timings = { api: [], naive: [] };
const timedServer = (name, handler) =>
  http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => timings[name].push(Number(process.hrtime.bigint() - started) / 1e6));
    handler(req, res);
  });
await new Promise((r) => timedServer('api', createApp(deps).callback()).listen(${API_PORT}, r));

// The naive server: the snapshot's text is in memory, everything else happens per query.
const text = await readFile(path.join(dataDir, 'pools.json'), 'utf8');
const tiers = JSON.parse(await readFile(path.join(dataDir, 'project-tiers.json'), 'utf8'));
const sources = JSON.parse(await readFile(path.join(dataDir, 'sources.json'), 'utf8'));
const flag = (v) => (v === null ? undefined : v === 'true');
const num = (v, d) => (v === null ? d : Number(v));
timedServer('naive', (req, res) => {
  const q = new URL(req.url, 'http://x').searchParams;
  const snapshot = JSON.parse(text);
  const safety = projectSafetyTable(tiers, sources, snapshot.asOf.slice(0, 10));
  const { total, rows } = naiveScan(snapshot.data, (p) => safety.of(p).safety, {
    asset: q.get('asset') ?? undefined,
    chain: q.get('chain') ?? undefined,
    project: q.get('project') ?? undefined,
    stablecoin: flag(q.get('stablecoin')),
    minTvl: q.get('minTvl') === null ? undefined : Number(q.get('minTvl')),
    includeOutliers: flag(q.get('includeOutliers')),
    sort: q.get('sort') ?? undefined,
    offset: num(q.get('offset'), 0),
    limit: num(q.get('limit'), 50),
  });
  const items = rows.map((r) => ({ ...r.pool, apy: r.apy, riskAdjustedApr: r.riskAdjustedApr }));
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ total, items }));
}).listen(${NAIVE_PORT});
// Control port: hands over the recorded timings and clears them.
http.createServer((req, res) => {
  res.end(JSON.stringify(timings));
  timings.api = [];
  timings.naive = [];
}).listen(${CONTROL_PORT}, () => {
  const token = signPremiumToken({ userId: 'bench', email: null, accessLevel: 'premium' }, deps.jwtSecret);
  console.log('ready ' + token);
});
`;

/** A fixed mix of filtered queries a saver would send (the page's filters, sorts and pages). */
function queryMix() {
  const assets = ['USDC', 'USDT', 'WETH', 'DAI', 'WBTC', 'USDE', null];
  const chains = ['Ethereum', 'Arbitrum', 'Base', 'Solana', null];
  const sorts = ['riskAdjusted', 'apy', 'tvl'];
  const list = [];
  let k = 0;
  for (const asset of assets) {
    for (const chain of chains) {
      const q = new URLSearchParams();
      if (asset) q.set('asset', asset);
      if (chain) q.set('chain', chain);
      if (k % 3 === 0) q.set('minTvl', String([1e5, 1e6, 1e7][k % 9 === 0 ? 0 : 1]));
      if (k % 4 === 1) q.set('stablecoin', k % 8 === 1 ? 'true' : 'false');
      if (k % 11 === 5) q.set('project', ['aave-v3', 'uniswap-v3', 'morpho-blue'][k % 3]);
      if (k % 7 === 3) q.set('includeOutliers', 'true');
      q.set('sort', sorts[k % 3]);
      if (k % 5 === 4) q.set('offset', '50');
      k++;
      list.push(`/api/scanner?${q}`);
    }
  }
  return list;
}

async function timed(port, pathAndQuery, token) {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = await res.json();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${pathAndQuery} on ${port}: ${res.status}`);
  return { ms, body };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const summary = (values) =>
  `n=${values.length} p50 ${percentile(values, 50).toFixed(2)} ms, p95 ${percentile(values, 95).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms, max ${Math.max(...values).toFixed(2)} ms`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-scanner-data-'));
await cp(path.join(apiDir, 'data'), dataDir, {
  recursive: true,
  filter: (src) => !path.basename(src).startsWith('.') || src === path.join(apiDir, 'data'),
});
let child;
try {
  child = await startChild(
    ['--import', 'tsx', '--input-type=module', '-e', childScript],
    { DATA_DIR: dataDir, NODE_ENV: 'production', DATA_POLL_MS: '0' },
    apiDir,
    180_000,
  );
  const token = child.readyLine;
  const queries = queryMix();

  // Same answers first (and a warm-up for both): total and the order of pools.
  for (const q of queries) {
    const [api, naive] = [await timed(API_PORT, q, token), await timed(NAIVE_PORT, q)];
    const ids = (b) => b.items.map((i) => i.pool).join();
    if (api.body.total !== naive.body.total || ids(api.body) !== ids(naive.body)) {
      throw new Error(`answers differ for ${q}`);
    }
  }

  const control = async () => (await fetch(`http://127.0.0.1:${CONTROL_PORT}/`)).json();
  await control(); // drops the warm-up's timings

  // Alternating passes, so both servers see the same swings of the machine's load.
  const apiMs = [];
  const naiveMs = [];
  for (let pass = 0; pass < Math.max(API_PASSES, NAIVE_PASSES); pass++) {
    if (pass < API_PASSES)
      for (const q of queries) apiMs.push((await timed(API_PORT, q, token)).ms);
    if (pass < NAIVE_PASSES) for (const q of queries) naiveMs.push((await timed(NAIVE_PORT, q)).ms);
  }
  const inServer = await control();

  const ratio = percentile(naiveMs, 95) / percentile(apiMs, 95);
  const serverRatio = percentile(inServer.naive, 95) / percentile(inServer.api, 95);
  console.log(
    `${POOLS} pools, ${queries.length} filtered queries (asset, chain, project, stablecoin, minTvl, outliers; three sorts; pages of 50), premium token, sequential requests; node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('round trip (client: request sent → answer parsed)');
  console.log(`  API   GET /api/scanner:                      ${summary(apiMs)}`);
  console.log(`  naive JSON.parse + filter + sort per query: ${summary(naiveMs)}`);
  console.log('in the server (request arrived → response finished)');
  console.log(`  API   GET /api/scanner:                      ${summary(inServer.api)}`);
  console.log(`  naive JSON.parse + filter + sort per query: ${summary(inServer.naive)}`);
  const pass = ratio >= 10;
  console.log(
    `p95 naive / API: round trip ${ratio.toFixed(1)}× (target ≥ 10×): ${pass ? 'PASS' : 'FAIL'}; in the server ${serverRatio.toFixed(1)}×; answers identical on all ${queries.length} queries`,
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  child?.kill();
  await rm(dataDir, { recursive: true, force: true });
}
