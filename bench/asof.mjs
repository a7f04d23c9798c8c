/**
 * Past days (`?asOf`) beside the hot GETs: does a client cycling through every past day slow the
 * API for everyone else? Starts the real API (createApp + createDeps, as the site server runs it,
 * logging to a file) on a temp copy of the shipped data, measures a reader of `GET /api/sources`
 * alone, then beside three clients cycling through every valid `asOf` day of `/api/strategies`
 * and `/api/baserate`, and prints the reader's p50 / p95 / max in both phases and the ratio of
 * the p95s. Target: with the clients, the reader's p95 within 3x of its p95 alone. It prints,
 * never asserts.
 *
 * Several builds in one run, one after the other, each phase on the same machine minutes apart:
 * this checkout, and each directory of BENCH_BUILDS (the root of another checkout with its
 * dependencies installed, e.g. a git worktree of the code before a change).
 *
 *   node bench/asof.mjs                                   # or: pnpm --filter @yield/bench bench:asof
 *   BENCH_BUILDS=/work/wt/asof-base node bench/asof.mjs    # this checkout, then that one
 *   BENCH_READER_SECONDS=15 BENCH_CYCLE_SECONDS=20 BENCH_ROUNDS=2 node bench/asof.mjs
 *
 * The reader asks every 20 ms (50/s) on one kept-alive connection, in a thread of its own. The
 * three clients ask without pause, each on its own connection, from three addresses
 * (X-Forwarded-For behind TRUST_PROXY=1, so that each has its own rate limit where there is
 * one); each starts at another day and walks every valid day, strategies then base rates. Their
 * thread runs at nice 19 (Linux): on a real deployment the clients' CPU is on their machines, not
 * the server's, so here they take only what the server and the reader leave them.
 */
import { readlinkSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startChild } from './child-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const thisRoot = path.resolve(here, '..');
const READER_SECONDS = Number(process.env.BENCH_READER_SECONDS ?? 15);
const CYCLE_SECONDS = Number(process.env.BENCH_CYCLE_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PORT = Number(process.env.BENCH_ASOF_PORT ?? 18_811);
const READER_INTERVAL_MS = 20;
const READER_PATH = '/api/sources';
const CLIENTS = ['198.51.100.1', '198.51.100.2', '198.51.100.3'];

/** One GET on `agent`'s connection; resolves with its status and milliseconds. */
function timedGet(agent, requestPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get({ host: '127.0.0.1', port: PORT, path: requestPath, agent, headers }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      })
      .on('error', reject);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reader: one request every READER_INTERVAL_MS for `seconds`; its latencies. */
async function reader(seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  let next = Date.now();
  while (Date.now() < end) {
    const { status, ms } = await timedGet(agent, READER_PATH);
    if (status === 200) latencies.push(ms);
    else errors++;
    next += READER_INTERVAL_MS;
    await sleep(Math.max(0, next - Date.now()));
  }
  agent.destroy();
  return { latencies, errors };
}

/**
 * Lowers this thread to nice 19 (Linux): the clients' own CPU would be on their machines, not
 * the server's, so here they take only what the server and the reader leave. Returns whether it
 * did.
 */
function lowerThisThread() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    os.setPriority(tid, os.constants.priority.PRIORITY_LOW);
    return true;
  } catch {
    return false;
  }
}

/** The three clients, each walking every valid day from its own start, for `seconds`. */
async function cyclers(seconds, days) {
  const lowered = lowerThisThread();
  const end = Date.now() + seconds * 1000;
  const statuses = {};
  const paths = [
    ...days.map((d) => `/api/strategies?asOf=${d}`),
    ...days.map((d) => `/api/baserate?asOf=${d}`),
  ];
  await Promise.all(
    CLIENTS.map(async (address, c) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const headers = { 'X-Forwarded-For': address };
      // Each starts a third of the days further on: three clients, three different misses.
      let i = Math.floor((c * days.length) / CLIENTS.length);
      while (Date.now() < end) {
        const { status } = await timedGet(agent, paths[i % paths.length], headers);
        statuses[status] = (statuses[status] ?? 0) + 1;
        i++;
      }
      agent.destroy();
    }),
  );
  return { statuses, lowered };
}

/** Runs `task` ('reader' or 'cyclers') in its own thread: its timers wait for nothing else. */
function inWorker(task, args) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { task, args } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/**
 * CPU seconds of the server process so far: all its threads, and its main thread alone (the event
 * loop; its thread id is the process id). Linux (/proc); null elsewhere.
 */
async function serverCpu(pid) {
  const ticks = async (file) => {
    // utime and stime, fields 14 and 15, after the command name in parentheses.
    const fields = (await readFile(file, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  };
  try {
    return {
      all: await ticks(`/proc/${pid}/stat`),
      main: await ticks(`/proc/${pid}/task/${pid}/stat`),
    };
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

function median(xs) {
  const v = [...xs].sort((x, y) => x - y);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
function summary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: pct(sorted, 0.5), p95: pct(sorted, 0.95), max: sorted.at(-1) };
}

/** Every valid asOf day: from the first day of any series of history.json to today (UTC). */
async function validDays(dataDir) {
  const history = JSON.parse(await readFile(path.join(dataDir, 'history.json'), 'utf8'));
  let first = null;
  for (const rows of Object.values(history.series))
    for (const r of rows) if (first === null || r.date < first) first = r.date;
  const days = [];
  const today = new Date().toISOString().slice(0, 10);
  for (let t = Date.parse(`${first}T00:00:00Z`); ; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (day > today) break;
    days.push(day);
  }
  return days;
}

const server = `
import http from 'node:http';
import { createApp, createDeps, createLogger } from './src/index.ts';
const deps = await createDeps({
  logger: createLogger({ level: 'info', destination: process.env.BENCH_LOG_FILE }),
});
const handler = createApp(deps).callback();
http.createServer(handler).listen(${PORT}, () => console.log('ready'));
`;

/** One build: the API started on a fresh copy of its shipped data, both phases, stopped. */
async function measure(root) {
  const apiDir = path.join(root, 'api');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-asof-data-'));
  await cp(path.join(apiDir, 'data'), dataDir, {
    recursive: true,
    filter: (src) =>
      src === path.join(apiDir, 'data') ||
      !/^(\.|user-data\.|outbox$|(mailing-list|users|invites|alerts)\.json$)/.test(
        path.basename(src),
      ),
  });
  const env = {
    DATA_DIR: dataDir,
    BENCH_LOG_FILE: path.join(dataDir, 'api.log'),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
    NODE_ENV: 'production',
    TRUST_PROXY: '1',
    DATABASE_URL: '',
    DATA_IMPORT_INTERVAL: '',
  };
  const child = await startChild(
    ['--import', 'tsx', '--input-type=module', '-e', server],
    env,
    apiDir,
    60_000,
  );
  try {
    const days = await validDays(dataDir);
    // Warm-up of the reader's path only (JIT, connection): no past day is asked for before.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 50; i++) await timedGet(agent, READER_PATH);
    agent.destroy();
    const alone = await inWorker('reader', [READER_SECONDS]);
    const before = await serverCpu(child.pid);
    const [beside, { statuses, lowered }] = await Promise.all([
      inWorker('reader', [CYCLE_SECONDS]),
      inWorker('cyclers', [CYCLE_SECONDS, days]),
    ]);
    const after = await serverCpu(child.pid);
    const cpu =
      before && after
        ? { all: after.all - before.all, main: after.main - before.main }
        : { all: NaN, main: NaN };
    return { days: days.length, alone, beside, statuses, lowered, cpu };
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const builds = [thisRoot, ...(process.env.BENCH_BUILDS ?? '').split(',').filter(Boolean)];
  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const root of builds) {
      const r = await measure(path.resolve(root));
      rows.push({
        round,
        root,
        ...r,
        a: summary(r.alone.latencies),
        b: summary(r.beside.latencies),
      });
    }
  }
  const f = (ms) => ms.toFixed(2);
  console.log(
    `reader: GET ${READER_PATH} every ${READER_INTERVAL_MS} ms, ${READER_SECONDS} s alone then ${CYCLE_SECONDS} s beside ${CLIENTS.length} clients cycling through every valid asOf day (strategies, baserate; their thread ${rows.every((r) => r.lowered) ? 'at nice 19' : 'at normal priority'}); node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end`,
  );
  console.log(
    '| round | build | valid days | alone p50 / p95 / max (ms) | beside p50 / p95 / max (ms) | p95 ratio | clients: answers by status | server CPU beside: event loop / all threads (cores) | reader errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const statuses = Object.entries(r.statuses)
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ');
    console.log(
      `| ${r.round} | ${r.root} | ${r.days} | ${f(r.a.p50)} / ${f(r.a.p95)} / ${f(r.a.max)} | ${f(r.b.p50)} / ${f(r.b.p95)} / ${f(r.b.max)} | ${(r.b.p95 / r.a.p95).toFixed(1)}x | ${statuses} | ${f(r.cpu.main / CYCLE_SECONDS)} / ${f(r.cpu.all / CYCLE_SECONDS)} | ${r.alone.errors + r.beside.errors} |`,
    );
  }
  for (const root of builds) {
    const ratios = rows.filter((r) => r.root === root).map((r) => r.b.p95 / r.a.p95);
    console.log(
      `median p95 ratio, ${root}: ${median(ratios).toFixed(1)}x over ${ratios.length} rounds`,
    );
  }
  console.log('target: the reader p95 beside the clients within 3x of its p95 alone');
}

if (!isMainThread) {
  const { task, args } = workerData;
  parentPort.postMessage(task === 'reader' ? await reader(...args) : await cyclers(...args));
} else {
  await main();
}
