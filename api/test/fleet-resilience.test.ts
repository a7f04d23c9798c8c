/**
 * The fleet survives what happens to a fleet: three API processes (src/server.ts, as an operator
 * starts them) on one real PostgreSQL, each with its own data directory holding the shipped
 * sample and the scheduled import on, against the local DeFiLlama stand-in.
 *
 * - An operator's `data:publish` (the real command, a child process) of an edited settings.json
 *   reaches all three within 5 s; an invalid file and a stale one (published again since the pull)
 *   are refused, exit non-zero, and nothing any process serves changes.
 * - The database stopped: every process keeps serving the last version it loaded (the yield
 *   answers, the scanner, a pool's history), writes answer 503 JSON at once, health says the
 *   database is down; when it returns a publish reaches all of them and writes succeed.
 * - The importer killed mid-import (SIGKILL while DeFiLlama is slow to answer its /chart
 *   requests): the published data stays whole, its lock dies with its session, the next scheduled
 *   import completes on another process and every process serves it; the killed machine
 *   restarted serves it too.
 *
 * The cluster is this suite's own, since it is stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_ROOT, FLEET_IMPORT_LOCK } from '../src/composition/deps.ts';
import { exited, post, startApi } from './api-process.ts';
import { tempDataDir } from './helpers.ts';
import { answerAllFeeds, replayAllFeeds } from './import-fixtures.ts';
import { freePort, startCluster, type PgCluster } from './pg-cluster.ts';
import type { ReplayServer } from './replay-server.ts';

/** The answers compared between processes (a pool's history is added once one is known). */
const PATHS = [
  '/api/strategies',
  '/api/baserate',
  '/api/sources',
  '/api/settings',
  '/api/scanner',
  '/api/track-record',
];

let cluster: PgCluster;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await cluster?.destroy();
});

interface Machine {
  dir: string;
  port: number;
  env: Record<string, string>;
  proc: ChildProcess;
}

async function startMachine(dir: string, env: Record<string, string>): Promise<Machine> {
  const port = await freePort();
  const proc = await startApi(dir, port, env);
  cleanups.push(async () => {
    proc.kill('SIGKILL');
    await exited(proc);
  });
  return { dir, port, env, proc };
}

async function dataDir(): Promise<string> {
  const dir = await tempDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const get = (m: Machine, p: string) =>
  fetch(`http://127.0.0.1:${m.port}${p}`, { signal: AbortSignal.timeout(20_000) });

/** Status, ETag and body of every compared answer of one process. */
async function answers(m: Machine, paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const res = await get(m, p);
    out.push(`${p} ${res.status} ${res.headers.get('etag')} ${await res.text()}`);
  }
  return out;
}

/** The answers that differ, each shortened to where it starts to differ. */
function differences(a: string[], b: string[]): string[] {
  const out: string[] = [];
  a.forEach((x, i) => {
    const y = b[i] ?? '';
    if (x === y) return;
    let at = 0;
    while (at < x.length && x[at] === y[at]) at++;
    const from = Math.max(0, at - 80);
    out.push(`${x.slice(0, 40)}… ${x.slice(from, at + 80)} ≠ ${y.slice(from, at + 80)}`);
  });
  return out;
}

/**
 * Waits until every process gives the same answers (and `check` passes), and returns them; on
 * time out fails naming the answers that differ.
 */
async function sameEverywhere(
  fleet: Machine[],
  paths: string[],
  check: (a: string[]) => void = () => undefined,
  timeout = 5000,
): Promise<string[]> {
  const end = Date.now() + timeout;
  for (;;) {
    const all = await Promise.all(fleet.map((m) => answers(m, paths)));
    const differ = all.slice(1).flatMap((a) => differences(a, all[0]!));
    let checked = true;
    try {
      check(all[0]!);
    } catch (err) {
      if (Date.now() > end) throw err;
      checked = false;
    }
    if (differ.length === 0 && checked) return all[0]!;
    if (Date.now() > end) expect(differ).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const health = async (m: Machine) => (await (await get(m, '/api/health')).json()) as Health;
interface Health {
  status: string;
  userData: { available: boolean; error: string | null };
  published: { available: boolean; versions: Record<string, number> };
  import: { lastRun: { ok: boolean } | null };
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

const publishedVersions = async (url: string) =>
  Object.fromEntries(
    (
      await query<{ name: string; version: string }>(
        url,
        'SELECT name, version FROM published_documents',
      )
    ).map((r) => [r.name, Number(r.version)]),
  );

/** `data:pull` / `data:publish` as an operator runs them: their own process. */
async function dataCommand(
  command: 'pull' | 'publish',
  dir: string,
  databaseUrl: string,
): Promise<{ exitCode: number | null; output: string }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('scripts', 'data-published.ts'), command, '--', '--dir', dir],
    { cwd: API_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: 'pipe' },
  );
  let output = '';
  proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exitCode = await new Promise<number | null>((r) => proc.on('close', (code) => r(code)));
  return { exitCode, output };
}

async function pulled(databaseUrl: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yield-pulled-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const r = await dataCommand('pull', dir, databaseUrl);
  expect(r.exitCode, r.output).toBe(0);
  return dir;
}

async function editSettings(dir: string, edit: (s: Record<string, unknown>) => void) {
  const file = path.join(dir, 'settings.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(data);
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
}

/** Whether a session holds the fleet's import lock (an advisory lock, platform/job-locks/pg.ts). */
async function fleetLockHeld(url: string): Promise<boolean> {
  const rows = await query<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2
       AND objid::text::bigint = (hashtext('${FLEET_IMPORT_LOCK}')::bigint & 4294967295)`,
  );
  return rows[0]!.n > 0;
}

const today = () => new Date().toISOString().slice(0, 10);

/** The environment of a machine of the fleet: the database, the stand-in, the schedule. */
const fleetEnv = (databaseUrl: string, server: ReplayServer, interval: string) => ({
  DATABASE_URL: databaseUrl,
  DEFILLAMA_API_URL: server.url,
  COINS_API_URL: server.url,
  DATA_IMPORT_INTERVAL: interval,
  POOL_BACKFILL_TOP: '0',
  SMTP_URL: '',
  PUBLIC_URL: 'https://alerts.example',
});

/**
 * A pool history answer with its backfill `deferred` and without its ETag (it cannot be asked for
 * in an outage); the other answers as they are.
 */
function backfillDeferred(answer: string): string {
  const m = /^(\S+history) 200 \S+ (.*)$/s.exec(answer);
  if (!m) return answer;
  const body = { ...(JSON.parse(m[2]!) as object), backfill: 'deferred' };
  return `${m[1]} 200 ${JSON.stringify(body)}`;
}

const notSample = (a: string[]) => expect(a.join('\n')).not.toContain('"kind":"sample"');

/** A pool of the scanner's first page (its history is compared between processes). */
async function firstPool(m: Machine): Promise<string> {
  const body = (await (await get(m, '/api/scanner')).json()) as { items: { pool: string }[] };
  return body.items[0]!.pool;
}

describe('three processes: operators publish, the database stops', () => {
  let databaseUrl: string;
  let fleet: Machine[] = [];
  let paths: string[] = PATHS;

  it('the fleet imports once and serves one set of numbers', async () => {
    databaseUrl = await cluster.createDatabase();
    const first = await dataDir();
    const server = await replayAllFeeds(first, today());
    cleanups.push(() => server.close());
    const env = fleetEnv(databaseUrl, server, '1h');
    fleet = [await startMachine(first, env)];
    for (let i = 0; i < 2; i++) fleet.push(await startMachine(await dataDir(), env));
    await vi.waitFor(
      async () => {
        for (const m of fleet) expect((await health(m)).import.lastRun?.ok).toBe(true);
      },
      { timeout: 120_000, interval: 250 },
    );
    paths = [...PATHS, `/api/scanner/pools/${await firstPool(fleet[0]!)}/history`];
    await sameEverywhere(fleet, paths, notSample, 30_000);
    expect(server.requests.filter((r) => r === '/pools')).toHaveLength(1);
  }, 300_000);

  it('data:publish of an edited settings.json reaches every process within 5 s', async () => {
    const work = await pulled(databaseUrl);
    await editSettings(work, (s) => {
      s.siteTitle = 'Published to the fleet';
    });
    const r = await dataCommand('publish', work, databaseUrl);
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toMatch(/settings\.json: published v\d+ → v\d+/);
    await sameEverywhere(fleet, paths, (a) =>
      expect(a.join('\n')).toContain('Published to the fleet'),
    );
  }, 60_000);

  it('an invalid and a stale settings.json are refused: nothing served changes', async () => {
    const stale = await pulled(databaseUrl);
    const invalid = await pulled(databaseUrl);
    const work = await pulled(databaseUrl);
    await editSettings(work, (s) => {
      s.siteTitle = 'The newer title';
    });
    expect((await dataCommand('publish', work, databaseUrl)).exitCode).toBe(0);
    const served = await sameEverywhere(fleet, paths, (a) =>
      expect(a.join('\n')).toContain('The newer title'),
    );
    const versions = await publishedVersions(databaseUrl);

    await editSettings(invalid, (s) => {
      s.siteTitle = 42;
    });
    const refusedInvalid = await dataCommand('publish', invalid, databaseUrl);
    expect(refusedInvalid.exitCode).toBe(1);
    expect(refusedInvalid.output).toContain('settings.json: refused: settings.json: $.siteTitle');
    expect(refusedInvalid.output).toContain('Nothing published');

    await editSettings(stale, (s) => {
      s.siteTitle = 'A stale title';
    });
    const refusedStale = await dataCommand('publish', stale, databaseUrl);
    expect(refusedStale.exitCode).toBe(1);
    expect(refusedStale.output).toMatch(
      /settings\.json: refused: published again since the pull \(v\d+ pulled, v\d+ now\)/,
    );
    expect(refusedStale.output).toContain('Nothing published');

    expect(await publishedVersions(databaseUrl)).toEqual(versions);
    // Two polls of every process later, the same answers everywhere.
    await new Promise((r) => setTimeout(r, 4500));
    for (const m of fleet) expect(differences(await answers(m, paths), served)).toEqual([]);
  }, 90_000);

  it('the database stopped: the last version served, writes 503; back: all catch up', async () => {
    const served = await sameEverywhere(fleet, paths);
    await cluster.stop();
    try {
      await vi.waitFor(
        async () => {
          for (const m of fleet) {
            const h = await health(m);
            expect(h.published.available).toBe(false);
            expect(h.userData.available).toBe(false);
            expect(h.status).toBe('degraded');
          }
        },
        { timeout: 10_000, interval: 250 },
      );
      // The same answers; a pool's page says its backfill is `deferred` (it cannot be asked for).
      const kept = served.map(backfillDeferred);
      for (const m of fleet) {
        const now = (await answers(m, paths)).map(backfillDeferred);
        expect(differences(now, kept)).toEqual([]);
      }
      for (const m of fleet) {
        const writes = [
          await post(m.port, '/api/alerts', {
            email: `outage-${m.port}@example.com`,
            sourceId: 2,
            kind: 'below-base',
          }),
          await post(m.port, '/api/addToMailList', { email: `list-${m.port}@example.com` }),
        ];
        for (const res of writes) {
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('5');
          const text = await res.text();
          expect(JSON.parse(text)).toMatchObject({
            error: { code: 'unavailable', message: expect.any(String) },
          });
          expect(text).not.toMatch(/\n\s+at |stack/);
        }
      }
    } finally {
      await cluster.start();
    }
    const work = await pulled(databaseUrl);
    await editSettings(work, (s) => {
      s.siteTitle = 'After the outage';
    });
    expect((await dataCommand('publish', work, databaseUrl)).exitCode).toBe(0);
    await sameEverywhere(fleet, paths, (a) => expect(a.join('\n')).toContain('After the outage'));
    for (const m of fleet) {
      const res = await post(m.port, '/api/alerts', {
        email: `after-${m.port}@example.com`,
        sourceId: 2,
        kind: 'below-base',
      });
      expect(res.status).toBe(202);
      expect((await health(m)).userData.available).toBe(true);
    }
  }, 120_000);
});

describe('three processes: the importer killed mid-import', () => {
  it('the published data stays whole and the next scheduled import completes on another process', async () => {
    const databaseUrl = await cluster.createDatabase();
    const dirA = await dataDir();
    const server = await replayAllFeeds(dirA, today());
    cleanups.push(() => server.close());
    // DeFiLlama answers each feed's /chart after 15 s (within the import's 20 s timeout): 18
    // feeds, 4 at a time, keep the first process mid-import for ~75 s.
    await answerAllFeeds(server, dirA, today(), 15_000);
    const env = fleetEnv(databaseUrl, server, '30s');
    const a = await startMachine(dirA, env);
    await vi.waitFor(
      () => expect(server.requests.some((r) => r.startsWith('/chart/'))).toBe(true),
      {
        timeout: 60_000,
        interval: 100,
      },
    );
    const others = await Promise.all([0, 1].map(async () => startMachine(await dataDir(), env)));
    const paths = [...PATHS, `/api/scanner/pools/${await firstPool(a)}/history`];
    const before = await sameEverywhere([a, ...others], paths, undefined, 30_000);
    const versions = await publishedVersions(databaseUrl);
    // Still importing: nothing but the first start's files published, the fleet's lock held.
    expect(Object.values(versions)).toEqual(Array(10).fill(1));
    expect(await fleetLockHeld(databaseUrl)).toBe(true);

    a.proc.kill('SIGKILL');
    await exited(a.proc);
    // Its advisory lock died with its session.
    await vi.waitFor(async () => expect(await fleetLockHeld(databaseUrl)).toBe(false), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await publishedVersions(databaseUrl)).toEqual(versions);
    for (const m of others) expect(differences(await answers(m, paths), before)).toEqual([]);

    // DeFiLlama answers at once again: the next scheduled round of B or C imports and publishes.
    await answerAllFeeds(server, dirA, today());
    await vi.waitFor(
      async () =>
        expect((await publishedVersions(databaseUrl))['import-status.json']).toBeGreaterThan(1),
      { timeout: 90_000, interval: 250 },
    );
    const after = await sameEverywhere(others, paths, notSample);
    expect(after).not.toEqual(before);

    // The killed machine started again serves the fleet's data from its first answer: what the
    // others served before it started or after its answer (B and C import every 30 s).
    const previous = await sameEverywhere(others, paths);
    const again = await startMachine(dirA, env);
    const first = await answers(again, paths);
    const current = await sameEverywhere(others, paths);
    notSample(first);
    expect([previous, current].map((a) => differences(first, a).length)).toContain(0);
  }, 300_000);
});
