/**
 * Sign-ups per store, measured in one run: one API process on the JSON files (the default), one
 * on PostgreSQL, and two on one PostgreSQL (the load split evenly between them). 50 clients post
 * distinct addresses to POST /api/addToMailList for 10 s per round, after 2 s of warm-up, each
 * request from another client IP (X-Forwarded-For, TRUST_PROXY=1: the rate limit counts per IP
 * as behind a load balancer, and is counted in the database for PostgreSQL); rounds
 * alternate between the three set-ups. Prints sign-ups/s, p99 latency, unanswered requests (errors,
 * non-2xx, no answer in 5 s) and sign-ups per CPU-second of the API processes, then the medians.
 *
 *   node bench/signups-stores.mjs      # or: pnpm --filter @yield/bench bench:stores
 *   BENCH_ROUNDS=3 BENCH_DURATION=10 BENCH_CONNECTIONS=50 node bench/signups-stores.mjs
 *   BENCH_DATABASE_URL=postgres://... (a server of your own; each round gets a new database on it)
 *
 * Without BENCH_DATABASE_URL a throwaway PostgreSQL cluster is started in a child process
 * (api/test/pg-cluster.ts: Debian's postgresql binaries, a temp directory, a free loopback port;
 * with fsync on, so that a sign-up is as durable as in the file store's fdatasync'd journal). Every set-up starts on an empty list and a fresh database (created
 * with psql).
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { startChild } from './child-process.mjs';
import {
  cpuSeconds,
  dataDirWith,
  loadAverage,
  median,
  settings,
  signUpLoad,
  startApi,
  stopApi,
} from './signup-load.mjs';

const { apiDir, duration, connections, rounds } = settings;
const basePort = Number(process.env.BENCH_PORT ?? 18_811);

// The server is a process of its own: the child stays alive until SIGTERM, then removes it (the
// handler is in place before the cluster starts, so a SIGTERM at any moment removes it).
const clusterScript = `
import { startCluster } from './test/pg-cluster.ts';
const alive = setInterval(() => undefined, 60_000);
const starting = startCluster({ durable: true });
process.on('SIGTERM', () => {
  clearInterval(alive);
  starting.then((c) => c.destroy()).finally(() => process.exit(0));
});
const cluster = await starting;
console.log('ready ' + cluster.url());
`;
const cluster = process.env.BENCH_DATABASE_URL
  ? null
  : await startChild(
      ['--import', 'tsx', '--input-type=module', '-e', clusterScript],
      {},
      apiDir,
      120_000,
    );
const serverUrl = process.env.BENCH_DATABASE_URL ?? cluster.readyLine;

let databases = 0;
async function freshDatabase() {
  const name = `bench_${process.pid}_${databases++}`;
  await promisify(execFile)('psql', [serverUrl, '-qc', `CREATE DATABASE ${name}`]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const SETUPS = [
  { name: 'files, 1 process', processes: 1, database: false },
  { name: 'PostgreSQL, 1 process', processes: 1, database: true },
  { name: 'PostgreSQL, 2 processes', processes: 2, database: true },
];

async function round(setup, n) {
  const databaseUrl = setup.database ? await freshDatabase() : '';
  const dirs = [];
  const apis = [];
  try {
    for (let i = 0; i < setup.processes; i++) {
      const dir = await dataDirWith(apiDir, 0);
      dirs.push(dir);
      apis.push({
        port: basePort + i,
        ...(await startApi(apiDir, basePort + i, dir, {
          DATABASE_URL: databaseUrl,
          TRUST_PROXY: '1',
        })),
      });
    }
    // The clients are split evenly between the processes (a load balancer's round robin).
    const load = (seconds) =>
      Promise.all(
        apis.map((api, i) =>
          signUpLoad(
            api.port,
            Math.round(connections / apis.length),
            seconds,
            `stores${n}-${setup.processes}${setup.database ? 'pg' : 'f'}-${i}`,
            true,
          ),
        ),
      );
    await load(2);
    const cpuBefore = await Promise.all(apis.map((a) => cpuSeconds(a.child.pid)));
    const results = await load(duration);
    const cpuAfter = await Promise.all(apis.map((a) => cpuSeconds(a.child.pid)));
    const cpu = cpuAfter.reduce((sum, c, i) => sum + c - cpuBefore[i], 0);
    const ok = results.reduce((sum, r) => sum + r['2xx'], 0);
    return {
      perSecond: ok / duration,
      perCpuSecond: ok / cpu,
      // The slower process's p99 (autocannon reports percentiles per run, not histograms).
      p99: Math.max(...results.map((r) => r.latency.p99)),
      unanswered: results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0),
    };
  } finally {
    for (const api of apis) await stopApi(api.child);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

console.log(
  `sign-ups per store: ${connections} clients, ${duration} s per run, ${rounds} rounds, API in ${apiDir}, database ${cluster ? 'throwaway cluster' : 'BENCH_DATABASE_URL'}, load ${loadAverage()}`,
);
const results = new Map(SETUPS.map((s) => [s.name, []]));
try {
  for (let i = 0; i < rounds; i++) {
    for (const setup of SETUPS) {
      const r = await round(setup, i);
      results.get(setup.name).push(r);
      console.log(
        `  ${setup.name.padEnd(24)} round ${i + 1}: ${r.perSecond.toFixed(0)} sign-ups/s (${r.perCpuSecond.toFixed(0)} per CPU-second of the API), p99 ${r.p99} ms, unanswered ${r.unanswered}, load ${loadAverage()}`,
      );
    }
  }
} finally {
  if (cluster) {
    cluster.removeAllListeners('exit');
    const exited = new Promise((resolve) => cluster.once('exit', resolve));
    cluster.kill('SIGTERM');
    await exited;
  }
}
console.log('\nmedian of rounds (unanswered: worst round)');
console.log('| set-up | sign-ups/s | sign-ups per CPU-second | p99 latency | unanswered |');
console.log('| ------ | ---------- | ----------------------- | ----------- | ---------- |');
for (const setup of SETUPS) {
  const rs = results.get(setup.name);
  console.log(
    `| ${setup.name} | ${median(rs.map((r) => r.perSecond)).toFixed(0)} | ${median(rs.map((r) => r.perCpuSecond)).toFixed(0)} | ${median(rs.map((r) => r.p99))} ms | ${Math.max(...rs.map((r) => r.unanswered))} |`,
  );
}
