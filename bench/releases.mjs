/**
 * Releases of a remote (docs/deploy.md, "Releasing a remote"), in one run:
 *
 * - (a) a fleet of 3 site processes (`packages/site-server/src/main.ts`) on one PostgreSQL (a
 *   throwaway cluster, api/test/pg-cluster.ts), each with its own copy of the shipped sample as
 *   `DATA_DIR`: the time from the start of `pnpm remotes release mfe_content --from <dir>` (run
 *   with a fourth data directory: another machine) until EVERY process serves the release on
 *   `GET /remotes.json` (each polled every 20 ms, no cookie), BENCH_RELEASE_RUNS times (10),
 *   alternating between mfe-content's `dist/` and a build of it with a changed heading (made once
 *   here) so that every run is a switch: median and max, and the command's own time.
 * - (b) Lighthouse performance (mobile, median of BENCH_LH_RUNS, 3) of `/` and `/options` on this
 *   build (its remotes served from their releases, a fresh data directory) and on the build before
 *   (BENCH_BEFORE, default /work/wt/before: its own site server on another port, its own fresh
 *   data directory), the two servers alternating within each run; and a check that this build's
 *   resource hints name `/remotes/<app folder>/<release id>/` paths.
 *
 *   node bench/releases.mjs          # or: pnpm --filter @yield/bench bench:releases
 *   BENCH_RELEASE_RUNS=10 BENCH_LH_RUNS=3 BENCH_BEFORE=/path/to/checkout node bench/releases.mjs
 *   BENCH_PARTS=lighthouse node bench/releases.mjs     # one part alone: fleet or lighthouse
 *
 * Needs `pnpm build` (both checkouts). The work runs in a child under tsx (the cluster and the
 * data files' rules are TypeScript). Prints numbers only (no pass/fail): they are recorded in
 * docs/performance.md, "Releases of a remote".
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, warmUp, withChromium } from './lighthouse-run.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const BEFORE = path.resolve(process.env.BENCH_BEFORE ?? '/work/wt/before');
const RUNS = Number(process.env.BENCH_RELEASE_RUNS ?? 10);
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const REMOTE = 'mfe_content';
const FOLDER = 'mfe-content';
const PAGES = ['/', '/options'];
// BENCH_PARTS=fleet or BENCH_PARTS=lighthouse runs one part alone.
const PARTS = (process.env.BENCH_PARTS ?? 'fleet,lighthouse').split(',');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const temps = [];
const procs = [];

async function main() {
  // The API's own files, loaded by path as bench/fleet.mjs's child does (bench has no
  // dependency on the API package): its data files' rules and the throwaway cluster.
  const apiFile = (file) => pathToFileURL(path.join(root, 'api', file)).href;
  const { isInstallationFile } = await import(apiFile('src/composition/data-files.ts'));
  const { freePort, startCluster } = await import(apiFile('test/pg-cluster.ts'));
  const tools = { isInstallationFile, freePort, startCluster };
  try {
    console.log(
      `node ${process.version}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    if (PARTS.includes('fleet')) await fleetSwitch(tools, await buildChanged());
    if (PARTS.includes('lighthouse')) await lighthouseAgainstBefore(tools);
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await stopSites();
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  }
}

async function stopSites() {
  const running = procs.splice(0).filter((p) => p.exitCode === null && p.signalCode === null);
  const exited = running.map((p) => new Promise((resolve) => p.once('exit', resolve)));
  for (const p of running) p.kill('SIGTERM');
  await Promise.all(exited);
}

/** A data directory holding `checkout`'s shipped sample, as a new machine gets it. */
async function sampleDir({ isInstallationFile }, checkout = root) {
  const from = path.join(checkout, 'api', 'data');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-releases-'));
  temps.push(dir);
  await cp(from, dir, {
    recursive: true,
    filter: (source) => source === from || !isInstallationFile(path.basename(source)),
  });
  return dir;
}

function run(command, args, env = {}, cwd = root) {
  return new Promise((resolve) =>
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 1 << 24 },
      (error, stdout, stderr) => resolve({ ok: !error, stdout, stderr }),
    ),
  );
}

/** mfe-content built alone into a new folder with its Learn page's heading changed. */
async function buildChanged() {
  const source = path.join(root, 'mfe-content', 'src', 'pages', 'LearnPage.tsx');
  const original = await readFile(source, 'utf8');
  const changed = original.replace('<h1>Coming Soon</h1>', '<h1>Coming Soon: bench</h1>');
  if (changed === original) throw new Error('LearnPage.tsx no longer has its heading');
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-releases-build-'));
  temps.push(out);
  try {
    await writeFile(source, changed);
    const built = await run('pnpm', ['--filter', '@yield/mfe-content', 'build', '--out', out]);
    if (!built.ok) throw new Error(`the build failed: ${built.stderr}${built.stdout}`);
  } finally {
    await writeFile(source, original);
  }
  return out;
}

/** Starts `checkout`'s site server on `port` with `env`; resolves once it listens. */
async function startSite(checkout, port, env) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('packages', 'site-server', 'src', 'main.ts')],
    {
      cwd: checkout,
      env: {
        ...process.env,
        BENCH_RELEASES_CHILD: '',
        PORT: String(port),
        NODE_ENV: 'production',
        RATE_LIMIT_MAX: '100000000',
        DATABASE_URL: '',
        SMTP_URL: '',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  procs.push(proc);
  let stderr = '';
  proc.stderr.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-3000)));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the site did not start: ${stderr}`)), 120_000);
    proc.stdout.on('data', (chunk) => {
      if (String(chunk).includes('Site running on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => reject(new Error(`the site exited with ${code}: ${stderr}`)));
  });
  proc.removeAllListeners('exit');
  return `http://127.0.0.1:${port}`;
}

/** The release of mfe_content `/remotes.json` gives a visitor without a cookie. */
async function servedRelease(url) {
  const manifest = await (await fetch(`${url}/remotes.json`)).json();
  return /\/remotes\/mfe-content\/([0-9a-f]{12})\//.exec(manifest[REMOTE] ?? '')?.[1] ?? null;
}

/** The median of an even count is the mean of the two middle values. */
function midpoint(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (values) =>
  `median ${midpoint(values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;

/** One release: its command's time and the time until each process serves it. */
async function timedRelease(sites, from, env) {
  const old = await servedRelease(sites[0]);
  let done = false;
  const t0 = performance.now();
  const command = run('pnpm', ['--silent', 'remotes', 'release', REMOTE, '--from', from], env).then(
    (result) => ({ ...result, ms: performance.now() - t0 }),
  );
  const pollers = sites.map(async (url) => {
    let id = old;
    while (id === old && !done) {
      await sleep(20);
      id = await servedRelease(url);
    }
    return { id, ms: performance.now() - t0 };
  });
  const released = await command;
  if (!released.ok) {
    done = true;
    throw new Error(`the release failed: ${released.stderr}${released.stdout}`);
  }
  const id = /release ([0-9a-f]{12}) is live/.exec(released.stdout)?.[1];
  // A process that has not switched within a minute fails the run (the timer keeps no one alive).
  const timeout = new Promise((resolve) => setTimeout(resolve, 60_000, null).unref());
  const served = await Promise.race([Promise.all(pollers), timeout]);
  done = true;
  if (!served || served.some((s) => s.id !== id)) {
    throw new Error(`not every process served ${id}: ${JSON.stringify(served)}`);
  }
  return { id, command: released.ms, each: served.map((s) => s.ms) };
}

async function fleetSwitch(tools, changed) {
  const cluster = await tools.startCluster();
  try {
    const databaseUrl = await cluster.createDatabase('releases_bench');
    const sites = [];
    for (let i = 0; i < 3; i++) {
      const dir = await sampleDir(tools);
      sites.push(
        await startSite(root, await tools.freePort(), { DATA_DIR: dir, DATABASE_URL: databaseUrl }),
      );
    }
    const env = { DATA_DIR: await sampleDir(tools), DATABASE_URL: databaseUrl };
    const builds = [changed, path.join(root, FOLDER, 'dist')];
    const served = [];
    const commands = [];
    const afterCommand = [];
    const spread = [];
    console.log(`Release to serve, 3 site processes on one PostgreSQL (${REMOTE}):`);
    for (let n = 1; n <= RUNS; n++) {
      const from = builds[(n - 1) % 2];
      const result = await timedRelease(sites, from, env);
      const all = Math.max(...result.each);
      served.push(all);
      commands.push(result.command);
      afterCommand.push(all - result.command);
      spread.push(all - Math.min(...result.each));
      console.log(
        `  release ${n} (${result.id}, ${from === changed ? 'changed build' : 'dist'}): the command ${result.command.toFixed(0)} ms, every process serving it after ${all.toFixed(0)} ms (each: ${result.each.map((t) => t.toFixed(0)).join(', ')})`,
      );
      // Runs start at different moments of the processes' polls of the registry.
      await sleep(300 + Math.random() * 1000);
    }
    console.log(
      `pnpm remotes release to all 3 processes serving it (${RUNS} runs): ${fmt(served)}`,
    );
    console.log(`the release command alone: ${fmt(commands)}`);
    console.log(`from the command's end to all 3 serving it: ${fmt(afterCommand)}`);
    console.log(`from the first process serving it to the last: ${fmt(spread)}`);
    const t0 = performance.now();
    const status = await run('pnpm', ['--silent', 'remotes', 'status'], env);
    if (!status.ok) throw new Error(`pnpm remotes status failed: ${status.stderr}`);
    console.log(
      `pnpm remotes status (the command's start and connection alone): ${(performance.now() - t0).toFixed(0)} ms`,
    );
  } finally {
    await stopSites();
    await cluster.destroy();
  }
}

/**
 * The `/remotes/` paths a page of this build names (its preload hints, or a painted page's hints
 * listed in its paint's data), and how many of them are `/remotes/<app folder>/<release id>/`.
 */
async function checkHints(url, page) {
  const html = await (await fetch(url + page)).text();
  const paths = [...new Set(html.match(/\/remotes\/[^"'\s)]+/g) ?? [])];
  const released = paths.filter((href) => /^\/remotes\/[a-z-]+\/[0-9a-f]{12}\//.test(href));
  const others = paths.filter((href) => !released.includes(href));
  console.log(
    `Hints of ${page} on this build: ${paths.length} /remotes/ paths, ${released.length} of them /remotes/<app folder>/<12 hex>/` +
      (others.length ? ` (not: ${others.join(', ')})` : '') +
      (released[0] ? `, e.g. ${released[0]}` : ''),
  );
}

const row = (page, build, r) =>
  `| ${page} | ${build} | ${Math.round(median(r.map((x) => x.performance)))} | ${(median(r.map((x) => x.fcp)) / 1000).toFixed(2)} s | ${(median(r.map((x) => x.lcp)) / 1000).toFixed(2)} s | ${Math.round(median(r.map((x) => x.tbt)))} ms |`;

function ratioRow(page, now, before) {
  const ratio = (key) =>
    (median(now.map((x) => x[key])) / median(before.map((x) => x[key]))).toFixed(2);
  return `| ${page} | ratio this / before | ${ratio('performance')} | ${ratio('fcp')} | ${ratio('lcp')} | ${ratio('tbt')} |`;
}

async function lighthouseAgainstBefore(tools) {
  const servers = {
    this: await startSite(root, await tools.freePort(), { DATA_DIR: await sampleDir(tools) }),
    before: await startSite(BEFORE, await tools.freePort(), {
      DATA_DIR: await sampleDir(tools, BEFORE),
    }),
  };
  for (const page of PAGES) await checkHints(servers.this, page);
  for (const url of Object.values(servers)) await warmUp(PAGES.map((page) => url + page));
  const results = Object.fromEntries(
    PAGES.flatMap((page) => [
      [`${page} this`, []],
      [`${page} before`, []],
    ]),
  );
  await withChromium(async (measure) => {
    for (let n = 0; n < LH_RUNS; n++) {
      // The two servers alternate, each run starting with the other one.
      const order = n % 2 === 0 ? ['this', 'before'] : ['before', 'this'];
      for (const page of PAGES) {
        for (const build of order) {
          results[`${page} ${build}`].push(await measure(servers[build] + page));
        }
      }
    }
  });
  console.log(`Lighthouse mobile, median of ${LH_RUNS} runs (this build vs ${BEFORE}):`);
  console.log('| page | build | perf | FCP | LCP | TBT |');
  console.log('|---|---|---|---|---|---|');
  for (const page of PAGES) {
    console.log(row(page, 'this build', results[`${page} this`]));
    console.log(row(page, 'before', results[`${page} before`]));
    console.log(ratioRow(page, results[`${page} this`], results[`${page} before`]));
  }
}

// The parent starts the child under tsx; the child does the work.
if (!process.env.BENCH_RELEASES_CHILD) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: root,
    env: { ...process.env, BENCH_RELEASES_CHILD: '1' },
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}
