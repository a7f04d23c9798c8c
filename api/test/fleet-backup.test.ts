/**
 * Backing up and restoring a fleet with PostgreSQL's own tools (docs/deploy.md, "Backups"): the
 * database of two running processes, holding an import's published data, the pool histories,
 * subscribers and premium users, is dumped with `pg_dump --format=custom`, restored with
 * `pg_restore` into a new empty database, and a process started on the restored database (its own
 * data directory with the shipped sample) answers as the fleet did.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { runDb } from '../scripts/db.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { NOW, replayAllFeeds } from './import-fixtures.ts';
import { freshDatabase, postgresBinDir } from './pg-cluster.ts';

const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function dir(): Promise<string> {
  const d = await tempDataDir();
  cleanups.push(() => rm(d, { recursive: true, force: true }));
  return d;
}

/** An API process on its own data directory; DeFiLlama is the stand-in (no backfill). */
async function app(databaseUrl: string, llama: string, importing = false): Promise<TestContext> {
  const t = await setup({
    ...(importing ? { importIntervalMs: 3_600_000 } : {}),
    databaseUrl,
    dir: await dir(),
    now: () => NOW,
    defillamaApiUrl: llama,
    coinsApiUrl: llama,
    poolBackfill: { top: 0 },
  });
  cleanups.push(() => t.deps.close());
  return t;
}

const PATHS = ['/api/strategies', '/api/baserate', '/api/sources', '/api/settings', '/api/scanner'];

/** The published data's answers, a pool's history, and a premium user's report. */
async function answers(t: TestContext, pool: string, token: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of [...PATHS, `/api/scanner/pools/${pool}/history`]) {
    const res = await t.http.get(p);
    out.push(`${p} ${res.status} ${res.headers.etag} ${res.text}`);
  }
  const premium = await t.http
    .get('/api/premium/strategies/3')
    .set('Authorization', `Bearer ${token}`);
  out.push(`premium ${premium.status} ${premium.text}`);
  return out;
}

/** The user data of a database, as db:export-files writes it. */
async function userData(databaseUrl: string): Promise<Record<string, string>> {
  const target = await dir();
  const exported = await runDb(
    ['export-files', '--data-dir', target, '--database-url', databaseUrl],
    {},
  );
  expect(exported.exitCode, exported.output).toBe(0);
  const out: Record<string, string> = {};
  for (const file of ['mailing-list.json', 'invites.json', 'users.json', 'alerts.json'])
    out[file] = await readFile(path.join(target, file), 'utf8');
  const histories = await readdir(path.join(target, 'pool-history'), { recursive: true });
  out['pool-history'] = histories.sort().join(',');
  return out;
}

describe('a backup of the fleet with pg_dump, restored with pg_restore', () => {
  it('a process on the restored database serves the same published data, pool histories, subscribers and premium users', async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const server = await replayAllFeeds(await dir());
    cleanups.push(() => server.close());
    // The fleet's data: a scheduled import published (and its day of every pool's history),
    // subscribers, a premium user.
    const a = await app(databaseUrl, server.url, true);
    const b = await app(databaseUrl, server.url);
    const schedule = a.deps.importSchedule!;
    await vi.waitFor(
      () => expect(schedule.state().lastRunAt !== null && !schedule.state().running).toBe(true),
      { timeout: 30_000, interval: 50 },
    );
    for (const email of ['ann@example.com', 'bob@example.com'])
      await a.deps.userData.addSubscriber({ email, source: 'web', createdAt: NOW.toISOString() });
    await createInvite(b.deps.userData, { code: 'BACKUP-ME-1', maxUses: 5 });
    const login = await b.http
      .post('/api/premium')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ inviteCode: 'BACKUP-ME-1' }))
      .expect(200);
    const token = login.body.token as string;
    for (const t of [a, b]) await t.deps.published!.check();
    const scanner = (await a.http.get('/api/scanner').expect(200)).body as {
      items: { pool: string }[];
    };
    const pool = scanner.items[0]!.pool;
    // Opening the history asks for its backfill once; then every process answers it as tried.
    await vi.waitFor(
      async () =>
        expect((await a.http.get(`/api/scanner/pools/${pool}/history`)).body).toMatchObject({
          backfill: 'recent',
        }),
      { timeout: 10_000, interval: 50 },
    );
    const before = await answers(a, pool, token);
    expect(await answers(b, pool, token)).toEqual(before);
    expect(before.join('\n')).not.toContain('"kind":"sample"');
    expect(before.at(-2)).toMatch(/history 200 .*"days":\[\{"date":"2026-11-23"/);
    expect(before.at(-1)).toMatch(/^premium 200 /);

    // The commands of docs/deploy.md, while the fleet runs.
    const bin = postgresBinDir();
    const backup = path.join(await dir(), 'pigi.dump');
    await run(path.join(bin, 'pg_dump'), ['--format=custom', `--file=${backup}`, databaseUrl]);
    const restoredUrl = await freshDatabase(inject('pgBaseUrl'));
    await run(path.join(bin, 'pg_restore'), [
      '--no-owner',
      '--exit-on-error',
      `--dbname=${restoredUrl}`,
      backup,
    ]);

    const restored = await app(restoredUrl, server.url);
    expect(await answers(restored, pool, token)).toEqual(before);
    expect(await userData(restoredUrl)).toEqual(await userData(databaseUrl));
    const users = JSON.parse((await userData(restoredUrl))['users.json']!) as { users: unknown[] };
    expect(users.users).toHaveLength(1);
  }, 120_000);
});
