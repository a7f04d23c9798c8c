/**
 * What the sign-up benchmarks share (signups.mjs, signups-stores.mjs): a temp data directory,
 * the API started as a child process (`src/server.ts`), the load of distinct addresses posted to
 * POST /api/addToMailList by autocannon, and CPU time read from /proc.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/** The settings every sign-up benchmark reads from the environment. */
export const settings = {
  apiDir: path.resolve(
    process.env.BENCH_API_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../api'),
  ),
  duration: Number(process.env.BENCH_DURATION ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
};

/** A request without an answer after this long counts as unanswered (autocannon timeout). */
export const TIMEOUT_S = 5;

/** A fresh temp copy of `<apiDir>/data` with `addresses` addresses already on the list. */
export async function dataDirWith(apiDir, addresses) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-signups-'));
  await cp(path.join(apiDir, 'data'), dir, {
    recursive: true,
    filter: (src) =>
      src === path.join(apiDir, 'data') ||
      !(path.basename(src).startsWith('.') || path.basename(src).startsWith('user-data.')),
  });
  const createdAt = '2026-11-01T00:00:00.000Z';
  const entries = Array.from({ length: addresses }, (_, i) => ({
    email: `stored${i}@example.com`,
    createdAt,
    source: 'website',
  }));
  await writeFile(path.join(dir, 'mailing-list.json'), `${JSON.stringify({ entries }, null, 2)}\n`);
  await writeFile(path.join(dir, 'users.json'), '{ "users": [] }\n');
  await writeFile(path.join(dir, 'invites.json'), '{ "invites": [] }\n');
  await writeFile(path.join(dir, 'alerts.json'), '{ "subscriptions": [], "deliveries": [] }\n');
  return dir;
}

/** Starts the API on `port`; resolves with the child and the log lines it printed. */
export function startApi(apiDir, port, dataDir, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'server.ts')], {
      cwd: apiDir,
      env: {
        ...process.env,
        API_PORT: String(port),
        DATA_DIR: dataDir,
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
        RATE_LIMIT_MAX: '100000000',
        NODE_ENV: 'production',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const logLines = [];
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('the API did not start')), 120_000);
    child.stdout.on('data', (chunk) => {
      buffered += String(chunk);
      const lines = buffered.split('\n');
      buffered = lines.pop();
      logLines.push(...lines);
      if (lines.some((l) => l.includes('api listening'))) {
        clearTimeout(timer);
        resolve({ child, logLines });
      }
    });
    child.on('exit', (code) => reject(new Error(`the API exited with ${code}`)));
  });
}

export const stopApi = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/**
 * `connections` clients posting distinct addresses (`<prefix>-<n>@example.com`) for `seconds`.
 * With `manyClients`, each request names another client IP in X-Forwarded-For (for an API
 * started with TRUST_PROXY=1), as traffic from many people behind a load balancer would.
 */
export function signUpLoad(port, connections, seconds, prefix, manyClients = false) {
  let counter = 0;
  const body = () => JSON.stringify({ email: `${prefix}-${counter++}@example.com` });
  const ip = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/api/addToMailList`,
        connections,
        duration: seconds,
        timeout: TIMEOUT_S,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({
              ...req,
              body: body(),
              ...(manyClients
                ? { headers: { ...req.headers, 'x-forwarded-for': ip(counter) } }
                : {}),
            }),
          },
        ],
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    );
  });
}

/** CPU seconds (user + system) the process has used so far (Linux, /proc; clock ticks of 10 ms). */
export async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
