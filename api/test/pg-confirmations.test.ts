/**
 * Confirmation e-mails and the e-mailed links with the user data in PostgreSQL: the caps hold
 * for two API processes sharing one database (each asked at once), and with the database stopped
 * the e-mailed links answer their 503 HTML page (Retry-After), the writes their JSON 503, and
 * nothing is logged with a stack trace. Premium sign-in links: spent once, their e-mails counted
 * in their own scope, carried by db:import-files and db:export-files. The cluster is this suite's
 * own, since it is stopped.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { startApi } from './api-process.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { freePort, startCluster, type PgCluster } from './pg-cluster.ts';
import { linkIn, startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://alerts.example';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.destroy();
});

const procs: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
  for (const c of cleanups.splice(0).reverse()) await c();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function machine(databaseUrl: string, inbox: Inbox) {
  const dir = await tempDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const port = await freePort();
  procs.push(
    await startApi(dir, port, {
      DATABASE_URL: databaseUrl,
      SMTP_URL: inbox.url,
      PUBLIC_URL,
      DATA_POLL_MS: '0',
    }),
  );
  return port;
}

const postTo = (port: number, apiPath: string, body: unknown) =>
  fetch(`http://127.0.0.1:${port}${apiPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('two processes on one PostgreSQL', () => {
  it('cannot exceed the caps together', async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const databaseUrl = await cluster.createDatabase();
    const ports = await Promise.all([machine(databaseUrl, inbox), machine(databaseUrl, inbox)]);

    // 25 requests for one address, source and kind, spread over both processes at once.
    const same = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        postTo(ports[i % 2]!, '/api/alerts', {
          email: 'bomb@example.com',
          sourceId: 3,
          kind: 'below-base',
        }),
      ),
    );
    expect(same.map((r) => r.status)).toEqual(Array(25).fill(202));
    // Six sources and the mailing list, each asked on both processes at once.
    const many = await Promise.all(
      [3, 2, 4, 5, 6, 7].flatMap((sourceId) =>
        ports.map((port) =>
          postTo(port, '/api/alerts', { email: 'many@example.com', sourceId, kind: 'incident' }),
        ),
      ),
    );
    expect(many.every((r) => r.status === 202)).toBe(true);
    const list = await Promise.all(
      ports.map((port) => postTo(port, '/api/addToMailList', { email: 'many@example.com' })),
    );
    expect(list.every((r) => r.status === 202)).toBe(true);

    await inbox.waitFor(
      () => inbox.to('bomb@example.com').length >= 1 && inbox.to('many@example.com').length >= 5,
      20_000,
    );
    await pause(1500);
    expect(inbox.to('bomb@example.com')).toHaveLength(1);
    expect(inbox.to('many@example.com')).toHaveLength(5);
  }, 120_000);
});

describe('PostgreSQL stopped', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await cluster.start().catch(() => undefined);
    await t?.cleanup();
    t = undefined;
  });

  it('the e-mailed links answer the 503 page, the writes their JSON 503, no stack is logged', async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const databaseUrl = await cluster.createDatabase();
    t = await setup({ databaseUrl, smtpUrl: inbox.url, publicUrl: PUBLIC_URL });
    const post = (url: string, body: unknown) =>
      t!.http.post(url).set('Content-Type', 'application/json').send(JSON.stringify(body));
    await post('/api/alerts', { email: 'saver@example.com', sourceId: 3, kind: 'incident' }).expect(
      202,
    );
    await post('/api/addToMailList', { email: 'reader@example.com' }).expect(202);
    await t.deps.alerts.settled();
    await inbox.waitFor((m) => m.length === 2);
    const alertLink = linkIn(
      inbox.to('saver@example.com')[0]!,
      `${PUBLIC_URL}/api/alerts/confirm?`,
    );
    const listLink = linkIn(
      inbox.to('reader@example.com')[0]!,
      `${PUBLIC_URL}/api/mailing-list/confirm?`,
    );
    const local = (link: URL) => `${link.pathname}${link.search}`;

    await cluster.stop();
    for (let click = 0; click < 3; click++) {
      const res = await t.http.get(local(alertLink));
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['retry-after']).toBe('5');
      expect(res.text).toContain('Try again later');
    }
    const listPage = await t.http.get(local(listLink));
    expect(listPage.status).toBe(503);
    expect(listPage.headers['content-type']).toContain('text/html');
    const unsubscribe = await t.http.get(
      local(linkIn(inbox.to('saver@example.com')[0]!, `${PUBLIC_URL}/api/alerts/unsubscribe?`)),
    );
    expect(unsubscribe.status).toBe(503);
    expect(unsubscribe.headers['content-type']).toContain('text/html');

    for (const [url, body] of [
      ['/api/alerts', { email: 'new@example.com', sourceId: 3, kind: 'incident' }],
      ['/api/addToMailList', { email: 'new@example.com' }],
    ] as const) {
      const res = await post(url, body);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
    }
    const oneClick = await t.http.post(
      local(linkIn(inbox.to('saver@example.com')[0]!, `${PUBLIC_URL}/api/alerts/unsubscribe?`)),
    );
    expect(oneClick.status).toBe(503);
    expect(oneClick.body).toMatchObject({ error: { code: 'unavailable' } });

    // The outage is logged (once, by the store); no line carries a stack trace.
    expect(t.logger.lines.filter((l) => l.fields && 'stack' in l.fields)).toEqual([]);
    expect(t.logger.lines.filter((l) => l.level === 'error').length).toBeLessThanOrEqual(1);

    // Back up: the link confirms.
    await cluster.start();
    await pause(1100);
    const back = await t.http.get(local(alertLink));
    expect(back.status).toBe(200);
    expect(back.text).toContain('Alert confirmed');
  }, 120_000);
});

describe('db:import-files and db:export-files', () => {
  it('carry the confirmation state of sign-ups and subscriptions and the caps record, once', async () => {
    const store = await PgUserDataStore.open({
      connectionString: await cluster.createDatabase(),
      logger: silentLogger,
    });
    cleanups.push(() => store.close());
    const T0 = '2026-11-20T08:00:00.000Z';
    const T1 = '2026-11-20T09:00:00.000Z';
    const files = {
      mailingList: {
        entries: [
          // From a file written before confirmations: counts as confirmed.
          { email: 'old@example.com', createdAt: T0, source: 'website' },
          {
            email: 'pending@example.com',
            createdAt: T0,
            source: 'newsletter',
            id: 'list-1',
            confirmedAt: null,
            mailedAt: T0,
          },
          {
            email: 'yes@example.com',
            createdAt: T0,
            source: 'newsletter',
            id: 'list-2',
            confirmedAt: T1,
            mailedAt: T0,
          },
        ],
      },
      invites: { invites: [] },
      users: { users: [] },
      alerts: {
        subscriptions: [
          {
            id: 'alert-1',
            email: 'pending@example.com',
            sourceId: 3,
            kind: 'incident' as const,
            createdAt: T0,
            confirmedAt: null,
            mailedAt: T0,
          },
        ],
        deliveries: [],
        confirmations: [
          { email: 'pending@example.com', scope: 'mailing-list', sentAt: T0 },
          { email: 'pending@example.com', scope: 'alert:3:incident', sentAt: T0 },
        ],
      },
    };
    await store.importFiles(files);
    await store.importFiles(files);
    expect(await store.exportFiles()).toEqual(files);

    // What was imported is in force: the caps count the imported e-mails, the links' ids work.
    const later = new Date(Date.parse(T0) + 3_600_000);
    const again = await store.requestMailingListConfirmation(
      {
        id: 'new',
        email: 'Pending@example.com',
        source: 'x',
        createdAt: later.toISOString(),
        confirmedAt: null,
      },
      later,
    );
    expect(again).toMatchObject({ mail: false, record: { id: 'list-1', confirmedAt: null } });
    const old = await store.requestMailingListConfirmation(
      {
        id: 'new2',
        email: 'old@example.com',
        source: 'x',
        createdAt: later.toISOString(),
        confirmedAt: null,
      },
      later,
    );
    expect(old).toMatchObject({ mail: false, record: { confirmedAt: T0 } });
    expect(await store.confirmMailingListEntry({ id: 'list-1', now: later })).toMatchObject({
      confirmedAt: later.toISOString(),
    });
  });
});

describe('the purge in PostgreSQL', () => {
  it('deletes an unconfirmed subscription 7 days after its last confirmation e-mail', async () => {
    const store = await PgUserDataStore.open({
      connectionString: await cluster.createDatabase(),
      logger: silentLogger,
    });
    cleanups.push(() => store.close());
    const day = 24 * 3_600_000;
    const T0 = Date.parse('2026-11-01T08:00:00.000Z');
    const at = (ms: number) => new Date(T0 + ms);
    const sub = (id: string, email: string, when: Date) => ({
      id,
      email,
      sourceId: 3,
      kind: 'stale' as const,
      createdAt: when.toISOString(),
      confirmedAt: null,
    });
    expect(
      (await store.requestAlertConfirmation(sub('s1', 'late@example.com', at(0)), at(0))).mail,
    ).toBe(true);
    expect(
      (await store.requestAlertConfirmation(sub('s2', 'gone@example.com', at(0)), at(0))).mail,
    ).toBe(true);
    // Within 24 hours: no second e-mail; two days later a new one, whose link runs 7 days more.
    expect(
      (await store.requestAlertConfirmation(sub('x', 'LATE@example.com', at(1000)), at(1000))).mail,
    ).toBe(false);
    expect(
      (await store.requestAlertConfirmation(sub('y', 'late@example.com', at(2 * day)), at(2 * day)))
        .mail,
    ).toBe(true);

    expect(await store.purgeUnconfirmed(at(7 * day + 1000))).toEqual({
      alertSubscriptions: 1,
      mailingList: 0,
    });
    expect((await store.exportFiles()).alerts.subscriptions.map((s) => s.id)).toEqual(['s1']);
    expect(await store.purgeUnconfirmed(at(9 * day + 1000))).toEqual({
      alertSubscriptions: 1,
      mailingList: 0,
    });
    const left = await store.exportFiles();
    expect(left.alerts.subscriptions).toEqual([]);
    expect(left.alerts.confirmations).toBeUndefined();
  });
});

describe('premium sign-in links in PostgreSQL', () => {
  const T0 = Date.parse('2026-11-20T08:00:00.000Z');
  const at = (minutes: number) => new Date(T0 + minutes * 60_000);
  const MEMBER = 'member@example.com';

  async function storeWithMember() {
    const store = await PgUserDataStore.open({
      connectionString: await cluster.createDatabase(),
      logger: silentLogger,
    });
    cleanups.push(() => store.close());
    const { id: inviteId } = await createInvite(store, { code: 'PG-SIGN-IN-1', maxUses: 5 });
    const user = (now: Date) => ({
      userId: crypto.randomUUID(),
      inviteId,
      email: MEMBER,
      createdAt: now.toISOString(),
      lastLoginAt: now.toISOString(),
    });
    const activate = (email: string, now: Date, tokenUserId: string | null = null) =>
      store.activateInviteEmail({
        inviteId,
        email,
        tokenUserId,
        newUser: { ...user(now), email },
        now,
      });
    return { store, activate };
  }

  it('a link is spent once, by one of many callers at once; expired ones are deleted by a later use', async () => {
    const { store } = await storeWithMember();
    const use = (id: string, minutes: number) =>
      store.consumeSignInLink({ id, userId: 'u1', expiresAt: at(minutes + 60), now: at(minutes) });
    const first = await Promise.all(Array.from({ length: 10 }, () => use('link-a', 0)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await use('link-a', 30)).toBe(false);
    expect((await store.exportFiles()).users.signInLinks?.map((l) => l.id)).toEqual(['link-a']);
    // Past its hour, the next use of another link deletes its record.
    expect(await use('link-b', 61)).toBe(true);
    expect((await store.exportFiles()).users.signInLinks?.map((l) => l.id)).toEqual(['link-b']);
  });

  it('the e-mails are counted in their own scope: one per address every 10 minutes, 5 a day', async () => {
    const { store, activate } = await storeWithMember();
    // A new address: a user is created and its link may go; the same address again: not yet.
    const created = await activate(MEMBER, at(0));
    expect(created).toMatchObject({ ok: true, created: true, signInMail: true });
    expect(await activate('MEMBER@example.com', at(1))).toMatchObject({
      ok: false,
      reason: 'email_taken',
      signInMail: false,
    });
    // The user's own token binds without a link or a count.
    expect(await activate(MEMBER, at(2), created.ok ? created.user.userId : null)).toMatchObject({
      ok: true,
      created: false,
      signInMail: false,
    });
    expect(await store.requestSignInMail({ email: MEMBER, now: at(5) })).toBe(false);
    const allowed = [];
    for (let i = 1; i <= 6; i++)
      allowed.push(await store.requestSignInMail({ email: MEMBER, now: at(i * 11) }));
    expect(allowed).toEqual([true, true, true, true, false, false]);
    // The confirmations of alerts are counted apart: five sign-in links leave room for them.
    const sub = {
      id: 'alert-1',
      email: MEMBER,
      sourceId: 3,
      kind: 'incident' as const,
      createdAt: at(70).toISOString(),
      confirmedAt: null,
    };
    expect((await store.requestAlertConfirmation(sub, at(70))).mail).toBe(true);
    const scopes = (await store.exportFiles()).alerts.confirmations?.map((c) => c.scope);
    expect(scopes?.filter((s) => s === 'premium-sign-in')).toHaveLength(5);
  });

  it('db:import-files and db:export-files carry the used links', async () => {
    const { store } = await storeWithMember();
    const files = await store.exportFiles();
    const link = {
      id: 'imported-link',
      userId: 'u1',
      expiresAt: at(60).toISOString(),
      usedAt: at(0).toISOString(),
    };
    const withLink = { ...files, users: { ...files.users, signInLinks: [link] } };
    await store.importFiles(withLink);
    await store.importFiles(withLink);
    expect((await store.exportFiles()).users.signInLinks).toEqual([link]);
    expect(
      await store.consumeSignInLink({
        id: 'imported-link',
        userId: 'u1',
        expiresAt: at(70),
        now: at(10),
      }),
    ).toBe(false);
  });
});
