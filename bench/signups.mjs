/**
 * Sign-ups under load: 50 clients posting distinct addresses to POST /api/addToMailList for 10 s
 * on one API process, with 0, 10,000 and 100,000 addresses already on the list. Prints sign-ups/s,
 * p99 latency and the requests that got no answer (errors, timeouts, non-2xx) per round, then the
 * median of the rounds. Goal: nothing unanswered; at 100,000 addresses at least half the rate of
 * the empty list and p99 under 100 ms.
 *
 *   node bench/signups.mjs                   # or: pnpm --filter @yield/bench bench:signups
 *   BENCH_ROUNDS=3 BENCH_DURATION=10 BENCH_CONNECTIONS=50 BENCH_SIZES=0,10000,100000 node bench/signups.mjs
 *   BENCH_API_DIR=/path/to/other/checkout/api node bench/signups.mjs   # measure another version
 *
 * Each round starts `src/server.ts` in a child process on a fresh temp copy of api/data holding
 * the given number of addresses (RATE_LIMIT_MAX raised so the load reaches the writes), warms it
 * up with 2 s of the same load (not measured), measures, and stops it with SIGTERM. A request
 * without an answer after 5 s counts as unanswered (autocannon's timeout), as do errors and
 * non-2xx answers.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
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
const sizes = (process.env.BENCH_SIZES ?? '0,10000,100000').split(',').map(Number);
const port = Number(process.env.BENCH_PORT ?? 18_801);

async function round(addresses, n) {
  const dataDir = await dataDirWith(apiDir, addresses);
  const { child, logLines } = await startApi(apiDir, port, dataDir);
  try {
    const load = (seconds) => signUpLoad(port, connections, seconds, `bench${n}`);
    await load(2);
    const logsBefore = logLines.length;
    const cpuBefore = await cpuSeconds(child.pid);
    const result = await load(duration);
    const cpu = (await cpuSeconds(child.pid)) - cpuBefore;
    const compactions = logLines.slice(logsBefore).filter((l) => l.includes('user data compacted'));
    await stopApi(child);
    const stored = JSON.parse(await readFile(path.join(dataDir, 'mailing-list.json'), 'utf8'))
      .entries.length;
    return {
      addresses,
      perSecond: result['2xx'] / duration,
      perCpuSecond: result['2xx'] / cpu,
      p99: result.latency.p99,
      unanswered: result.errors + result.timeouts + result.non2xx,
      stored: stored - addresses,
      compactions: compactions.length,
      compactionMs: compactions.map((l) => JSON.parse(l).ms),
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `sign-ups: ${connections} clients, ${duration} s per run, ${rounds} rounds, API in ${apiDir}, load ${loadAverage()}`,
);
// Rounds alternate between the list sizes, so each size meets the same swings of the machine.
const results = new Map(sizes.map((addresses) => [addresses, []]));
for (let i = 0; i < rounds; i++) {
  for (const addresses of sizes) {
    const r = await round(addresses, `${addresses}-${i}`);
    results.get(addresses).push(r);
    console.log(
      `  ${String(addresses).padStart(6)} stored, round ${i + 1}: ${r.perSecond.toFixed(0)} sign-ups/s (${r.perCpuSecond.toFixed(0)} per CPU-second of the API), p99 ${r.p99} ms, unanswered ${r.unanswered}, ${r.stored} new addresses stored` +
        (r.compactions ? `, compactions during the run: ${r.compactionMs.join(', ')} ms` : ''),
    );
  }
}
const summary = sizes.map((addresses) => {
  const rs = results.get(addresses);
  return {
    addresses,
    perSecond: median(rs.map((r) => r.perSecond)),
    perCpuSecond: median(rs.map((r) => r.perCpuSecond)),
    p99: median(rs.map((r) => r.p99)),
    unanswered: Math.max(...rs.map((r) => r.unanswered)),
  };
});
console.log('\nmedian of rounds (unanswered: worst round)');
console.log(
  '| addresses stored | sign-ups/s | sign-ups per CPU-second | p99 latency | unanswered |',
);
console.log(
  '| ---------------- | ---------- | ----------------------- | ----------- | ---------- |',
);
for (const s of summary)
  console.log(
    `| ${s.addresses.toLocaleString('en-US')} | ${s.perSecond.toFixed(0)} | ${s.perCpuSecond.toFixed(0)} | ${s.p99} ms | ${s.unanswered} |`,
  );
const empty = summary.find((s) => s.addresses === 0);
const big = summary.find((s) => s.addresses === Math.max(...sizes));
if (empty && big && big !== empty) {
  const ratio = big.perSecond / empty.perSecond;
  const pass = ratio >= 0.5 && big.p99 < 100 && summary.every((s) => s.unanswered === 0);
  console.log(
    `\n${big.addresses.toLocaleString('en-US')} vs 0 addresses: ${(ratio * 100).toFixed(0)}% of the rate, p99 ${big.p99} ms -> ${pass ? 'PASS' : 'FAIL'} (goal: >= 50%, p99 < 100 ms, nothing unanswered)`,
  );
}
