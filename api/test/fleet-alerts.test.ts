/**
 * Alerts on live data only, once per crossing for the fleet (docs/decisions.md 45). The shipped
 * sample data is invented: no saver is e-mailed figures computed from it, neither by a site on its
 * files that has nothing else, nor by a fleet on PostgreSQL whose first process published the
 * sample before the first import, nor by a process started later from a data directory holding the
 * shipped sample files. Once live data crosses, each confirmed subscriber gets one e-mail per
 * crossing, whatever the number of processes evaluating it.
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { crossingsOf } from '../src/modules/alerts/crossings.ts';
import { memoryLogger } from '../src/platform/logger.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { importWith, NOW, POOL, replayAllFeeds, TODAY } from './import-fixtures.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { freshDatabase, startCluster } from './pg-cluster.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';
import { startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://alerts.example';
const HOUR = 3_600_000;
/** Sky Spark - Savings Account: below its base rate in the sample, fed by DeFiLlama's sUSDS pool. */
const SOURCE = 2;
/** The newest day of the shipped sample data. */
const SAMPLE_AS_OF = '2026-11-21';

const contexts: TestContext[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  const all = contexts.splice(0).reverse();
  for (const t of all) await t.deps.close();
  for (const t of all) await rm(t.dir, { recursive: true, force: true });
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** 60 days of a constant APY ending today, as DeFiLlama would answer. */
const constantApy = (apy: number) => ({
  kind: 'json' as const,
  body: chartBody(dailyPoints({ lastDay: TODAY, days: 60, apy, tvlUsd: 2e8 })),
});

const isAlert = (subject: string | undefined) => !(subject ?? '').startsWith('Confirm');
const alertsIn = (inbox: Inbox) => inbox.messages.filter((m) => isAlert(m.subject));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A confirmed subscription as the stores keep it (confirmed earlier, on another machine). */
const confirmedSubscription = (email: string, sourceId: number) => ({
  id: randomUUID(),
  email,
  sourceId,
  kind: 'below-base' as const,
  createdAt: '2026-11-01T00:00:00.000Z',
  confirmedAt: '2026-11-01T00:05:00.000Z',
});

describe('the crossings of the shipped sample', () => {
  it('none from its figures; the operators’ incident stays one', async () => {
    const t = await setup({ now: () => NOW, smtpUrl: '' });
    contexts.push(t);
    const sources = t.deps.store.get('sources')!;
    const series = t.deps.snapshot().series;
    const keys = sources.sources.flatMap((s) =>
      (['below-base', 'stale', 'warning', 'incident'] as const).flatMap((kind) =>
        crossingsOf(series, sources, s.id, kind).map((c) => c.key),
      ),
    );
    expect(series.get(String(SOURCE))!.provenance.kind).toBe('sample');
    expect(keys).toEqual(['incident:8:2026-03-22:exploit']);
  });
});

describe('a site on its files with only the sample data', () => {
  it('e-mails a confirmed subscriber nothing however many evaluations; one e-mail once live data crosses', async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const dir = await tempDataDir();
    // Its subscribers came with the site's alerts.json (a restore, or db:export-files).
    const sub = confirmedSubscription('saver@example.com', SOURCE);
    await writeFile(
      path.join(dir, 'alerts.json'),
      `${JSON.stringify({ subscriptions: [sub], deliveries: [] })}\n`,
    );
    const t = await setup({ dir, now: () => NOW, smtpUrl: inbox.url, publicUrl: PUBLIC_URL });
    contexts.push(t);
    for (let i = 0; i < 3; i++) await t.deps.alerts.evaluate();
    await t.deps.alerts.settled();
    expect(t.deps.store.get('alerts')!.deliveries).toEqual([]);
    expect(alertsIn(inbox)).toEqual([]);

    // The import brings live data, the source below its base rate: one e-mail, about it.
    const server = await replayAllFeeds(dir);
    cleanups.push(() => server.close());
    server.set(POOL.susds, constantApy(0.2));
    expect((await importWith(t, server)).written).toBe(true);
    await t.deps.alerts.evaluate();
    await t.deps.alerts.evaluate();
    await t.deps.alerts.settled();
    await inbox.waitFor((m) => m.filter((x) => isAlert(x.subject)).length >= 1);
    const mails = inbox.to('saver@example.com').filter((m) => isAlert(m.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`As of ${TODAY}`);
    expect(mails[0]!.text).not.toContain(SAMPLE_AS_OF);
    expect(t.deps.store.get('alerts')!.deliveries).toHaveLength(1);
  });
});

describe('a fleet on one PostgreSQL, three processes importing, a fourth started later', () => {
  it('no e-mail from the sample data the fleet started with, one per crossing of the live data, none from a late process with the sample files', async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    cleanups.push(() => db.end());
    // Savers confirmed before the fleet started (the site moved its subscribers to PostgreSQL).
    const emails = ['ann@example.com', 'bob@example.com', 'cat@example.com'];
    const users = await PgUserDataStore.open({
      connectionString: databaseUrl,
      logger: memoryLogger(),
      poolMax: 2,
    });
    for (const email of emails) {
      const { subscription } = await users.addAlertSubscription(
        confirmedSubscription(email, SOURCE),
      );
      await users.confirmAlertSubscription({ id: subscription.id, now: new Date(NOW) });
    }
    await users.close();

    const dirs = [await tempDataDir(), await tempDataDir(), await tempDataDir()];
    const server: ReplayServer = await replayAllFeeds(dirs[0]!);
    cleanups.push(() => server.close());
    server.set(POOL.susds, constantApy(0.2));
    const open = async (dir: string, importing: boolean) => {
      const t = await setup({
        dir,
        now: () => NOW,
        smtpUrl: inbox.url,
        publicUrl: PUBLIC_URL,
        databaseUrl,
        defillamaApiUrl: server.url,
        coinsApiUrl: server.url,
        poolBackfill: { top: 0 },
        mailOutbox: { drainIntervalMs: 100 },
        ...(importing ? { importIntervalMs: HOUR } : {}),
      });
      contexts.push(t);
      return t;
    };
    // The first process publishes its directory's sample as the fleet's data, evaluates at start.
    const fleet: TestContext[] = [];
    for (const dir of dirs) fleet.push(await open(dir, true));
    const imported = (t: TestContext) => {
      const s = t.deps.importSchedule!.state();
      return s.lastRunAt !== null && !s.running;
    };
    await until('the fleet imported', () => fleet.every(imported));
    expect(server.requests.filter((r) => r === '/pools' || r.startsWith('/pools?'))).toHaveLength(
      1,
    );

    // Every process serves the published import, then evaluates it.
    const historyVersion = async () =>
      Number(
        (
          await db.query(
            "SELECT max(version) AS v FROM published_documents WHERE name = 'history.json'",
          )
        ).rows[0].v,
      );
    const live = await historyVersion();
    expect(live).toBeGreaterThan(1);
    await until('every process serves the import', () =>
      fleet.every((t) => t.deps.published!.versionOf('history') === live),
    );
    await Promise.all(fleet.map((t) => t.deps.alerts.evaluate()));
    for (const t of fleet) await t.deps.alerts.settled();
    const pending = async () =>
      Number(
        (await db.query('SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL')).rows[0].n,
      );
    await inbox.waitFor((m) => m.filter((x) => isAlert(x.subject)).length >= emails.length, 30_000);
    await until('the outbox is drained', async () => (await pending()) === 0);

    // A fourth process, its directory holding the shipped sample files, evaluates at start.
    const late = await open(await tempDataDir(), false);
    expect(late.deps.published!.versionOf('history')).toBe(live);
    await late.deps.alerts.settled();
    await late.deps.alerts.evaluate();
    for (const t of fleet) await t.deps.alerts.evaluate();
    await until('the outbox is drained', async () => (await pending()) === 0);

    for (const email of emails) {
      const mails = inbox.to(email).filter((m) => isAlert(m.subject));
      expect(mails, email).toHaveLength(1);
      expect(mails[0]!.text).toContain(`As of ${TODAY}`);
      expect(mails[0]!.text).not.toContain(SAMPLE_AS_OF);
    }
    expect(alertsIn(inbox)).toHaveLength(emails.length);
    const ledger = await db.query('SELECT crossing FROM alert_deliveries');
    expect(new Set(ledger.rows.map((r: { crossing: string }) => r.crossing)).size).toBe(1);
    expect(ledger.rowCount).toBe(emails.length);
  }, 180_000);
});

describe('a process started while the database is down', () => {
  it('evaluates nothing before it has read the fleet’s published data, not its own directory’s files', async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const cluster = await startCluster();
    cleanups.push(() => cluster.destroy());
    const databaseUrl = await cluster.createDatabase();
    const server: ReplayServer = await replayAllFeeds(await tempDataDir());
    cleanups.push(() => server.close());
    const options = {
      now: () => NOW,
      smtpUrl: inbox.url,
      publicUrl: PUBLIC_URL,
      databaseUrl,
      defillamaApiUrl: server.url,
      coinsApiUrl: server.url,
      poolBackfill: { top: 0 },
      mailOutbox: { drainIntervalMs: 100 },
    };
    // The fleet's data: imported and published, the source above its base rate; a saver confirmed.
    server.set(POOL.susds, constantApy(12));
    const a = await setup({ ...options, importIntervalMs: HOUR });
    contexts.push(a);
    await until('the import', () => a.deps.importSchedule!.state().lastRunAt !== null);
    await a.deps.importSchedule!.stop();
    const { subscription } = await a.deps.userData.addAlertSubscription(
      confirmedSubscription('saver@example.com', SOURCE),
    );
    await a.deps.userData.confirmAlertSubscription({ id: subscription.id, now: new Date(NOW) });
    expect(await a.deps.alerts.evaluate()).toEqual({ sent: 0, failed: 0 });

    // Another machine's directory holds an import of its own, never published: the source below.
    const dir = await tempDataDir();
    server.set(POOL.susds, constantApy(0.2));
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const local = await runImportCli(
      ['--data-dir', dir, '--api-url', server.url, '--coins-api-url', server.url],
      env,
      () => NOW,
    );
    expect(local.exitCode, local.output).toBe(0);

    // It starts while the database is down (nothing cached): it serves its files meanwhile.
    await cluster.stop();
    const b = await setup({ ...options, dir, publishedPollMs: 0 }).finally(() => cluster.start());
    contexts.push(b);
    expect(b.deps.published!.installed()).toBe(false);
    // The database is back, the published data not read yet: no evaluation on those files.
    expect(await b.deps.alerts.evaluate()).toBeNull();
    expect(
      b.logger.lines.some((l) => l.message.includes('published data is not installed yet')),
    ).toBe(true);
    // Once read, it evaluates the fleet's data (by itself): nothing crossed there.
    await until('the published data is read', async () => {
      await b.deps.published!.check();
      return b.deps.published!.installed();
    });
    await new Promise((r) => setImmediate(r));
    await b.deps.alerts.settled();
    expect(await b.deps.alerts.evaluate()).toEqual({ sent: 0, failed: 0 });
    const pending = await a.deps.userData.listUndeliveredAlerts();
    expect(pending).toEqual([]);
    expect(alertsIn(inbox)).toEqual([]);
  }, 180_000);
});
