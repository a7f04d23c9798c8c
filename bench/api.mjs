/**
 * API throughput: autocannon on GET /api/strategies served by the real Koa app (createApp +
 * createDeps, as the site server runs it) against a bare node:http server sending the same bytes,
 * in the same run, alternating, on the same machine. Target: API ≥ 0.8 × bare requests/second.
 *
 *   node bench/api.mjs                 # or: pnpm --filter @yield/bench bench:api
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=100 BENCH_ROUNDS=4 node bench/api.mjs
 *
 * Each server runs in its own child process (the API needs tsx to load TypeScript), on a temp
 * copy of api/data so the benchmark never writes into the shipped data.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
// Short runs, many rounds, alternating: on a shared 2-core machine the load of other processes
// swings within seconds, and alternating exposes both servers to the same swings.
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 18_791);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 18_792);
const PATH = '/api/strategies';

/** Starts a child process and resolves once it prints `ready`. */
function start(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), 30_000);
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const apiServer = `
import http from 'node:http';
import { createApp, createDeps, silentLogger } from './src/index.ts';
const deps = await createDeps({ logger: silentLogger });
const handler = createApp(deps).callback();
http.createServer(handler).listen(${API_PORT}, () => console.log('ready'));
`;

const bareServer = `
import http from 'node:http';
const res0 = await fetch('http://127.0.0.1:${API_PORT}${PATH}');
const body = Buffer.from(await res0.arrayBuffer());
http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}).listen(${BARE_PORT}, () => console.log('ready ' + body.length));
`;

function run(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-api-data-'));
await cp(path.join(apiDir, 'data'), dataDir, { recursive: true });
const env = {
  DATA_DIR: dataDir,
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
  NODE_ENV: 'production',
};
const children = [];
try {
  children.push(
    await start(['--import', 'tsx', '--input-type=module', '-e', apiServer], env, apiDir),
  );
  children.push(await start(['--input-type=module', '-e', bareServer], {}, here));

  // Same bytes: compare the bodies once before measuring.
  const [a, b] = await Promise.all(
    [API_PORT, BARE_PORT].map(async (port) =>
      Buffer.from(await (await fetch(`http://127.0.0.1:${port}${PATH}`)).arrayBuffer()),
    ),
  );
  if (!a.equals(b)) throw new Error('bare server does not send the same bytes as the API');

  // Warm-up (JIT, connection setup), not recorded.
  await run(`http://127.0.0.1:${BARE_PORT}${PATH}`);
  await run(`http://127.0.0.1:${API_PORT}${PATH}`);

  const rows = [];
  for (let i = 0; i < rounds; i++) {
    const bare = await run(`http://127.0.0.1:${BARE_PORT}${PATH}`);
    const api = await run(`http://127.0.0.1:${API_PORT}${PATH}`);
    rows.push({
      round: i + 1,
      bareRps: bare.requests.average,
      apiRps: api.requests.average,
      ratio: api.requests.average / bare.requests.average,
      bareP99: bare.latency.p99,
      apiP99: api.latency.p99,
      errors: bare.errors + api.errors + bare.non2xx + api.non2xx,
    });
  }
  const ratios = rows.map((r) => r.ratio).sort((x, y) => x - y);
  const median =
    ratios.length % 2
      ? ratios[(ratios.length - 1) / 2]
      : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
  const totalBare = rows.reduce((s, r) => s + r.bareRps, 0);
  const totalApi = rows.reduce((s, r) => s + r.apiRps, 0);
  console.log(
    `GET ${PATH}, ${a.length} bytes, ${connections} connections, ${duration} s per run, node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '| round | bare node:http req/s | API req/s | ratio | bare p99 ms | API p99 ms | errors |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.round} | ${r.bareRps.toFixed(0)} | ${r.apiRps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.bareP99} | ${r.apiP99} | ${r.errors} |`,
    );
  }
  console.log(
    `| all | ${(totalBare / rows.length).toFixed(0)} | ${(totalApi / rows.length).toFixed(0)} | ${(totalApi / totalBare).toFixed(2)} | | | |`,
  );
  console.log(
    `median ratio ${median.toFixed(2)}, overall ratio ${(totalApi / totalBare).toFixed(2)} (target ≥ 0.80): ${median >= 0.8 ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = median >= 0.8 ? 0 : 1;
} finally {
  for (const child of children) child.kill();
  await rm(dataDir, { recursive: true, force: true });
}
