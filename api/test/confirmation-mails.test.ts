/**
 * Confirmation e-mails of alerts and of the mailing list, through the real HTTP API and a real
 * SMTP server: the caps (one per address and scope per 24 hours, five per address per 24 hours,
 * whoever asks), the answer (identical for a new, a known and a confirmed address, and written
 * before the mail server accepted anything), the purge of unconfirmed subscriptions after 7 days,
 * and the mailing list's double opt-in.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signAlertToken } from '../src/platform/email-links/links.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { editFile, foldUserData, readJson, setup, type TestContext } from './helpers.ts';
import { linkIn, startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://alerts.example';
const SOURCES = [3, 2, 4, 5, 6, 7];
const START = new Date('2026-11-20T08:00:00.000Z');

let t: TestContext | undefined;
let inbox: Inbox | undefined;
afterEach(async () => {
  await t?.cleanup();
  await inbox?.close();
  [t, inbox] = [undefined, undefined];
});

/** A server whose clock the test moves (`clock.now`), e-mailing into a real SMTP server. */
async function start() {
  inbox = await startInbox();
  const clock = { now: START };
  t = await setup({ now: () => clock.now, smtpUrl: inbox.url, publicUrl: PUBLIC_URL });
  return { ctx: t, box: inbox, clock };
}

const postJson = (ctx: TestContext, url: string, body: unknown) =>
  ctx.http.post(url).set('Content-Type', 'application/json').send(JSON.stringify(body));
const subscribe = (ctx: TestContext, email: string, sourceId = 3, kind = 'below-base') =>
  postJson(ctx, '/api/alerts', { email, sourceId, kind });
const signUp = (ctx: TestContext, email: string) =>
  postJson(ctx, '/api/addToMailList', { email, source: 'newsletter' });

/** Status, body and headers of an answer, without its Date and its request's own id. */
const answerOf = (res: { status: number; body: unknown; headers: Record<string, string> }) => {
  const { date: _date, 'x-request-id': _requestId, ...headers } = res.headers;
  return { status: res.status, body: res.body, headers };
};

/** Opens an e-mailed link of the site (PUBLIC_URL) on the running API. */
const follow = (ctx: TestContext, link: URL) => {
  expect(link.origin).toBe(PUBLIC_URL);
  return ctx.http.get(`${link.pathname}${link.search}`);
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('confirmation e-mails of alerts', () => {
  it('25 requests for one address, source and kind send one e-mail', async () => {
    const { ctx, box } = await start();
    for (let i = 0; i < 25; i++)
      await subscribe(ctx, i % 2 ? 'bomb@example.com' : 'BOMB@example.com').expect(202);
    await ctx.deps.alerts.settled();
    await pause(200);
    expect(box.to('bomb@example.com')).toHaveLength(1);
    expect(ctx.deps.store.get('alerts')!.subscriptions).toHaveLength(1);
  });

  it('25 concurrent requests send one e-mail too', async () => {
    const { ctx, box } = await start();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => subscribe(ctx, 'rush@example.com')),
    );
    expect(answers.every((r) => r.status === 202)).toBe(true);
    await ctx.deps.alerts.settled();
    await pause(200);
    expect(box.to('rush@example.com')).toHaveLength(1);
  });

  it('six sources in a day send five e-mails; the mailing list shares the cap; a day later one more', async () => {
    const { ctx, box, clock } = await start();
    for (const sourceId of SOURCES) await subscribe(ctx, 'many@example.com', sourceId).expect(202);
    await signUp(ctx, 'many@example.com').expect(202);
    await ctx.deps.alerts.settled();
    await pause(200);
    expect(box.to('many@example.com')).toHaveLength(5);
    expect(ctx.deps.store.get('alerts')!.subscriptions).toHaveLength(6);

    // After 24 hours the sixth source gets its confirmation.
    clock.now = new Date(START.getTime() + 24 * 3_600_000 + 1000);
    await subscribe(ctx, 'many@example.com', SOURCES[5]).expect(202);
    await ctx.deps.alerts.settled();
    await box.waitFor(() => box.to('many@example.com').length === 6);
  });

  it('the caps hold across a restart (file store)', async () => {
    const { ctx, box } = await start();
    await subscribe(ctx, 'again@example.com').expect(202);
    await ctx.deps.alerts.settled();
    await ctx.deps.close();
    const restarted = await setup({
      dir: ctx.dir,
      now: () => START,
      smtpUrl: box.url,
      publicUrl: PUBLIC_URL,
    });
    t = restarted;
    await subscribe(restarted, 'again@example.com').expect(202);
    await restarted.deps.alerts.settled();
    await pause(200);
    expect(box.to('again@example.com')).toHaveLength(1);
  });

  it('answers a new, a known and a confirmed address alike, before the mail server accepted anything', async () => {
    const { ctx, box } = await start();
    await subscribe(ctx, 'known@example.com').expect(202);
    await subscribe(ctx, 'confirmed@example.com').expect(202);
    await ctx.deps.alerts.settled();
    await box.waitFor(() => box.to('confirmed@example.com').length === 1);
    const link = linkIn(box.to('confirmed@example.com')[0]!, `${PUBLIC_URL}/api/alerts/confirm?`);
    await follow(ctx, link).expect(200);

    // The mail server holds every message from now on: the answer must not wait for it.
    box.hold();
    const fresh = await subscribe(ctx, 'fresh@example.com');
    const known = await subscribe(ctx, 'known@example.com');
    const confirmed = await subscribe(ctx, 'confirmed@example.com');
    expect(answerOf(fresh)).toEqual(answerOf(known));
    expect(answerOf(fresh)).toEqual(answerOf(confirmed));
    expect(fresh.status).toBe(202);
    // The confirmation for the new address reaches the server only after the answer, and waits.
    const until = Date.now() + 10_000;
    while (box.held.length === 0 && Date.now() < until) await pause(25);
    expect(box.held).toHaveLength(1);
    expect(box.to('fresh@example.com')).toHaveLength(0);
    box.release();
    await ctx.deps.alerts.settled();
    await box.waitFor(() => box.to('fresh@example.com').length === 1);
    expect(box.to('known@example.com')).toHaveLength(1);
    expect(box.to('confirmed@example.com')).toHaveLength(1);
  });

  it('a failed send is logged and tried again; the answer was a success', async () => {
    const { ctx, box } = await start();
    const mailer = ctx.deps.alerts.ctx.mailer;
    const send = mailer.send;
    let calls = 0;
    mailer.send = (mail) => (++calls === 1 ? Promise.reject(new Error('refused')) : send(mail));
    const queue = ctx.deps.alerts.outgoing as unknown as { retryDelaysMs: number[] };
    queue.retryDelaysMs = [50];
    await subscribe(ctx, 'retry@example.com').expect(202);
    await box.waitFor(() => box.to('retry@example.com').length === 1);
    expect(calls).toBe(2);
    expect(ctx.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'confirmation e-mail not sent, tried again later',
      }),
    );
  });

  it('unconfirmed subscriptions and sign-ups are purged after 7 days, confirmed ones stay', async () => {
    const { ctx, box, clock } = await start();
    await subscribe(ctx, 'never@example.com').expect(202);
    await subscribe(ctx, 'kept@example.com').expect(202);
    await signUp(ctx, 'never.list@example.com').expect(202);
    await ctx.deps.alerts.settled();
    await box.waitFor(() => box.to('kept@example.com').length === 1);
    await follow(
      ctx,
      linkIn(box.to('kept@example.com')[0]!, `${PUBLIC_URL}/api/alerts/confirm?`),
    ).expect(200);

    clock.now = new Date(START.getTime() + 6 * 24 * 3_600_000);
    expect(await ctx.deps.alerts.purge()).toEqual({ alertSubscriptions: 0, mailingList: 0 });
    clock.now = new Date(START.getTime() + 7 * 24 * 3_600_000 + 1000);
    expect(await ctx.deps.alerts.purge()).toEqual({ alertSubscriptions: 1, mailingList: 1 });
    await foldUserData(ctx);
    const alerts = await readJson<{ subscriptions: { email: string }[] }>(
      path.join(ctx.dir, 'alerts.json'),
    );
    expect(alerts.subscriptions.map((s) => s.email)).toEqual(['kept@example.com']);
    const list = await readJson<{ entries: unknown[] }>(path.join(ctx.dir, 'mailing-list.json'));
    expect(list.entries).toEqual([]);
  });
});

describe('the mailing list (double opt-in)', () => {
  const listFile = async (ctx: TestContext) => {
    await foldUserData(ctx);
    return (
      await readJson<{ entries: { email: string; confirmedAt?: string | null }[] }>(
        path.join(ctx.dir, 'mailing-list.json'),
      )
    ).entries;
  };

  it('answers the same for a new, a known and a confirmed address; counts only once the link is confirmed', async () => {
    const { ctx, box } = await start();
    const fresh = await signUp(ctx, 'reader@example.com');
    expect(fresh.status).toBe(202);
    expect(fresh.body).toEqual({
      success: true,
      message: expect.stringMatching(/Check your inbox/),
    });
    const known = await signUp(ctx, 'Reader@Example.com');
    expect(answerOf(known)).toEqual(answerOf(fresh));
    await ctx.deps.alerts.settled();
    await box.waitFor(() => box.to('reader@example.com').length === 1);
    expect(await listFile(ctx)).toEqual([
      expect.objectContaining({ email: 'reader@example.com', confirmedAt: null }),
    ]);

    const mail = box.to('reader@example.com')[0]!;
    expect(mail.subject).toBe('Confirm your subscription to the Pigi newsletter');
    const page = await follow(ctx, linkIn(mail, `${PUBLIC_URL}/api/mailing-list/confirm?`)).expect(
      200,
    );
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('Subscription confirmed');
    expect((await listFile(ctx))[0]!.confirmedAt).toEqual(expect.any(String));

    // Confirmed: the same answer again, and no further e-mail.
    const confirmed = await signUp(ctx, 'reader@example.com');
    expect(answerOf(confirmed)).toEqual(answerOf(fresh));
    await ctx.deps.alerts.settled();
    await pause(200);
    expect(box.to('reader@example.com')).toHaveLength(1);

    // The e-mail's unsubscribe link removes the address.
    const bye = await follow(ctx, linkIn(mail, `${PUBLIC_URL}/api/mailing-list/unsubscribe?`));
    expect(bye.status).toBe(200);
    expect(bye.text).toContain('Unsubscribed');
    expect(await listFile(ctx)).toEqual([]);
  });

  it('one confirmation per address per 24 hours; a tampered link confirms nothing', async () => {
    const { ctx, box } = await start();
    for (let i = 0; i < 10; i++) await signUp(ctx, 'twice@example.com').expect(202);
    await ctx.deps.alerts.settled();
    await pause(200);
    expect(box.to('twice@example.com')).toHaveLength(1);
    const link = linkIn(box.to('twice@example.com')[0]!, `${PUBLIC_URL}/api/mailing-list/confirm?`);
    link.searchParams.set('token', `${link.searchParams.get('token')!.slice(0, -2)}xx`);
    expect((await follow(ctx, link).expect(400)).text).toContain('Invalid link');
    expect((await listFile(ctx))[0]!.confirmedAt).toBeNull();
  });

  it('an entry of an older file (no confirmation field) counts as confirmed and gets no e-mail', async () => {
    const { ctx, box } = await start();
    await ctx.deps.close();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      path.join(ctx.dir, 'mailing-list.json'),
      JSON.stringify({
        entries: [{ email: 'old@example.com', createdAt: START.toISOString(), source: 'website' }],
      }),
    );
    t = await setup({ dir: ctx.dir, now: () => START, smtpUrl: box.url, publicUrl: PUBLIC_URL });
    await signUp(t, 'old@example.com').expect(202);
    await t.deps.alerts.settled();
    await pause(200);
    expect(box.to('old@example.com')).toHaveLength(0);
    expect(
      await t.deps.userData.purgeUnconfirmed(new Date(START.getTime() + 30 * 86_400_000)),
    ).toEqual({ alertSubscriptions: 0, mailingList: 0 });
  });
});

describe('a user-data file that cannot be written', () => {
  it('every write answers its documented 503, logged as one line per request without a stack', async () => {
    t = await setup({ publicUrl: PUBLIC_URL });
    const ctx = t;
    await createInvite(ctx.deps.userData, { code: 'BROKEN-FILES', maxUses: 10 });
    await editFile(path.join(ctx.dir, 'alerts.json'), '{"subscriptions": [');
    await editFile(path.join(ctx.dir, 'users.json'), '{"users": [');
    const token = (action: 'confirm' | 'unsubscribe') =>
      signAlertToken(ctx.deps.alerts.ctx.secret, action, 'any-id', new Date(Date.now() + 60_000));
    const from = ctx.logger.lines.length;

    const subscribeRes = await subscribe(ctx, 'saver@example.com').expect(503);
    expect(subscribeRes.body).toEqual({
      error: { code: 'data_unavailable', message: expect.any(String) },
    });
    const page = await ctx.http.get(`/api/alerts/confirm?token=${token('confirm')}`).expect(503);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('Try again later');
    const oneClick = await ctx.http
      .post(`/api/alerts/unsubscribe?token=${token('unsubscribe')}`)
      .expect(503);
    expect(oneClick.body).toMatchObject({ error: { code: 'data_unavailable' } });
    const premium = await postJson(ctx, '/api/premium', { inviteCode: 'BROKEN-FILES' }).expect(503);
    expect(premium.body).toEqual({
      success: false,
      error: { code: 'data_unavailable', message: expect.any(String) },
    });

    const lines = ctx.logger.lines.slice(from);
    expect(lines.filter((l) => l.fields && 'stack' in l.fields)).toEqual([]);
    expect(lines.filter((l) => l.message === 'request failed')).toEqual([]);
    expect(lines.filter((l) => l.message === 'user data not writable')).toHaveLength(4);
  });
});
