/**
 * The e-mail outbox with the user data in PostgreSQL (api/src/modules/alerts/pg-outbox.ts), on a
 * real database and a real SMTP server in this process: a confirmation asked on a process whose
 * mail server fails, and which then stops, is delivered by another process; a process killed
 * while its mail server holds the message loses nothing (another process sends it, once); two
 * processes draining one outbox send each message once; a process stuck mid-send loses its claim
 * when its lease expires; an alert's e-mail marks its delivery in the ledger sent, once, and one
 * given up is due again when the next evaluation hands it over; a mail server that keeps failing gets
 * the tries of the backoff (30 s, 2 min, 10 min, on an injected clock), then the e-mail is given
 * up, logged and counted, and its row is deleted 7 days later.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { createMailer, type OutgoingMail } from '../src/modules/alerts/mailer.ts';
import { PgMailOutbox } from '../src/modules/alerts/pg-outbox.ts';
import { memoryLogger, silentLogger } from '../src/platform/logger.ts';
import { exited, post, startApi } from './api-process.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { freePort, freshDatabase } from './pg-cluster.ts';
import { linkIn, startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://outbox.example';

const procs: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
  for (const c of cleanups.splice(0).reverse()) await c();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function inbox(): Promise<Inbox> {
  const box = await startInbox();
  cleanups.push(() => box.close());
  return box;
}

/** A database of its own, and a connection of the test to read the outbox. */
async function database(): Promise<{ url: string; db: pg.Pool }> {
  const url = await freshDatabase(inject('pgBaseUrl'));
  const db = new pg.Pool({ connectionString: url, max: 2 });
  cleanups.push(() => db.end());
  return { url, db };
}

/** An SMTP URL where nothing listens: every send is refused. */
const refusingSmtp = async () => `smtp://alerts:pass@127.0.0.1:${await freePort()}`;

async function site(options: Parameters<typeof setup>[0]): Promise<TestContext> {
  const t = await setup({ publicUrl: PUBLIC_URL, ...options });
  cleanups.push(() => t.cleanup());
  return t;
}

const subscribe = (t: TestContext, email: string) =>
  t.http
    .post('/api/alerts')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ email, sourceId: 3, kind: 'incident' }));

interface OutboxRow {
  attempts: number;
  sent_at: Date | null;
  failed_at: Date | null;
}
const rows = async (db: pg.Pool) =>
  (
    await db.query<OutboxRow>(
      'SELECT attempts, sent_at, failed_at, last_error FROM mail_outbox ORDER BY id',
    )
  ).rows;

describe('the e-mail outbox in PostgreSQL', () => {
  it('a confirmation asked on a process whose mail server fails is sent by another once that one stopped', async () => {
    const box = await inbox();
    const { url, db } = await database();
    const a = await setup({
      databaseUrl: url,
      smtpUrl: await refusingSmtp(),
      publicUrl: PUBLIC_URL,
      mailOutbox: { retryDelaysMs: [300, 300], drainIntervalMs: 100 },
    });
    await subscribe(a, 'saver@example.com').expect(202);
    await a.deps.alerts.settled();
    expect(a.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'confirmation e-mail not sent, tried again later',
      }),
    );
    await a.cleanup();

    await site({ databaseUrl: url, smtpUrl: box.url, mailOutbox: { drainIntervalMs: 100 } });
    await box.waitFor((m) => m.length === 1);
    linkIn(box.to('saver@example.com')[0]!, `${PUBLIC_URL}/api/alerts/confirm?`);
    await pause(500);
    expect(box.messages).toHaveLength(1);
    const [row, ...more] = await rows(db);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ sent_at: expect.any(Date), failed_at: null });
    expect(row!.attempts).toBeGreaterThanOrEqual(2);
  });

  it('a process killed while its mail server holds the message: another process sends it, once', async () => {
    const box = await inbox();
    const { url, db } = await database();
    const machine = async (name: string) => {
      const dir = await tempDataDir();
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const port = await freePort();
      const env = {
        DATABASE_URL: url,
        SMTP_URL: box.url,
        PUBLIC_URL,
        MAIL_FROM: `${name}@outbox.example`,
        DATA_POLL_MS: '0',
      };
      const proc = await startApi(dir, port, env);
      procs.push(proc);
      return { proc, port };
    };
    const a = await machine('a');
    box.hold();
    expect((await post(a.port, '/api/addToMailList', { email: 'reader@example.com' })).status).toBe(
      202,
    );
    await box.waitFor(() => box.held.length === 1);
    expect(box.held).toEqual(['a@outbox.example']);
    a.proc.kill('SIGKILL');
    await exited(a.proc);
    // Released once the mail server has seen the sender hang up: that message is never accepted.
    const end = Date.now() + 10_000;
    while (!box.heldHungUp() && Date.now() < end) await pause(50);
    box.release();
    expect(box.messages).toEqual([]);

    await machine('b');
    await box.waitFor((m) => m.length === 1);
    linkIn(box.to('reader@example.com')[0]!, `${PUBLIC_URL}/api/mailing-list/confirm?`);
    await pause(1500);
    expect(box.messages).toHaveLength(1);
    expect(await rows(db)).toEqual([expect.objectContaining({ sent_at: expect.any(Date) })]);
  }, 60_000);

  it('a process stuck mid-send loses its claim when the lease expires: another process sends it', async () => {
    const box = await inbox();
    const { url, db } = await database();
    const dir = await tempDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await setup({
      dir,
      databaseUrl: url,
      smtpUrl: box.url,
      publicUrl: PUBLIC_URL,
      mailOutbox: { leaseMs: 500, drainIntervalMs: 100 },
    });
    // Its mail server never answers (nor times out): the send hangs with the row claimed.
    let tries = 0;
    a.deps.alerts.ctx.mailer.send = () => {
      tries++;
      return new Promise<void>(() => undefined);
    };
    await subscribe(a, 'patient@example.com').expect(202);
    while (tries === 0) await pause(20);

    await site({ databaseUrl: url, smtpUrl: box.url, mailOutbox: { drainIntervalMs: 100 } });
    await box.waitFor((m) => m.length === 1);
    expect(box.to('patient@example.com')).toHaveLength(1);
    expect(await rows(db)).toEqual([expect.objectContaining({ sent_at: expect.any(Date) })]);
    expect(tries).toBe(1);
    // The stuck process stops its timers; its claimed connection is left to the server.
    a.deps.alerts.close();
  });

  it('two processes draining one outbox send each e-mail once', async () => {
    const box = await inbox();
    const { url, db } = await database();
    // The table is made by the store's migrations; 30 e-mails wait in it before the two start.
    await (await PgUserDataStore.open({ connectionString: url, logger: silentLogger })).close();
    const waiting = Array.from({ length: 30 }, (_, i) => `waiting${i}@example.com`);
    for (const to of waiting)
      await db.query(
        `INSERT INTO mail_outbox (kind, message, created_at, next_attempt_at)
         VALUES ('mailing-list confirmation', $1, now(), now())`,
        [
          JSON.stringify({
            from: 'site@outbox.example',
            to,
            subject: 'Hello',
            text: 'Hi',
            html: '<p>Hi</p>',
          }),
        ],
      );
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        site({ databaseUrl: url, smtpUrl: box.url, mailOutbox: { drainIntervalMs: 20 } }),
      ),
    );
    // And ten more asked on both at once.
    const asked = Array.from({ length: 10 }, (_, i) => `asked${i}@example.com`);
    await Promise.all(asked.map((email, i) => subscribe(i % 2 ? a! : b!, email).expect(202)));
    await box.waitFor((m) => m.length >= 40, 20_000);
    await Promise.all([a!.deps.alerts.settled(), b!.deps.alerts.settled()]);
    await pause(300);
    for (const email of [...waiting, ...asked]) expect(box.to(email), email).toHaveLength(1);
    expect(box.messages).toHaveLength(40);
    const all = await rows(db);
    expect(all).toHaveLength(40);
    expect(all.every((r) => r.sent_at !== null && r.attempts === 1)).toBe(true);
  });

  it('an alert e-mail marks its delivery sent when sent, once; one given up is written again by the next evaluation', async () => {
    const box = await inbox();
    const { url, db } = await database();
    const store = await PgUserDataStore.open({ connectionString: url, logger: silentLogger });
    cleanups.push(() => store.close());
    const smtp = createMailer({ smtpUrl: box.url, dataDir: '/nonexistent' });
    let refuse = true;
    const mailer = {
      target: smtp.target,
      close: () => smtp.close(),
      send: (mail: OutgoingMail) =>
        refuse ? Promise.reject(new Error('refused')) : smtp.send(mail),
    };
    const logger = memoryLogger();
    // No retries: the first failure gives the e-mail up.
    const outbox = new PgMailOutbox({
      db: store.connection,
      mailer,
      logger,
      retryDelaysMs: [],
      drainIntervalMs: 3_600_000,
    }).start();
    cleanups.push(async () => outbox.close());
    // The evaluation records the delivery in the ledger, then hands the e-mail over.
    await db.query(
      "INSERT INTO alert_deliveries (subscription_id, crossing, recorded_at) VALUES ('sub-1', 'c-1', now())",
    );
    const delivery = { subscriptionId: 'sub-1', crossing: 'c-1' };
    const mail = {
      from: 'alerts@outbox.example',
      to: 'saver@example.com',
      subject: 'Below its base rate',
      text: 'An alert',
      html: '<p>An alert</p>',
    };
    const ledger = async () =>
      (await db.query<{ sent_at: Date | null }>('SELECT sent_at FROM alert_deliveries')).rows;
    await outbox.deliverAlert(delivery, mail);
    await outbox.settled();
    expect(await ledger()).toEqual([{ sent_at: null }]);
    expect(await rows(db)).toEqual([expect.objectContaining({ failed_at: expect.any(Date) })]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'alert e-mail not sent, given up' }),
    );

    // The next evaluations find the delivery unsent and hand it over again: one row, due again.
    refuse = false;
    await outbox.deliverAlert(delivery, mail);
    await outbox.deliverAlert(delivery, mail);
    await outbox.settled();
    expect(box.to('saver@example.com')).toHaveLength(1);
    expect(await ledger()).toEqual([{ sent_at: expect.any(Date) }]);
    expect(await rows(db)).toEqual([expect.objectContaining({ sent_at: expect.any(Date) })]);
    // Once sent, handing it over again sends nothing.
    await outbox.deliverAlert(delivery, mail);
    await outbox.settled();
    await pause(200);
    expect(box.messages).toHaveLength(1);
  });

  it('a mail server that keeps failing: tries after 30 s, 2 min and 10 min, then given up; deleted 7 days later', async () => {
    const { url, db } = await database();
    let at = Date.parse('2026-11-29T03:00:00Z');
    const t = await site({
      databaseUrl: url,
      smtpUrl: await refusingSmtp(),
      // Drained only when woken (a hand-over, settled()), at the injected time.
      mailOutbox: { now: () => new Date(at), drainIntervalMs: 3_600_000 },
    });
    await subscribe(t, 'unlucky@example.com').expect(202);
    const drainAfter = async (seconds: number) => {
      at += seconds * 1000;
      await t.deps.alerts.settled();
      const [row] = await rows(db);
      return row!;
    };
    expect((await drainAfter(0)).attempts).toBe(1);
    expect((await drainAfter(29)).attempts).toBe(1);
    expect((await drainAfter(1)).attempts).toBe(2);
    expect((await drainAfter(119)).attempts).toBe(2);
    expect((await drainAfter(1)).attempts).toBe(3);
    expect((await drainAfter(599)).attempts).toBe(3);
    const last = await drainAfter(1);
    expect(last).toMatchObject({ attempts: 4, sent_at: null, failed_at: new Date(at) });
    expect((await drainAfter(86_400)).attempts).toBe(4);

    const lines = t.logger.lines.filter((l) =>
      l.message.startsWith('confirmation e-mail not sent'),
    );
    expect(lines.map((l) => [l.level, l.fields?.inSeconds ?? l.fields?.tries])).toEqual([
      ['warn', 30],
      ['warn', 120],
      ['warn', 600],
      ['error', 4],
    ]);
    const metrics = (await t.deps.metrics.text()).body;
    expect(metrics).toContain('yield_emails_total{kind="confirmation",outcome="retried"} 3');
    expect(metrics).toContain('yield_emails_total{kind="confirmation",outcome="failed"} 1');

    // Kept 7 days after it was given up (it holds an address), then deleted.
    expect(await rows(db)).toHaveLength(1);
    await drainAfter(6 * 86_400 + 60);
    expect(await rows(db)).toEqual([]);
  });
});
