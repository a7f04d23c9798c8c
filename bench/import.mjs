/**
 * Import benchmark: 19 series x 1 year of DeFiLlama chart responses (several snapshots a day at
 * irregular times) imported into a temp copy of api/data by the real importer (runImport, as
 * `data:import` runs it). Two ways:
 *   - from a local HTTP server replaying the responses (node:http on 127.0.0.1, in this process),
 *   - from saved responses on disk (`--from DIR`).
 * The importer runs in a child process whose CPU time (process.cpuUsage: parsing, validating,
 * merging, writing history.json) is measured around the import alone; the replay server's work is
 * not in it. Target: under 2 s of CPU for the import besides the network.
 *
 *   node bench/import.mjs            # or: pnpm --filter @yield/bench bench:import
 *   BENCH_SNAPSHOTS=6 BENCH_DAYS=365 BENCH_ROUNDS=3 node bench/import.mjs
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LAST_DAY = '2026-11-23';
const NOW = '2026-11-23T18:00:00Z';

/** Every series of sources.json gets a feed (the seven without a public pool id a made-up one). */
async function prepareDataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yield-bench-import-'));
  await cp(path.join(apiDir, 'data'), dir, {
    recursive: true,
    filter: (src) => !path.basename(src).startsWith('.') || src === path.join(apiDir, 'data'),
  });
  const sources = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8'));
  let n = 0;
  const feed = (holder) => {
    if (!holder.feeds) {
      n++;
      holder.feeds = [
        { provider: 'defillama', pool: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` },
      ];
      delete holder.feedNote;
    }
  };
  sources.sources.forEach(feed);
  for (const b of sources.baseRates) {
    if (b.components.kind === 'stablecoin')
      b.components.coins.forEach((c) => c.venues.forEach(feed));
    else b.components.assets.filter((a) => 'series' in a).forEach(feed);
  }
  await writeFile(path.join(dir, 'sources.json'), JSON.stringify(sources, null, 2));
  const pools = new Set();
  for (const s of sources.sources) pools.add(s.feeds[0].pool);
  for (const b of sources.baseRates) {
    const holders =
      b.components.kind === 'stablecoin'
        ? b.components.coins.flatMap((c) => c.venues)
        : b.components.assets.filter((a) => 'series' in a);
    for (const h of holders) pools.add(h.feeds[0].pool);
  }
  return { dir, pools: [...pools] };
}

/** A year of snapshots in the published shape, SNAPSHOTS a day at moving times. */
function chartResponse(seed) {
  const end = Date.parse(`${LAST_DAY}T00:00:00Z`);
  const data = [];
  for (let d = DAYS - 1; d >= 0; d--) {
    for (let k = 0; k < SNAPSHOTS; k++) {
      const slot = Math.floor(1440 / SNAPSHOTS);
      const minute = k * slot + ((d * 37 + seed * 11 + k * 7) % (slot - 1));
      const apy = 3 + seed * 0.2 + Math.sin(d / 9 + k) * 0.3;
      data.push({
        timestamp: new Date(
          end - d * 86_400_000 + minute * 60_000 + ((k * 1234) % 60_000),
        ).toISOString(),
        tvlUsd: Math.round(1e8 * (1 + seed) + d * 12345),
        apy: Number(apy.toFixed(5)),
        apyBase: Number((apy - 0.1).toFixed(5)),
        apyReward: d % 3 === 0 ? null : 0.1,
        il7d: null,
        apyBase7d: null,
      });
    }
  }
  return JSON.stringify({ status: 'success', data });
}

const child = (options) => `
import { openStore } from './src/composition/data-files.ts';
import { silentLogger } from './src/platform/logger.ts';
import { runImport } from './src/modules/import/run-import.ts';
const store = openStore(${JSON.stringify(options.dir)}, silentLogger);
await store.loadAll();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const result = await runImport({
  store,
  now: () => new Date(${JSON.stringify(NOW)}),
  days: 450,
  ${options.apiUrl ? `apiUrl: ${JSON.stringify(options.apiUrl)}, coinsApiUrl: ${JSON.stringify(options.apiUrl)},` : `fromDir: ${JSON.stringify(options.fromDir)},`}
});
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({
  ok: result.ok,
  failures: result.feeds.filter((f) => !f.ok).map((f) => f.series + ': ' + f.reason),
  feeds: result.feeds.length,
  rows: result.feeds.reduce((s, f) => s + f.days, 0),
  wallMs,
  cpuMs: (cpu.user + cpu.system) / 1000,
}));
`;

function runChild(options) {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', child(options)],
      { cwd: apiDir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    p.stdout.on('data', (c) => (out += c));
    p.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)))
        : reject(new Error(`exit ${code}`)),
    );
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const probe = await prepareDataDir();
  const responses = new Map(probe.pools.map((pool, i) => [pool, chartResponse(i)]));
  await rm(probe.dir, { recursive: true, force: true });
  const bytes = [...responses.values()].reduce((s, r) => s + r.length, 0);
  console.log(
    `${responses.size} series x ${DAYS} days x ${SNAPSHOTS} snapshots/day = ${(responses.size * DAYS * SNAPSHOTS).toLocaleString('en')} snapshots, ${(bytes / 1e6).toFixed(1)} MB of JSON`,
  );

  const server = http.createServer((req, res) => {
    const body = responses.get((req.url ?? '').replace('/chart/', ''));
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(body ?? '"not found"');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const apiUrl = `http://127.0.0.1:${server.address().port}`;

  const saved = await mkdtemp(path.join(os.tmpdir(), 'yield-bench-saved-'));
  await mkdir(path.join(saved, 'chart'));
  for (const [pool, body] of responses)
    await writeFile(path.join(saved, 'chart', `${pool}.json`), body);

  const results = { http: [], files: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of ['http', 'files']) {
      // A fresh copy each time: every run is a first import (19 series replaced, 450 days kept).
      const { dir } = await prepareDataDir();
      const r = await runChild(mode === 'http' ? { dir, apiUrl } : { dir, fromDir: saved });
      await rm(dir, { recursive: true, force: true });
      if (!r.ok || r.feeds !== responses.size)
        throw new Error(`import failed: ${JSON.stringify(r)}`);
      results[mode].push(r);
      console.log(
        `round ${round} ${mode.padEnd(5)} feeds ${r.feeds}, rows ${r.rows}, wall ${r.wallMs.toFixed(0)} ms, CPU ${r.cpuMs.toFixed(0)} ms`,
      );
    }
  }
  server.close();
  await rm(saved, { recursive: true, force: true });

  for (const mode of ['http', 'files']) {
    const cpu = median(results[mode].map((r) => r.cpuMs));
    const wall = median(results[mode].map((r) => r.wallMs));
    console.log(`median ${mode.padEnd(5)} CPU ${cpu.toFixed(0)} ms, wall ${wall.toFixed(0)} ms`);
  }
  const worst = Math.max(...[...results.http, ...results.files].map((r) => r.cpuMs));
  console.log(
    `target: import CPU < 2000 ms -> ${worst < 2000 ? 'met' : 'NOT met'} (worst run ${worst.toFixed(0)} ms)`,
  );
}

await main();
