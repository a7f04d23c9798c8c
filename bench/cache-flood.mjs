/**
 * Page-cache flood: does a stream of unique page URLs (`/?utm=<n>`, `/compare?ids=3,2,13&x=<n>`)
 * slow the API down? Starts the production site (packages/site-server, as `pnpm start` runs it)
 * on its own port with a temp copy of api/data, measures `GET /api/strategies` latency idle, then
 * while autocannon sends unique URLs at a fixed rate, in the same run. Prints a table for
 * docs/performance.md. Goal: under the 34 unique-URL requests/s, p95 within 3x of idle. A last
 * phase asks for never-seen strategy pages (`/options/<n>`), which no cache key can share.
 *
 *   pnpm build && node bench/cache-flood.mjs      # builds nothing itself
 *   BENCH_PHASE_SECONDS=10 BENCH_ROUNDS=3 BENCH_SITE_PORT=18802 node bench/cache-flood.mjs
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.resolve(here, '..');
const siteDir = path.join(rootDir, 'packages', 'site-server');
const PORT = Number(process.env.BENCH_SITE_PORT ?? 18_801);
// Phases alternate, round after round: on a shared machine the load of other processes swings
// within seconds, and alternating exposes every phase to the same swings.
const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The API probe: one request every 50 ms (20/s) on one kept-alive connection. */
const PROBE_INTERVAL_MS = 50;
const PROBE_PATH = '/api/strategies';

const PHASES = [
  { name: 'idle', flood: null },
  { name: '/?utm=<n>, 34 req/s, 6 connections', flood: { path: '/?utm=[<id>]', rate: 34 } },
  {
    name: '/compare?ids=3,2,13&x=<n>, 12 req/s, 6 connections',
    flood: { path: '/compare?ids=3,2,13&x=[<id>]', rate: 12 },
  },
  // Never-seen path parameters cannot share a cache entry: the render cap and budget bound them.
  { name: '/options/<n>, 34 req/s, 6 connections', flood: { path: '/options/[<id>]', rate: 34 } },
];

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** One GET on the probe's connection; resolves with its status and milliseconds. */
const timedGet = (requestPath) =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get({ host: '127.0.0.1', port: PORT, path: requestPath, agent }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      })
      .on('error', reject);
  });

/**
 * Probes the API every PROBE_INTERVAL_MS for `seconds`; the latencies, sorted. Runs in a worker
 * thread (this file, below), so that the flood's client work never delays the probe's timing.
 */
async function probe(seconds) {
  const latencies = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const next = Date.now() + PROBE_INTERVAL_MS;
    const { status, ms } = await timedGet(PROBE_PATH);
    if (status === 200) latencies.push(ms);
    else errors++;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { latencies: latencies.sort((a, b) => a - b), errors };
}

const percentile = (sorted, p) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
    : NaN;

/** Unique URLs at a fixed overall rate over 6 connections, as a browser would ask (br, gzip). */
function flood({ path: floodPath, rate }, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${PORT}${floodPath}`,
        connections: 6,
        overallRate: rate,
        duration: seconds,
        idReplacement: true,
        headers: { 'accept-encoding': 'br, gzip', accept: 'text/html' },
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** CPU seconds the site's process has used (Linux /proc), or NaN elsewhere. */
async function siteCpuSeconds(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function waitForSite(child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    try {
      if ((await timedGet('/api/health')).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the site did not start');
}

/** The probe, in its own thread: its timers and reads do not wait behind autocannon's. */
function probeInWorker(seconds) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { seconds } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (!isMainThread) {
  parentPort.postMessage(await probe(workerData.seconds));
  agent.destroy();
} else {
  await main();
}

async function main() {
  for (const built of ['shell/dist/index.html', 'shell/dist/server/render.cjs']) {
    await stat(path.join(rootDir, built)).catch(() => {
      throw new Error(`${built} is missing: run \`pnpm build\` first`);
    });
  }

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-cache-flood-'));
  await cp(path.join(rootDir, 'api', 'data'), dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: siteDir,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      NODE_ENV: 'production',
      RATE_LIMIT_MAX: '1000000',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForSite(child);
    // Warm-up: JIT, the renderers loaded, the pages of the flood cached once.
    for (let i = 0; i < 20; i++) await timedGet(PROBE_PATH);
    for (const warm of ['/', '/compare?ids=3,2,13']) await timedGet(warm);

    const rows = PHASES.map((phase) => ({
      phase,
      latencies: [],
      errors: 0,
      cpu: 0,
      flood: { total: 0, p50: [], p97_5: [], failed: 0 },
    }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const row of rows) {
        const cpuBefore = await siteCpuSeconds(child.pid);
        const [measured, load] = await Promise.all([
          probeInWorker(PHASE_SECONDS),
          row.phase.flood ? flood(row.phase.flood, PHASE_SECONDS) : Promise.resolve(null),
        ]);
        row.cpu += (await siteCpuSeconds(child.pid)) - cpuBefore;
        row.latencies.push(...measured.latencies);
        row.errors += measured.errors;
        if (load) {
          row.flood.total += load.requests.total;
          row.flood.p50.push(load.latency.p50);
          row.flood.p97_5.push(load.latency.p97_5);
          row.flood.failed += load.non2xx + load.errors + load.timeouts;
        }
      }
    }
    for (const row of rows) row.latencies.sort((a, b) => a - b);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

    const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : '-');
    const seconds = PHASE_SECONDS * ROUNDS;
    console.log(
      `GET ${PROBE_PATH} every ${PROBE_INTERVAL_MS} ms on one connection; ${ROUNDS} rounds of ${PHASE_SECONDS} s per phase, alternating; node ${process.version}, ${os.cpus().length} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      '| phase | API p50 ms | API p95 ms | API max ms | API requests | site CPU % | flood req/s | flood p50 ms | flood p97.5 ms | flood non-2xx + errors |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const { phase, latencies: l, errors, cpu, flood: load } of rows) {
      const flooded = phase.flood !== null;
      console.log(
        `| ${phase.name} | ${f(percentile(l, 50))} | ${f(percentile(l, 95))} | ${f(l.at(-1))} | ${l.length} (${errors} failed) | ${f((cpu / seconds) * 100)} | ${
          flooded ? f(load.total / seconds) : '-'
        } | ${flooded ? f(median(load.p50)) : '-'} | ${flooded ? f(median(load.p97_5)) : '-'} | ${
          flooded ? load.failed : '-'
        } |`,
      );
    }
    const idleP95 = percentile(rows[0].latencies, 95);
    const floodP95 = percentile(rows[1].latencies, 95);
    const pass = floodP95 <= 3 * idleP95;
    console.log(
      `API p95 under 34 unique URLs/s: ${f(floodP95)} ms, ${(floodP95 / idleP95).toFixed(1)}x idle (${f(idleP95)} ms); target ≤ 3x: ${pass ? 'PASS' : 'FAIL'}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', resolve),
    );
    await rm(dataDir, { recursive: true, force: true });
  }
}
