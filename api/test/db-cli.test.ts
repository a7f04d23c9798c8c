/**
 * The operator commands on PostgreSQL: db:migrate (also from several processes at once),
 * db:import-files (rerun-safe), db:export-files (back to files) and invite:create with
 * DATABASE_URL, on the run's throwaway cluster; a file-store site with imported data moved to
 * the database serves the same answers.
 */
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runCreateInvite } from '../scripts/create-invite.ts';
import { runDb } from '../scripts/db.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { openStore } from '../src/composition/data-files.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import { migrate, migrationFiles } from '../src/platform/pg/migrate.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { createInvite, findInvite } from '../src/modules/premium/invite-codes.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { NOW, replayAllFeeds } from './import-fixtures.ts';
import { freshDatabase } from './pg-cluster.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function dir(): Promise<string> {
  const d = await tempDataDir();
  cleanups.push(() => rm(d, { recursive: true, force: true }));
  return d;
}

async function pgStore(url: string): Promise<PgUserDataStore> {
  const s = await PgUserDataStore.open({ connectionString: url, logger: silentLogger });
  cleanups.push(() => s.close());
  return s;
}

const readJsonFile = async (d: string, f: string) =>
  JSON.parse(await readFile(path.join(d, f), 'utf8')) as unknown;

describe('database commands', () => {
  it('db:migrate applies each migration once, also when processes start together', async () => {
    const url = await freshDatabase(inject('pgBaseUrl'));
    const versions = (await migrationFiles()).map(([v]) => v);
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    const applied = await Promise.all(pools.map((p) => migrate(p, silentLogger)));
    // One of them applied everything, the others waited and found nothing to do.
    expect(applied.flat()).toEqual(versions);
    const rows = await pools[0]!.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.rows.map((r: { version: string }) => r.version)).toEqual(versions);
    await Promise.all(pools.map((p) => p.end()));
    expect(await runDb(['migrate'], { DATABASE_URL: url })).toEqual({
      exitCode: 0,
      output: 'The database schema is up to date.',
    });
    const fresh = await freshDatabase(inject('pgBaseUrl'));
    expect(await runDb(['migrate', '--database-url', fresh], {})).toEqual({
      exitCode: 0,
      output: `Applied: ${versions.join(', ')}`,
    });
    expect((await runDb(['migrate'], {})).exitCode).toBe(2);
  });

  it('db:import-files copies the user data in, once however often it runs; export-files writes it back', async () => {
    const source = await dir();
    const files = openStore(source, silentLogger);
    const fileStore = await FileUserDataStore.open(files, { logger: silentLogger, owner: true });
    await files.loadAll();
    const at = '2026-03-01T10:00:00.000Z';
    for (const email of ['Ann@Example.com', 'bob@example.com'])
      await fileStore.addSubscriber({ email, source: 'web', createdAt: at });
    const { invite } = await createInvite(fileStore, { code: 'MOVE-ME-123', maxUses: 3 });
    const now = new Date(at);
    const user = { inviteId: invite.id, email: null, createdAt: at, lastLoginAt: at };
    await fileStore.redeemInvite({ inviteId: invite.id, user: { ...user, userId: 'u1' }, now });
    await fileStore.redeemInvite({ inviteId: invite.id, user: { ...user, userId: 'u2' }, now });
    // Alert subscriptions and their ledger: one confirmed with a sent alert and one recorded but
    // not sent yet (a crash between recording and sending), one never confirmed.
    const alertSub = (id: string, email: string) => ({
      id,
      email,
      sourceId: 3,
      kind: 'incident' as const,
      createdAt: at,
      confirmedAt: null,
    });
    await fileStore.addAlertSubscription(alertSub('alert-1', 'Dora@Example.com'));
    await fileStore.addAlertSubscription(alertSub('alert-2', 'eve@example.com'));
    await fileStore.confirmAlertSubscription({ id: 'alert-1', now });
    const delivery = (crossing: string, minute: number) => ({
      subscriptionId: 'alert-1',
      crossing,
      recordedAt: `2026-03-01T10:0${minute}:00.000Z`,
      sentAt: null,
    });
    await fileStore.recordAlertDelivery(delivery('incident:3:2026-02-27:hack', 1));
    await fileStore.markAlertDelivered({
      subscriptionId: 'alert-1',
      crossing: 'incident:3:2026-02-27:hack',
      sentAt: new Date('2026-03-01T10:01:30.000Z'),
    });
    await fileStore.recordAlertDelivery(delivery('incident:3:2026-02-28:depeg', 2));
    // Left in the journal (not folded, as if that server had been killed): the command replays it.
    await fileStore.addSubscriber({ email: 'carl@example.com', source: 'web', createdAt: at });

    const url = await freshDatabase(inject('pgBaseUrl'));
    const env = { DATABASE_URL: url, DATA_DIR: source };
    const first = await runDb(['import-files'], env);
    expect(first.exitCode).toBe(0);
    expect(first.output).toContain('mailing list: 3 added (3 in the file)');
    expect(first.output).toContain('invites:      1 added (1 in the file)');
    expect(first.output).toContain('users:        2 added (2 in the file)');
    expect(first.output).toContain('alerts:       2 added (2 in the file)');
    expect(first.output).toContain('alert ledger: 2 added (2 in the file)');
    const again = await runDb(['import-files'], env);
    expect(again.output).toContain('mailing list: 0 added');
    expect(again.output).toContain('invites:      0 added');
    expect(again.output).toContain('users:        0 added');
    expect(again.output).toContain('alerts:       0 added');
    expect(again.output).toContain('alert ledger: 0 added');
    // The command only read the journal; the server (still running) folds it into the files.
    await fileStore.compact();

    const db = await pgStore(url);
    expect(
      await db.addSubscriber({ email: 'ANN@example.com', source: 'x', createdAt: at }),
    ).toEqual({ created: false });
    expect((await db.listInvites())[0]!.uses).toBe(2);
    const found = await findInvite(db, 'move-me-123');
    expect(found?.id).toBe(invite.id);
    // The imported invite keeps counting: one use left.
    const redeem = (userId: string) =>
      db.redeemInvite({ inviteId: invite.id, user: { ...user, userId }, now });
    expect((await redeem('u3')).ok).toBe(true);
    expect(await redeem('u4')).toEqual({ ok: false, reason: 'exhausted' });
    // The alerts came along: the confirmed subscription is evaluated, the sent alert is not sent
    // again, the one recorded but not sent is retried; the same address in another case is the
    // existing subscription.
    expect((await db.listConfirmedAlertSubscriptions()).map((a) => a.id)).toEqual(['alert-1']);
    expect(await db.recordAlertDelivery(delivery('incident:3:2026-02-27:hack', 5))).toBe(false);
    expect(await db.listUndeliveredAlerts()).toEqual([delivery('incident:3:2026-02-28:depeg', 2)]);
    expect(await db.addAlertSubscription(alertSub('alert-9', 'EVE@example.com'))).toMatchObject({
      created: false,
      subscription: { id: 'alert-2' },
    });
    const exportedAlerts = await readJsonFile(source, 'alerts.json');
    await db.markAlertDelivered({
      subscriptionId: 'alert-1',
      crossing: 'incident:3:2026-02-28:depeg',
      sentAt: new Date('2026-03-01T11:00:00.000Z'),
    });

    const target = await dir();
    const exported = await runDb(['export-files', '--data-dir', target], { DATABASE_URL: url });
    expect(exported.exitCode).toBe(0);
    // The exports hold addresses: owner-only, like the files the server writes.
    for (const file of ['mailing-list.json', 'invites.json', 'users.json', 'alerts.json'])
      expect((await stat(path.join(target, file))).mode & 0o777, file).toBe(0o600);
    expect(await readJsonFile(target, 'mailing-list.json')).toEqual(
      await readJsonFile(source, 'mailing-list.json'),
    );
    expect(await readJsonFile(target, 'invites.json')).toEqual({
      invites: [{ ...invite, uses: 3 }],
    });
    const users = (await readJsonFile(target, 'users.json')) as { users: { userId: string }[] };
    expect(users.users.map((u) => u.userId)).toEqual(['u1', 'u2', 'u3']);
    expect(exported.output).toContain('alerts.json:       2 alert subscriptions, 2 entries');
    const alertsFile = exportedAlerts as { deliveries: { sentAt: string | null }[] };
    alertsFile.deliveries[1]!.sentAt = '2026-03-01T11:00:00.000Z';
    expect(await readJsonFile(target, 'alerts.json')).toEqual(alertsFile);
    // A file-store server on the exported files sees the same data.
    const back = openStore(target, silentLogger);
    const backStore = await FileUserDataStore.open(back, { logger: silentLogger, owner: true });
    await back.loadAll();
    cleanups.push(() => backStore.close());
    expect(
      await backStore.addSubscriber({ email: 'CARL@example.com', source: 'x', createdAt: at }),
    ).toEqual({ created: false });
    expect(
      await backStore.redeemInvite({ inviteId: invite.id, user: { ...user, userId: 'u5' }, now }),
    ).toEqual({ ok: false, reason: 'exhausted' });
    expect(await backStore.listUndeliveredAlerts()).toEqual([]);
    expect((await backStore.listConfirmedAlertSubscriptions()).map((a) => a.id)).toEqual([
      'alert-1',
    ]);
  });

  it('invite:create with DATABASE_URL stores the code in PostgreSQL, not in invites.json', async () => {
    const data = await dir();
    const url = await freshDatabase(inject('pgBaseUrl'));
    const env = { DATABASE_URL: url, DATA_DIR: data };
    const created = await runCreateInvite(['--code', 'PG-CODE-12345', '--max-uses', '2'], env);
    expect(created.exitCode).toBe(0);
    expect(created.output).toContain('stored:   PostgreSQL (DATABASE_URL)');
    expect(await readJsonFile(data, 'invites.json')).toEqual({ invites: [] });
    const db = await pgStore(url);
    const invite = await findInvite(db, 'pg-code-12345');
    expect(invite).toMatchObject({ maxUses: 2, uses: 0 });
    const repeat = await runCreateInvite(['--code', 'PG-CODE-12345'], env);
    expect(repeat).toEqual({
      exitCode: 0,
      output:
        'Invite code PG-CODE-12345 already exists in PostgreSQL (DATABASE_URL); nothing changed.',
    });
    expect(await db.listInvites()).toHaveLength(1);
  });

  it('db:import-files moves a file-store site with imported data: a process on the database serves the same answers', async () => {
    // A file-store site that imported live data (no DATABASE_URL).
    const site = await dir();
    const server = await replayAllFeeds(site);
    cleanups.push(() => server.close());
    const imported = await runImportCli(
      ['--data-dir', site, '--api-url', server.url, '--coins-api-url', server.url],
      { DATABASE_URL: '' },
      () => NOW,
    );
    expect(imported.exitCode, imported.output).toBe(0);
    const paths = ['/api/strategies', '/api/sources', '/api/scanner', '/api/baserate'];
    const answers = async (t: TestContext) => {
      const out: string[] = [];
      for (const p of paths) {
        const res = await t.http.get(p);
        out.push(`${p} ${res.status} ${res.text}`);
      }
      return out;
    };
    const fileSite = await setup({ dir: site, now: () => NOW });
    const before = await answers(fileSite);
    await fileSite.deps.close();
    expect(before.join('\n')).not.toContain('"kind":"sample"');

    const url = await freshDatabase(inject('pgBaseUrl'));
    const moved = await runDb(['import-files', '--data-dir', site, '--database-url', url], {});
    expect(moved.exitCode, moved.output).toBe(0);
    expect(moved.output).toContain('history.json: published v1');
    expect(moved.output).toContain('pools.json: published v1');
    // A new machine of the fleet, its directory holding the shipped sample: the site's answers.
    const machine = await dir();
    const onDb = await setup({ databaseUrl: url, dir: machine, now: () => NOW });
    cleanups.push(() => onDb.deps.close());
    expect(await answers(onDb)).toEqual(before);

    // A rerun publishes nothing; a file that differs from the fleet's is refused, nothing
    // imported, unless replaced on purpose; an invalid file is refused.
    // A runtime file missing from the directory leaves the published one.
    await rm(path.join(site, 'prices.json'));
    const again = await runDb(['import-files', '--data-dir', site, '--database-url', url], {});
    expect(again.exitCode, again.output).toBe(0);
    expect(again.output).toContain('settings.json: unchanged (v1)');
    expect(again.output).toContain('prices.json: not in the directory, left as published (v1)');
    const settingsFile = path.join(site, 'settings.json');
    const settings = JSON.parse(await readFile(settingsFile, 'utf8')) as Record<string, unknown>;
    await writeFile(settingsFile, JSON.stringify({ ...settings, siteTitle: 'Older copy' }));
    await writeFile(
      path.join(site, 'mailing-list.json'),
      '{"entries":[{"email":"new@example.com","createdAt":"2026-11-01T00:00:00.000Z","source":"web"}]}',
    );
    const stale = await runDb(['import-files', '--data-dir', site, '--database-url', url], {});
    expect(stale.exitCode).toBe(1);
    expect(stale.output).toContain("settings.json: refused: the fleet's v1");
    expect(stale.output).toContain('Nothing imported');
    const db = await pgStore(url);
    expect(
      await db.addSubscriber({
        email: 'new@example.com',
        source: 'x',
        createdAt: '2026-11-02T00:00:00.000Z',
      }),
    ).toEqual({ created: true });
    const sourcesFile = path.join(site, 'sources.json');
    const sourcesText = await readFile(sourcesFile, 'utf8');
    await writeFile(sourcesFile, '{"sources": 3}');
    const invalid = await runDb(
      ['import-files', '--data-dir', site, '--database-url', url, '--replace-published'],
      {},
    );
    expect(invalid.exitCode).toBe(1);
    expect(invalid.output).toMatch(/sources\.json: refused: sources\.json: /);
    expect((await onDb.http.get('/api/settings')).text).not.toContain('Older copy');
    await writeFile(sourcesFile, sourcesText);
    const replaced = await runDb(
      ['import-files', '--data-dir', site, '--database-url', url, '--replace-published'],
      {},
    );
    expect(replaced.exitCode, replaced.output).toBe(0);
    expect(replaced.output).toContain('settings.json: published v1 → v2');
    await onDb.deps.published!.check();
    expect((await onDb.http.get('/api/settings')).text).toContain('Older copy');

    // Back to files: the published versions are the directory's files.
    const back = await dir();
    const exported = await runDb(['export-files', '--data-dir', back, '--database-url', url], {});
    expect(exported.exitCode, exported.output).toBe(0);
    expect(exported.output).toContain('settings.json: v2');
    for (const file of ['settings.json', 'history.json', 'pools.json', 'import-status.json'])
      expect(await readFile(path.join(back, file), 'utf8'), file).toBe(
        await readFile(path.join(site, file), 'utf8'),
      );
  }, 120_000);
});
