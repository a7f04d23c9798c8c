/**
 * API throughput: autocannon on GET /api/strategies served by the real Koa app (createApp +
 * createDeps, as the site server runs it) against a bare node:http server sending the same bytes
 * (same body, same headers), in the same run, alternating, on the same machine. Target: API ≥ 0.8 × bare requests/second.
 *
 *   node bench/api.mjs                 # or: pnpm --filter @yield/bench bench:api
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=100 BENCH_ROUNDS=4 node bench/api.mjs
 *   BENCH_BEFORE=/path/to/checkout node bench/api.mjs   # also the build before, in the same run
 *
 * With BENCH_BEFORE (another checkout of the repository, installed), the API of that checkout runs
 * too, in its own child process on the same data, and each round measures the bare server, this
 * API and the API before, one after the other: the result is this API's throughput against the
 * build before, under the same swings of the machine's load.
 *
 * The API logs (an access line per request, to a file) and counts its metrics, as in production.
 *
 * The servers run in a child process (the API needs tsx to load TypeScript) on a temp copy of
 * api/data, so the benchmark never writes into the shipped data.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from './child-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
// Short runs, many rounds, alternating: on a shared 2-core machine the load of other processes
// swings within seconds, and alternating exposes both servers to the same swings.
const duration = Number(process.env.BENCH_DURATION ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 18_791);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 18_792);
const CONTROL_PORT = Number(process.env.BENCH_CONTROL_PORT ?? 18_793);
const PATH = '/api/strategies';
const beforeDir = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : null;

// Both servers live in one child process, so they share the same runtime conditions (tsx loader,
// heap holding the data, event loop); only the request handling differs.
const serversScript = (apiPort, barePort, controlPort) => `
import http from 'node:http';
import { createApp, createDeps, createLogger } from './src/index.ts';
// Logging and metrics on, as in production: one access line per request (to a file, written
// asynchronously as on standard output) and the request series of /metrics.
const deps = await createDeps({
  logger: createLogger({ level: 'info', destination: process.env.BENCH_LOG_FILE }),
});
const handler = createApp(deps).callback();
await new Promise((r) => http.createServer(handler).listen(${apiPort}, r));
const res0 = await fetch('http://127.0.0.1:${apiPort}${PATH}');
const body = Buffer.from(await res0.arrayBuffer());
// The same response bytes: body and headers (security headers, ETag, Cache-Control are part of
// what the API must send); node adds Date / Connection / Keep-Alive itself on both servers.
const headers = {};
for (const [name, value] of res0.headers) {
  if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
}
http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(${barePort}, () => {
  // Control port: the child's own CPU time, so throughput can be normalised per CPU-second.
  http.createServer((req, res) => {
    const u = process.cpuUsage();
    res.end(String(u.user + u.system));
  }).listen(${controlPort}, () => console.log('ready'));
});
`;

/** The API, its bare twin and the control port in one child process run from `dir` (an api/ folder). */
const startServers = (apiPort, barePort, controlPort, env, dir) =>
  startChild(
    ['--import', 'tsx', '--input-type=module', '-e', serversScript(apiPort, barePort, controlPort)],
    env,
    dir,
  );

const cpuMicros = async (controlPort) =>
  Number(await (await fetch(`http://127.0.0.1:${controlPort}/`)).text());

/** One autocannon run, with the server process's CPU time spent during it. */
async function run(url, controlPort = CONTROL_PORT) {
  const before = await cpuMicros(controlPort);
  const result = await new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, pipelining: 1 }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
  });
  const cpuSeconds = ((await cpuMicros(controlPort)) - before) / 1e6;
  return { ...result, perCpuSecond: result.requests.total / cpuSeconds };
}

/** A temp copy of the shipped data only: a local server's user data, journal, lock and secrets stay out. */
async function copyOfData() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-api-data-'));
  await cp(path.join(apiDir, 'data'), dir, {
    recursive: true,
    filter: (src) =>
      src === path.join(apiDir, 'data') ||
      !/^(\.|user-data\.|outbox$|(mailing-list|users|invites|alerts)\.json$)/.test(
        path.basename(src),
      ),
  });
  return dir;
}
const dataDir = await copyOfData();
// The build before reads the same data from a directory of its own (each process owns its own).
const beforeDataDir = beforeDir ? await copyOfData() : null;
const env = {
  DATA_DIR: dataDir,
  BENCH_LOG_FILE: path.join(dataDir, 'api.log'),
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
  NODE_ENV: 'production',
};
const children = [];
try {
  children.push(await startServers(API_PORT, BARE_PORT, CONTROL_PORT, env, apiDir));
  // The build before (BENCH_BEFORE): its API on ports of its own, the same data.
  const BEFORE_PORT = API_PORT + 10;
  const BEFORE_CONTROL_PORT = CONTROL_PORT + 10;
  if (beforeDir) {
    const beforeEnv = {
      ...env,
      DATA_DIR: beforeDataDir,
      BENCH_LOG_FILE: path.join(beforeDataDir, 'api.log'),
    };
    children.push(
      await startServers(
        BEFORE_PORT,
        BARE_PORT + 10,
        BEFORE_CONTROL_PORT,
        beforeEnv,
        path.join(beforeDir, 'api'),
      ),
    );
  }

  // Same bytes: compare status, headers (minus Date) and body once before measuring.
  const [a, b] = await Promise.all(
    [API_PORT, BARE_PORT].map(async (port) => {
      const res = await fetch(`http://127.0.0.1:${port}${PATH}`);
      // Date and the request id differ per answer (the bare server repeats one id).
      const headers = [...res.headers].filter(([n]) => n !== 'date' && n !== 'x-request-id');
      return {
        status: res.status,
        headers: JSON.stringify(headers),
        body: Buffer.from(await res.arrayBuffer()),
      };
    }),
  );
  if (a.status !== b.status || a.headers !== b.headers || !a.body.equals(b.body)) {
    throw new Error('the bare server does not send the same bytes as the API');
  }

  // Warm-up (JIT, connection setup), not recorded.
  await run(`http://127.0.0.1:${BARE_PORT}${PATH}`);
  await run(`http://127.0.0.1:${API_PORT}${PATH}`);
  if (beforeDir) await run(`http://127.0.0.1:${BEFORE_PORT}${PATH}`, BEFORE_CONTROL_PORT);

  const rows = [];
  for (let i = 0; i < rounds; i++) {
    // Each round starts with the next server, so none is always measured first or last.
    const servers = [
      ['bare', () => run(`http://127.0.0.1:${BARE_PORT}${PATH}`)],
      ['api', () => run(`http://127.0.0.1:${API_PORT}${PATH}`)],
      ...(beforeDir
        ? [['before', () => run(`http://127.0.0.1:${BEFORE_PORT}${PATH}`, BEFORE_CONTROL_PORT)]]
        : []),
    ];
    const measured = {};
    for (let k = 0; k < servers.length; k++) {
      const [name, measure] = servers[(i + k) % servers.length];
      measured[name] = await measure();
    }
    const { bare, api, before = null } = measured;
    rows.push({
      beforeRps: before?.requests.average ?? null,
      beforePerCpu: before?.perCpuSecond ?? null,
      round: i + 1,
      bareRps: bare.requests.average,
      apiRps: api.requests.average,
      ratio: api.requests.average / bare.requests.average,
      barePerCpu: bare.perCpuSecond,
      apiPerCpu: api.perCpuSecond,
      cpuRatio: api.perCpuSecond / bare.perCpuSecond,
      errors: bare.errors + api.errors + bare.non2xx + api.non2xx,
    });
  }
  const median = (xs) => {
    const v = [...xs].sort((x, y) => x - y);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  const medianWall = median(rows.map((r) => r.ratio));
  const medianCpu = median(rows.map((r) => r.cpuRatio));
  console.log(
    `GET ${PATH}, ${a.body.length}-byte body + identical headers, ${connections} connections, ${duration} s per run, ${rounds} rounds, node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '| round | bare req/s | API req/s | ratio | bare req per CPU-s | API req per CPU-s | ratio per CPU-s | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const f = (n) => n.toFixed(0);
  for (const r of rows) {
    console.log(
      `| ${r.round} | ${f(r.bareRps)} | ${f(r.apiRps)} | ${r.ratio.toFixed(2)} | ${f(r.barePerCpu)} | ${f(r.apiPerCpu)} | ${r.cpuRatio.toFixed(2)} | ${r.errors} |`,
    );
  }
  console.log(`| median | | | ${medianWall.toFixed(2)} | | | ${medianCpu.toFixed(2)} | |`);
  // On a shared machine wall-clock req/s mostly measures other processes' load; requests per
  // CPU-second of the server process is the stable measure of the server's own cost.
  const pass = medianCpu >= 0.8;
  console.log(
    `median ratio per CPU-second ${medianCpu.toFixed(2)} (target ≥ 0.80): ${pass ? 'PASS' : 'FAIL'}; wall-clock median ${medianWall.toFixed(2)}`,
  );
  let beforePass = true;
  if (beforeDir) {
    const wall = median(rows.map((r) => r.apiRps / r.beforeRps));
    const cpu = median(rows.map((r) => r.apiPerCpu / r.beforePerCpu));
    console.log(
      '| round | before req/s | API req/s | ratio | before req per CPU-s | API req per CPU-s | ratio per CPU-s |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.round} | ${f(r.beforeRps)} | ${f(r.apiRps)} | ${(r.apiRps / r.beforeRps).toFixed(3)} | ${f(r.beforePerCpu)} | ${f(r.apiPerCpu)} | ${(r.apiPerCpu / r.beforePerCpu).toFixed(3)} |`,
      );
    }
    beforePass = wall >= 0.95;
    console.log(
      `against the build before (${beforeDir}): median ratio wall-clock ${wall.toFixed(3)}, per CPU-second ${cpu.toFixed(3)} (target ≥ 0.95 wall-clock): ${beforePass ? 'PASS' : 'FAIL'}`,
    );
  }
  process.exitCode = pass && beforePass ? 0 : 1;
} finally {
  for (const child of children) child.kill();
  await rm(dataDir, { recursive: true, force: true });
  if (beforeDataDir) await rm(beforeDataDir, { recursive: true, force: true });
}
