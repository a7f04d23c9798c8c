/**
 * Premium sign-in links with the file store, through the real HTTP API and a real SMTP server: a
 * link works once (a second open, or many at once, give one token; the rest the "already used"
 * page with its button), a used link stays used across a restart and is dropped once expired, the
 * button asks for a new link within the same caps, the cap on sign-in e-mails holds across a
 * restart, and premiumLogin without a token answers a registered and a new address alike, before
 * the mail server accepted anything.
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import {
  decodeJwtPayload,
  editFile,
  foldUserData,
  readJson,
  setup,
  type TestContext,
} from './helpers.ts';
import { linkIn, startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://site.example';
const START = new Date('2026-11-20T08:00:00.000Z');
const MINUTE = 60_000;
const SIGN_IN = `${PUBLIC_URL}/api/premium/sign-in?`;

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

/** The same data directory served again after a stop, as a restart does. */
async function restart(ctx: TestContext, box: Inbox, clock: { now: Date }) {
  await ctx.deps.close();
  t = await setup({ dir: ctx.dir, now: () => clock.now, smtpUrl: box.url, publicUrl: PUBLIC_URL });
  return t;
}

const postJson = (ctx: TestContext, url: string, body: unknown) =>
  ctx.http.post(url).set('Content-Type', 'application/json').send(JSON.stringify(body));

/** A user of CODE with `email` bound by its own token (the site's flow). */
async function registered(ctx: TestContext, email: string, code = 'SIGN-IN-CODE') {
  await createInvite(ctx.deps.userData, { code, maxUses: 20 });
  const invite = await postJson(ctx, '/api/premium', { inviteCode: code }).expect(200);
  const bound = await postJson(ctx, '/api/premiumLogin', { email, inviteCode: code })
    .set('Authorization', `Bearer ${invite.body.token as string}`)
    .expect(200);
  expect(bound.body.token).toEqual(expect.any(String));
  return invite.body.user.userId as string;
}

/** premiumLogin without a token: what a stranger with the code sends. */
const askLink = (ctx: TestContext, email: string, code = 'SIGN-IN-CODE') =>
  postJson(ctx, '/api/premiumLogin', { email, inviteCode: code });

/** Every e-mailed link has been sent (the mail queue is idle). */
const sent = (ctx: TestContext) => ctx.deps.alerts.settled();

const local = (link: URL) => `${link.pathname}${link.search}`;

/** The sign-in link of the `n`-th e-mail to `email` (waits for it). */
async function linkTo(box: Inbox, email: string, n = 1): Promise<URL> {
  await box.waitFor(() => box.to(email).length >= n);
  return linkIn(box.to(email)[n - 1]!, SIGN_IN);
}
const sessionOf = (page: string) =>
  /<script type="application\/json" id="premium-session">(.*?)<\/script>/s.exec(page)?.[1];
/** The form of a used or expired link's page: where it posts. */
const formAction = (page: string) =>
  /<form method="post" action="([^"]+)">/.exec(page)?.[1]?.replace(/&amp;/g, '&');

/** Status, body and headers of an answer, without its Date and its request's own id. */
const answerOf = (res: { status: number; body: unknown; headers: Record<string, string> }) => {
  const { date: _date, 'x-request-id': _requestId, ...headers } = res.headers;
  return { status: res.status, body: res.body, headers };
};

describe('a sign-in link works once', () => {
  it('the second open answers the "already used" page: no token, a button for a new link', async () => {
    const { ctx, box } = await start();
    const userId = await registered(ctx, 'once@example.com');
    await askLink(ctx, 'once@example.com').expect(202);
    const link = await linkTo(box, 'once@example.com');

    const first = await ctx.http.get(local(link)).expect(200);
    expect(decodeJwtPayload(JSON.parse(sessionOf(first.text)!).token)).toMatchObject({ userId });
    expect(formAction(first.text)).toBeUndefined();
    expect(first.headers['content-security-policy']).toContain("form-action 'none'");

    const second = await ctx.http.get(local(link)).expect(410);
    expect(second.headers['content-type']).toContain('text/html');
    expect(second.text).toContain('Link already used');
    expect(sessionOf(second.text)).toBeUndefined();
    expect(second.text).not.toContain('premiumToken');
    expect(second.headers['content-security-policy']).toContain("form-action 'self'");
    expect(formAction(second.text)).toBe(
      `/api/premium/sign-in?token=${encodeURIComponent(link.searchParams.get('token')!)}`,
    );
  });

  it('ten opens at once give exactly one token', async () => {
    const { ctx, box } = await start();
    await registered(ctx, 'rush@example.com');
    await askLink(ctx, 'rush@example.com').expect(202);
    const link = await linkTo(box, 'rush@example.com');
    const pages = await Promise.all(Array.from({ length: 10 }, () => ctx.http.get(local(link))));
    expect(pages.map((p) => p.status).sort()).toEqual([200, ...Array(9).fill(410)]);
    expect(pages.filter((p) => sessionOf(p.text) !== undefined)).toHaveLength(1);
  });

  it('stays used after a restart, and is dropped from users.json once it has expired', async () => {
    const { ctx, box, clock } = await start();
    await registered(ctx, 'kept@example.com');
    await askLink(ctx, 'kept@example.com').expect(202);
    const link = await linkTo(box, 'kept@example.com');
    await ctx.http.get(local(link)).expect(200);
    await foldUserData(ctx);
    const usersFile = path.join(ctx.dir, 'users.json');
    const used = await readJson<{ signInLinks?: { id: string; expiresAt: string }[] }>(usersFile);
    expect(used.signInLinks).toEqual([expect.objectContaining({ id: expect.any(String) })]);

    // The journal, replayed at the next start, still has it: the link does not work again.
    const again = await restart(ctx, box, clock);
    await again.http.get(local(link)).expect(410);

    // An hour later the link has expired; the next use of another link drops the old record.
    clock.now = new Date(START.getTime() + 61 * MINUTE);
    await askLink(again, 'kept@example.com').expect(202);
    await again.http.get(local(await linkTo(box, 'kept@example.com', 2))).expect(200);
    await foldUserData(again);
    const after = await readJson<{ signInLinks?: { id: string }[] }>(usersFile);
    expect(after.signInLinks).toHaveLength(1);
    expect(after.signInLinks![0]!.id).not.toBe(used.signInLinks![0]!.id);
  });
});

describe('the button of a used or expired link', () => {
  it('asks for a new link to the same address, within the caps of every sign-in e-mail', async () => {
    const { ctx, box, clock } = await start();
    await registered(ctx, 'button@example.com');
    await askLink(ctx, 'button@example.com').expect(202);
    const link = await linkTo(box, 'button@example.com');
    await ctx.http.get(local(link)).expect(200);
    const action = formAction((await ctx.http.get(local(link)).expect(410)).text)!;

    // Within 10 minutes of the last link: no new one.
    const early = await ctx.http.post(action).expect(200);
    expect(early.text).toContain('less than 10 minutes ago');
    await sent(ctx);
    expect(box.to('button@example.com')).toHaveLength(1);

    // Later, a new link, which works; a second press right away sends nothing more.
    clock.now = new Date(START.getTime() + 11 * MINUTE);
    const renewed = await ctx.http.post(action).expect(202);
    expect(renewed.text).toContain('New link on its way');
    await ctx.http.post(action).expect(200);
    const fresh = await linkTo(box, 'button@example.com', 2);
    await sent(ctx);
    expect(box.to('button@example.com')).toHaveLength(2);
    expect(fresh.searchParams.get('token')).not.toBe(link.searchParams.get('token'));
    await ctx.http.get(local(fresh)).expect(200);

    // Five a day per address, however often the button is pressed.
    for (let i = 2; i <= 8; i++) {
      clock.now = new Date(START.getTime() + i * 11 * MINUTE);
      await ctx.http.post(action);
    }
    await sent(ctx);
    expect(box.to('button@example.com')).toHaveLength(5);
    // A tampered token asks for nothing.
    const tampered = await ctx.http.post(`${action.slice(0, -2)}xx`).expect(400);
    expect(tampered.text).toContain('Invalid link');
  });

  it('an expired link offers it for 7 days; an older one does not', async () => {
    const { ctx, box, clock } = await start();
    await registered(ctx, 'late@example.com');
    await askLink(ctx, 'late@example.com').expect(202);
    const link = await linkTo(box, 'late@example.com');

    clock.now = new Date(START.getTime() + 2 * 24 * 60 * MINUTE);
    const expired = await ctx.http.get(local(link)).expect(400);
    expect(expired.text).toContain('Link expired');
    expect(sessionOf(expired.text)).toBeUndefined();
    await ctx.http.post(formAction(expired.text)!).expect(202);
    await sent(ctx);
    expect(box.to('late@example.com')).toHaveLength(2);

    clock.now = new Date(START.getTime() + 8 * 24 * 60 * MINUTE + 61 * MINUTE);
    const old = await ctx.http.get(local(link)).expect(400);
    expect(formAction(old.text)).toBeUndefined();
    await ctx.http.post(`/api/premium/sign-in?${link.searchParams.toString()}`).expect(400);
    await sent(ctx);
    expect(box.to('late@example.com')).toHaveLength(2);
  });
});

describe('the cap of sign-in e-mails', () => {
  it('holds across a restart (file store): one per address every 10 minutes', async () => {
    const { ctx, box, clock } = await start();
    await registered(ctx, 'restart@example.com');
    await askLink(ctx, 'restart@example.com').expect(202);
    await box.waitFor(() => box.to('restart@example.com').length === 1);

    const again = await restart(ctx, box, clock);
    clock.now = new Date(START.getTime() + 5 * MINUTE);
    await askLink(again, 'restart@example.com').expect(202);
    await sent(again);
    // Room for a send that would not go through the queue (a cap kept in memory, forgotten).
    await new Promise((r) => setTimeout(r, 300));
    expect(box.to('restart@example.com')).toHaveLength(1);

    clock.now = new Date(START.getTime() + 11 * MINUTE);
    await askLink(again, 'RESTART@example.com').expect(202);
    await sent(again);
    expect(box.to('restart@example.com')).toHaveLength(2);
  });

  it('is its own: five confirmations do not stop a sign-in link, nor five sign-in links a confirmation', async () => {
    const { ctx, box, clock } = await start();
    const subscribe = (email: string, sourceId: number) =>
      postJson(ctx, '/api/alerts', { email, sourceId, kind: 'incident' }).expect(202);
    const subjects = (email: string) => box.to(email).map((m) => m.subject ?? '');

    for (const sourceId of [3, 2, 4, 5, 6]) await subscribe('alerts@example.com', sourceId);
    await registered(ctx, 'alerts@example.com');
    await askLink(ctx, 'alerts@example.com').expect(202);

    await registered(ctx, 'links@example.com', 'SECOND-CODE');
    for (let i = 0; i < 5; i++) {
      clock.now = new Date(START.getTime() + i * 11 * MINUTE);
      await askLink(ctx, 'links@example.com', 'SECOND-CODE').expect(202);
    }
    await subscribe('links@example.com', 3);
    await sent(ctx);

    expect(subjects('alerts@example.com').filter((s) => s.startsWith('Confirm'))).toHaveLength(5);
    expect(subjects('alerts@example.com').filter((s) => s.startsWith('Sign in'))).toHaveLength(1);
    expect(subjects('links@example.com').filter((s) => s.startsWith('Sign in'))).toHaveLength(5);
    expect(subjects('links@example.com').filter((s) => s.startsWith('Confirm'))).toHaveLength(1);
  });
});

/** How many journal lines `request` wrote (each one is a durable write). */
async function linesWritten(ctx: TestContext, request: () => PromiseLike<unknown>) {
  const engine = (ctx.deps.userData as unknown as { engine: { record(change: unknown): unknown } })
    .engine;
  const record = vi.spyOn(engine, 'record');
  try {
    await request();
    return record.mock.calls.length;
  } finally {
    record.mockRestore();
  }
}

describe('premiumLogin without a token', () => {
  it('answers a registered and a new address alike, before the mail server accepted anything', async () => {
    const { ctx, box } = await start();
    const owner = await registered(ctx, 'member@example.com');

    // The mail server holds every message from now on: the answers must not wait for it.
    box.hold();
    const known = await askLink(ctx, 'member@example.com');
    const fresh = await askLink(ctx, 'newcomer@example.com');
    expect(known.status).toBe(202);
    expect(answerOf(fresh)).toEqual(answerOf(known));
    expect(known.body).toEqual({ success: true, emailSent: true, message: expect.any(String) });
    const until = Date.now() + 10_000;
    while (box.held.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(box.held).toHaveLength(2);
    expect(box.messages).toHaveLength(0);
    box.release();
    await sent(ctx);

    expect(await linesWritten(ctx, () => askLink(ctx, 'member@example.com'))).toBe(1);
    expect(await linesWritten(ctx, () => askLink(ctx, 'another@example.com'))).toBe(1);

    // Each address got its own link: the owner's signs the owner in, the new one a new user.
    const mine = await ctx.http.get(local(await linkTo(box, 'member@example.com')));
    expect(decodeJwtPayload(JSON.parse(sessionOf(mine.text)!).token).userId).toBe(owner);
    const theirs = await ctx.http.get(local(await linkTo(box, 'newcomer@example.com')));
    const payload = decodeJwtPayload(JSON.parse(sessionOf(theirs.text)!).token);
    expect(payload).toMatchObject({ email: 'newcomer@example.com', accessLevel: 'premium' });
    expect(payload.userId).not.toBe(owner);
  });

  it('needs alerts.json (the caps): broken, it answers 503; the own token still binds', async () => {
    const { ctx } = await start();
    await createInvite(ctx.deps.userData, { code: 'BROKEN-CAPS', maxUses: 5 });
    const invite = await postJson(ctx, '/api/premium', { inviteCode: 'BROKEN-CAPS' }).expect(200);
    await editFile(path.join(ctx.dir, 'alerts.json'), '{"subscriptions": [');
    const refused = await askLink(ctx, 'someone@example.com', 'BROKEN-CAPS').expect(503);
    expect(refused.body).toEqual({
      success: false,
      error: { code: 'data_unavailable', message: expect.any(String) },
    });
    await postJson(ctx, '/api/premiumLogin', {
      email: 'mine@example.com',
      inviteCode: 'BROKEN-CAPS',
    })
      .set('Authorization', `Bearer ${invite.body.token as string}`)
      .expect(200);
  });

  it('with a used-up code: the same 401 and one write for a registered and an unknown address', async () => {
    const { ctx, box } = await start();
    await createInvite(ctx.deps.userData, { code: 'ONE-USE-ONLY', maxUses: 1 });
    const invite = await postJson(ctx, '/api/premium', { inviteCode: 'ONE-USE-ONLY' }).expect(200);
    await postJson(ctx, '/api/premiumLogin', {
      email: 'owner@example.com',
      inviteCode: 'ONE-USE-ONLY',
    })
      .set('Authorization', `Bearer ${invite.body.token as string}`)
      .expect(200);
    const answers: ReturnType<typeof answerOf>[] = [];
    const ask = async (email: string) =>
      answers.push(answerOf(await askLink(ctx, email, 'ONE-USE-ONLY').expect(401)));
    expect(await linesWritten(ctx, () => ask('owner@example.com'))).toBe(1);
    expect(await linesWritten(ctx, () => ask('nobody@example.com'))).toBe(1);
    expect(answers[1]).toEqual(answers[0]);
    // The owner's link is mailed all the same; nobody's address gets nothing.
    await sent(ctx);
    expect(box.to('owner@example.com')).toHaveLength(1);
    expect(box.to('nobody@example.com')).toHaveLength(0);
  });
});
