import { readFile } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PremiumStrategyAnalysis, PremiumUser } from '@yield/contract';
import { openStore } from '../src/composition/data-files.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { runCreateInvite } from '../scripts/create-invite.ts';
import {
  decodeJwtPayload,
  foldUserData,
  outboxMails,
  readJson,
  setup,
  TEST_SECRET,
  type TestContext,
} from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await setup();
});
afterAll(async () => {
  await t.cleanup();
});

const json = (path: string, body: unknown) =>
  t.http.post(path).set('Content-Type', 'application/json').send(JSON.stringify(body));

async function login(code: string): Promise<{ token: string; user: PremiumUser }> {
  const res = await json('/api/premium', { inviteCode: code }).expect(200);
  return res.body as { token: string; user: PremiumUser };
}

/** Opens the sign-in link of the last of `mails` and returns the token its page stores. */
async function signInTokenFrom(mails: { text?: string | false }[]): Promise<string> {
  const link = /https?:\/\/\S+\/api\/premium\/sign-in\?token=\S+/.exec(
    mails.at(-1)?.text || '',
  )?.[0];
  expect(link).toBeDefined();
  const url = new URL(link!);
  const page = await t.http.get(url.pathname + url.search).expect(200);
  return (
    JSON.parse(
      /<script type="application\/json" id="premium-session">(.*?)<\/script>/s.exec(page.text)![1]!,
    ) as { token: string }
  ).token;
}

describe('POST /api/premium', () => {
  it('a valid invite code returns {success, token, user}; the token carries the spec fields', async () => {
    await createInvite(t.deps.userData, { code: 'GOOD-CODE-1', maxUses: 10 });
    const res = await json('/api/premium', { inviteCode: 'GOOD-CODE-1' }).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      token: expect.any(String),
      user: { userId: expect.any(String), email: null, accessLevel: 'premium' },
    });
    const token = res.body.token as string;
    expect(token.split('.')).toHaveLength(3);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as {
      alg: string;
    };
    expect(header.alg).toBe('HS256');
    const payload = decodeJwtPayload(token);
    expect(payload).toMatchObject({
      accessLevel: 'premium',
      userId: res.body.user.userId,
      sub: res.body.user.userId,
      email: null,
    });
    const now = Math.floor(Date.now() / 1000);
    expect(payload.exp as number).toBeGreaterThanOrEqual(now + 30 * 86400 - 5);
    expect(payload.exp as number).toBeLessThanOrEqual(now + 30 * 86400 + 5);
  });

  it('codes are matched case-insensitively and without surrounding spaces', async () => {
    await createInvite(t.deps.userData, { code: 'Mixed-Case-9', maxUses: 10 });
    await json('/api/premium', { inviteCode: '  mixed-CASE-9 ' }).expect(200);
  });

  it('invite codes are stored hashed only', async () => {
    await createInvite(t.deps.userData, { code: 'PLAINTEXT-NEVER-STORED' });
    const text = await readFile(path.join(t.dir, 'invites.json'), 'utf8');
    expect(text).not.toMatch(/PLAINTEXT-NEVER-STORED/i);
    expect(text).toContain('"hash"');
  });

  it('a wrong code → 401 {success:false, error:{code,message}}', async () => {
    const res = await json('/api/premium', { inviteCode: 'NOT-A-CODE' }).expect(401);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'invalid_invite_code', message: 'The invite code is invalid' },
    });
  });

  it('a missing code → 400 with success:false', async () => {
    const res = await json('/api/premium', {}).expect(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'invalid_request' } });
  });

  it('the use limit is enforced, also under concurrent logins', async () => {
    await createInvite(t.deps.userData, { code: 'TWO-USES-ONLY', maxUses: 2 });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => json('/api/premium', { inviteCode: 'TWO-USES-ONLY' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = results.filter((r) => r.status === 401);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body.error.code).toBe('invite_code_used_up');
  });

  it('an expired code → 401 invite_code_expired', async () => {
    await createInvite(t.deps.userData, {
      code: 'EXPIRED-CODE',
      expiresAt: new Date(Date.now() + 50),
    });
    await new Promise((r) => setTimeout(r, 80));
    const res = await json('/api/premium', { inviteCode: 'EXPIRED-CODE' }).expect(401);
    expect(res.body.error.code).toBe('invite_code_expired');
  });

  it('a code created by the operator command is usable by the running server without restart', async () => {
    const out = await runCreateInvite(['--', '--code', 'E2E-CODE-123', '--max-uses', '100'], {
      DATA_DIR: t.dir,
    });
    expect(out.exitCode).toBe(0);
    expect(out.output).toContain('E2E-CODE-123');
    await json('/api/premium', { inviteCode: 'E2E-CODE-123' }).expect(200);
    // Idempotent for scripted setups.
    expect((await runCreateInvite(['--code', 'E2E-CODE-123'], { DATA_DIR: t.dir })).exitCode).toBe(
      0,
    );
    const invites = await readJson<{ invites: { maxUses: number | null }[] }>(
      path.join(t.dir, 'invites.json'),
    );
    expect(invites.invites.filter((i) => i.maxUses === 100)).toHaveLength(1);
  });

  it('activated users are stored', async () => {
    const { user } = await login('GOOD-CODE-1');
    await foldUserData(t);
    const users = await readJson<{ users: { userId: string; email: string | null }[] }>(
      path.join(t.dir, 'users.json'),
    );
    expect(users.users.some((u) => u.userId === user.userId)).toBe(true);
  });
});

describe('POST /api/premiumLogin', () => {
  it('binds the email to the invite step user (its token) without spending another use, email in the token', async () => {
    await createInvite(t.deps.userData, { code: 'ONE-USE-FLOW', maxUses: 1 });
    const first = await login('ONE-USE-FLOW');
    const res = await json('/api/premiumLogin', {
      email: 'Saver@Example.com',
      inviteCode: 'ONE-USE-FLOW',
    })
      .set('Authorization', `Bearer ${first.token}`)
      .expect(200);
    expect(res.body).toMatchObject({ success: true, token: expect.any(String) });
    const payload = decodeJwtPayload(res.body.token as string);
    expect(payload).toMatchObject({
      email: 'saver@example.com',
      accessLevel: 'premium',
      userId: first.user.userId,
    });
    // The same user sending the same email again (its token): same user, still no new use.
    const again = await json('/api/premiumLogin', {
      email: 'saver@example.com',
      inviteCode: 'one-use-flow',
    })
      .set('Authorization', `Bearer ${res.body.token as string}`)
      .expect(200);
    expect(decodeJwtPayload(again.body.token as string).userId).toBe(first.user.userId);
    // Code + email without the token is no login: the used-up code refuses it, without a token.
    const noToken = await json('/api/premiumLogin', {
      email: 'saver@example.com',
      inviteCode: 'ONE-USE-FLOW',
    }).expect(401);
    expect(noToken.body).toEqual({
      success: false,
      error: { code: 'invite_code_used_up', message: expect.any(String) },
    });
    // The single use is spent: a new person with the same code is refused.
    const other = await json('/api/premiumLogin', {
      email: 'other@example.com',
      inviteCode: 'ONE-USE-FLOW',
    }).expect(401);
    expect(other.body).toMatchObject({ success: false, error: { code: 'invite_code_used_up' } });
  });

  it('uses the bearer token of the invite step when sent', async () => {
    await createInvite(t.deps.userData, { code: 'BEARER-FLOW-1', maxUses: 5 });
    const a = await login('BEARER-FLOW-1');
    await login('BEARER-FLOW-1');
    const res = await json('/api/premiumLogin', {
      email: 'a@example.com',
      inviteCode: 'BEARER-FLOW-1',
    })
      .set('Authorization', `Bearer ${a.token}`)
      .expect(200);
    expect(decodeJwtPayload(res.body.token as string).userId).toBe(a.user.userId);
    // The same user changing the email keeps the user (the other pending user is untouched).
    const changed = await json('/api/premiumLogin', {
      email: 'a2@example.com',
      inviteCode: 'BEARER-FLOW-1',
    })
      .set('Authorization', `Bearer ${a.token}`)
      .expect(200);
    expect(decodeJwtPayload(changed.body.token as string)).toMatchObject({
      userId: a.user.userId,
      email: 'a2@example.com',
    });
    await foldUserData(t);
    const users = await readJson<{ users: { inviteId: string; email: string | null }[] }>(
      path.join(t.dir, 'users.json'),
    );
    expect(users.users.filter((u) => u.email === null).length).toBeGreaterThan(0);
  });

  it("a used-up one-use code with the owner's email gives no token (5 attempts, with or without a foreign token)", async () => {
    await createInvite(t.deps.userData, { code: 'OWNER-ONLY-1', maxUses: 1 });
    const owner = await login('OWNER-ONLY-1');
    await json('/api/premiumLogin', { email: 'owner@example.com', inviteCode: 'OWNER-ONLY-1' })
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    await createInvite(t.deps.userData, { code: 'STRANGER-OWN-1', maxUses: 5 });
    const strangerToken = (await login('STRANGER-OWN-1')).token;
    const attempts = [
      { email: 'owner@example.com', auth: null },
      { email: 'OWNER@example.com', auth: null },
      { email: 'owner@example.com', auth: strangerToken },
      { email: 'owner@example.com', auth: 'not.a.token' },
      { email: 'owner@example.com', auth: null },
    ];
    for (const { email, auth } of attempts) {
      const req = json('/api/premiumLogin', { email, inviteCode: 'owner-only-1' });
      const res = auth ? await req.set('Authorization', `Bearer ${auth}`) : await req;
      expect(res.status).toBe(401);
      expect(res.body.token).toBeUndefined();
      // The same answer as for an address nobody registered: nothing to probe.
      expect(res.body).toEqual({
        success: false,
        error: { code: 'invite_code_used_up', message: expect.any(String) },
      });
    }
    const unknown = await json('/api/premiumLogin', {
      email: 'nobody@example.com',
      inviteCode: 'OWNER-ONLY-1',
    }).expect(401);
    expect(unknown.body).toEqual({
      success: false,
      error: { code: 'invite_code_used_up', message: expect.any(String) },
    });
    // The owner, not the caller, got one sign-in link (at most one per 10 minutes); nobody else mail.
    const mails = await outboxMails(t.dir, 'owner@example.com');
    expect(mails).toHaveLength(1);
    expect(await outboxMails(t.dir, 'nobody@example.com', 1, 300)).toHaveLength(0);
  });

  it('an e-mailed sign-in link gives its owner a token (a page that stores it), once valid, for one hour', async () => {
    await createInvite(t.deps.userData, { code: 'SIGN-IN-LINK-1', maxUses: 3 });
    const owner = await login('SIGN-IN-LINK-1');
    await json('/api/premiumLogin', { email: 'linked@example.com', inviteCode: 'SIGN-IN-LINK-1' })
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    const res = await json('/api/premiumLogin', {
      email: 'LINKED@example.com',
      inviteCode: 'SIGN-IN-LINK-1',
    }).expect(202);
    expect(res.body).toEqual({ success: true, emailSent: true, message: expect.any(String) });
    const [mail] = await outboxMails(t.dir, 'linked@example.com');
    const link = /https?:\/\/\S+\/api\/premium\/sign-in\?token=\S+/.exec(mail!.text ?? '')?.[0];
    expect(link).toBeDefined();
    const page = await t.http.get(new URL(link!).pathname + new URL(link!).search).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-/);
    expect(page.text).toContain("localStorage.setItem('premiumToken'");
    const session = JSON.parse(
      /<script type="application\/json" id="premium-session">(.*?)<\/script>/s.exec(page.text)![1]!,
    ) as { token: string; home: string };
    expect(decodeJwtPayload(session.token)).toMatchObject({
      userId: owner.user.userId,
      email: 'linked@example.com',
      accessLevel: 'premium',
    });
    await t.http
      .get('/api/premium/strategies/3')
      .set('Authorization', `Bearer ${session.token}`)
      .expect(200);
    // A tampered link is refused with a page, not a token.
    const tampered = await t.http.get(
      `/api/premium/sign-in?token=${'x'.repeat(20)}.${'y'.repeat(43)}`,
    );
    expect(tampered.status).toBe(400);
    expect(tampered.text).not.toContain('premium-session');
  });

  it("an email already bound is not handed out by a code with uses left: no token without that user's", async () => {
    await createInvite(t.deps.userData, { code: 'SHARED-CODE-9', maxUses: 10 });
    const owner = await login('SHARED-CODE-9');
    await json('/api/premiumLogin', { email: 'first@example.com', inviteCode: 'SHARED-CODE-9' })
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    for (let i = 0; i < 5; i++) {
      const res = await json('/api/premiumLogin', {
        email: 'First@Example.com',
        inviteCode: 'SHARED-CODE-9',
      }).expect(202);
      expect(res.body.token).toBeUndefined();
      expect(res.body).toEqual({ success: true, emailSent: true, message: expect.any(String) });
    }
    // The link went to the owner's address, not to the caller: one e-mail, not five.
    expect(await outboxMails(t.dir, 'first@example.com')).toHaveLength(1);
    // Another holder of the code, with their own token (another user), gets their own account.
    const other = await login('SHARED-CODE-9');
    const res = await json('/api/premiumLogin', {
      email: 'first@example.com',
      inviteCode: 'SHARED-CODE-9',
    })
      .set('Authorization', `Bearer ${other.token}`)
      .expect(200);
    expect(decodeJwtPayload(res.body.token as string).userId).toBe(other.user.userId);
    expect(decodeJwtPayload(res.body.token as string).userId).not.toBe(owner.user.userId);
  });

  it('the next holder of a code cannot bind an e-mail-less user of it to their email', async () => {
    await createInvite(t.deps.userData, { code: 'PENDING-USER-1', maxUses: 2 });
    const first = await login('PENDING-USER-1');
    // Uses left: the next holder's email makes a new user (a redemption), not the pending one;
    // its token goes to that address, by the sign-in link.
    const next = await json('/api/premiumLogin', {
      email: 'next@example.com',
      inviteCode: 'PENDING-USER-1',
    }).expect(202);
    expect(next.body.token).toBeUndefined();
    const nextToken = await signInTokenFrom(await outboxMails(t.dir, 'next@example.com'));
    expect(decodeJwtPayload(nextToken).userId).not.toBe(first.user.userId);
    // Used up now: a third holder gets nothing at all.
    const third = await json('/api/premiumLogin', {
      email: 'third@example.com',
      inviteCode: 'PENDING-USER-1',
    }).expect(401);
    expect(third.body.token).toBeUndefined();
    await foldUserData(t);
    const users = await readJson<{ users: { userId: string; email: string | null }[] }>(
      path.join(t.dir, 'users.json'),
    );
    expect(users.users.find((u) => u.userId === first.user.userId)?.email).toBeNull();
    // The first holder still binds their own email with their token.
    const mine = await json('/api/premiumLogin', {
      email: 'first-holder@example.com',
      inviteCode: 'PENDING-USER-1',
    })
      .set('Authorization', `Bearer ${first.token}`)
      .expect(200);
    expect(decodeJwtPayload(mine.body.token as string)).toMatchObject({
      userId: first.user.userId,
      email: 'first-holder@example.com',
    });
  });

  it('works without the invite step (spends one use): the token comes by the mailed link', async () => {
    await createInvite(t.deps.userData, { code: 'DIRECT-LOGIN', maxUses: 1 });
    const res = await json('/api/premiumLogin', {
      email: 'direct@example.com',
      inviteCode: 'DIRECT-LOGIN',
    }).expect(202);
    expect(res.body).toEqual({ success: true, emailSent: true, message: expect.any(String) });
    const token = await signInTokenFrom(await outboxMails(t.dir, 'direct@example.com'));
    expect(decodeJwtPayload(token).email).toBe('direct@example.com');
    // The use is spent.
    await json('/api/premium', { inviteCode: 'DIRECT-LOGIN' }).expect(401);
  });

  it('a wrong code → 401 {success:false, error}', async () => {
    const res = await json('/api/premiumLogin', {
      email: 'x@example.com',
      inviteCode: 'WRONG',
    }).expect(401);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'invalid_invite_code', message: expect.any(String) },
    });
  });

  it('an invalid email → 400 {success:false, error}', async () => {
    const res = await json('/api/premiumLogin', {
      email: 'not-an-email',
      inviteCode: 'GOOD-CODE-1',
    }).expect(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'invalid_email' } });
  });
});

describe('GET /api/premium/strategies/:id (koa-jwt)', () => {
  let token: string;
  beforeAll(async () => {
    await createInvite(t.deps.userData, { code: 'ANALYSIS-CODE', maxUses: 5 });
    token = (await login('ANALYSIS-CODE')).token;
  });
  const get = (id: string, auth?: string) => {
    const req = t.http.get(`/api/premium/strategies/${id}`);
    return auth === undefined ? req : req.set('Authorization', auth);
  };

  it('a known source is ready: breakdown, 180 days of history, ratings', async () => {
    const res = await get('3', `Bearer ${token}`).expect(200);
    const a = res.body as PremiumStrategyAnalysis;
    expect(a).toMatchObject({ id: 3, name: 'Liquity v1 - Stability Pool', status: 'ready' });
    expect(a.source!.id).toBe(3);
    expect(a.breakdown).toMatchObject({ id: 3, method: 'ra30-v1', status: 'ok' });
    expect(a.history).toHaveLength(180);
    expect(a.thirdPartyRatings).toHaveLength(9);
    expect(a.summary).toMatch(/risk-adjusted APR/);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('a premium-only source is ready without third-party ratings; the incident is mentioned', async () => {
    const a = (await get('8', `Bearer ${token}`).expect(200)).body as PremiumStrategyAnalysis;
    expect(a.status).toBe('ready');
    expect(a.thirdPartyRatings).toEqual([]);
    expect(a.summary).toMatch(/incident/);
  });

  it('a detail-page slug resolves to its source', async () => {
    const a = (await get('lido', `Bearer ${token}`).expect(200)).body as PremiumStrategyAnalysis;
    expect(a).toMatchObject({ id: 13, status: 'ready' });
  });

  it('an unknown but plausible id is "analyzing" (200), not an auth failure', async () => {
    for (const id of ['strategy', '42']) {
      const a = (await get(id, `Bearer ${token}`).expect(200)).body as PremiumStrategyAnalysis;
      expect(a).toMatchObject({ status: 'analyzing', breakdown: null, source: null, history: [] });
    }
    expect((await get('42', `Bearer ${token}`)).body.id).toBe(42);
  });

  it('a malformed id is a 400', async () => {
    await get('a.b', `Bearer ${token}`).expect(400);
  });

  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = () => ({
    sub: 'u1',
    userId: 'u1',
    email: null,
    accessLevel: 'premium',
    exp: Math.floor(Date.now() / 1000) + 3600,
  });

  it.each<[string, () => string | undefined]>([
    ['no token', () => undefined],
    ['a non-bearer header', () => 'Basic abc'],
    ['garbage', () => 'Bearer not.a.jwt'],
    ['alg none', () => `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    [
      'a wrong signature',
      () =>
        `Bearer ${jwt.sign(claims(), 'another-secret-another-secret-another', { algorithm: 'HS256' })}`,
    ],
    [
      'a tampered payload',
      () => {
        const [h, , s] = jwt
          .sign({ ...claims(), accessLevel: 'basic' }, TEST_SECRET, { algorithm: 'HS256' })
          .split('.');
        return `Bearer ${h}.${b64(claims())}.${s}`;
      },
    ],
    [
      'an expired token',
      () =>
        `Bearer ${jwt.sign({ ...claims(), exp: Math.floor(Date.now() / 1000) - 10 }, TEST_SECRET, { algorithm: 'HS256' })}`,
    ],
    [
      'HS512 with the right secret (algorithm pinned)',
      () => `Bearer ${jwt.sign(claims(), TEST_SECRET, { algorithm: 'HS512' })}`,
    ],
    [
      'a valid signature without accessLevel premium',
      () =>
        `Bearer ${jwt.sign({ ...claims(), accessLevel: 'basic' }, TEST_SECRET, { algorithm: 'HS256' })}`,
    ],
  ])('refuses %s with 401 JSON', async (_name, auth) => {
    const res = await get('3', auth()).expect(401);
    expect(res.body).toMatchObject({
      error: { code: expect.any(String), message: expect.any(String) },
    });
    expect(res.headers['www-authenticate']).toMatch(/Bearer/);
  });

  it('accepts a correctly signed premium token made elsewhere with the same secret for an existing user', async () => {
    const { user } = await login('ANALYSIS-CODE');
    const good = jwt.sign({ ...claims(), sub: user.userId, userId: user.userId }, TEST_SECRET, {
      algorithm: 'HS256',
    });
    await get('3', `Bearer ${good}`).expect(200);
    // The same token for a user the store does not know: refused.
    const unknown = await get(
      '3',
      `Bearer ${jwt.sign(claims(), TEST_SECRET, { algorithm: 'HS256' })}`,
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('premium_revoked');
  });

  it('refuses a correctly signed token of an existing user without exp (401), also for the CSV', async () => {
    const { user } = await login('ANALYSIS-CODE');
    const { exp: _exp, ...rest } = claims();
    const noExp = jwt.sign({ ...rest, sub: user.userId, userId: user.userId }, TEST_SECRET, {
      algorithm: 'HS256',
    });
    expect(decodeJwtPayload(noExp).exp).toBeUndefined();
    const res = await get('3', `Bearer ${noExp}`).expect(401);
    expect(res.body).toMatchObject({ error: { code: expect.any(String) } });
    const csv = await t.http.get('/api/scanner?format=csv').set('Authorization', `Bearer ${noExp}`);
    expect(csv.status).toBe(401);
    expect(csv.body.error.code).toBe('premium_required');
  });
});

describe('JWT secret', () => {
  it('is generated once into the data dir when JWT_SECRET is not set, and reused', async () => {
    const { tempDataDir } = await import('./helpers.ts');
    const { createDeps } = await import('../src/composition/deps.ts');
    const dir = await tempDataDir();
    const saved = process.env.JWT_SECRET;
    delete process.env.JWT_SECRET;
    try {
      // One server at a time owns a data directory: each restart follows a stop.
      const a = await createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 });
      await a.close();
      const b = await createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 });
      await b.close();
      expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
      expect(b.jwtSecret).toBe(a.jwtSecret);
      expect((await readFile(path.join(dir, '.jwt-secret'), 'utf8')).trim()).toBe(a.jwtSecret);
      process.env.JWT_SECRET = 'from-the-environment-from-the-environment';
      const c = await createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 });
      await c.close();
      expect(c.jwtSecret).toBe('from-the-environment-from-the-environment');
    } finally {
      if (saved === undefined) delete process.env.JWT_SECRET;
      else process.env.JWT_SECRET = saved;
    }
    const gitignore = await readFile(path.resolve(import.meta.dirname, '../.gitignore'), 'utf8');
    expect(gitignore).toMatch(/^data\/\.jwt-secret$/m);
  });
});

describe('invite:create command', () => {
  it('prints a random code once, supports expiry and use limits, rejects bad flags', async () => {
    const out = await runCreateInvite(
      ['--max-uses', '3', '--expires-in-days', '7', '--note', 'partners'],
      { DATA_DIR: t.dir },
    );
    expect(out.exitCode).toBe(0);
    const code = /^\s+(YIELD-[A-Z0-9-]+)$/m.exec(out.output)?.[1];
    expect(code).toBeDefined();
    const store = openStore(t.dir, silentLogger);
    await store.loadAll();
    const invite = store.get('invites')!.invites.find((i) => i.note === 'partners')!;
    expect(invite).toMatchObject({ maxUses: 3, uses: 0 });
    expect(Date.parse(invite.expiresAt!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    await json('/api/premium', { inviteCode: code }).expect(200);

    expect((await runCreateInvite(['--max-uses', '0'], { DATA_DIR: t.dir })).exitCode).toBe(2);
    expect((await runCreateInvite(['--expires-at', 'someday'], { DATA_DIR: t.dir })).exitCode).toBe(
      2,
    );
    // --expires (alias) with a past date: created, flagged, and refused at login.
    const past = await runCreateInvite(
      ['--code', 'ALREADY-EXPIRED', '--expires', '2001-01-01T00:00:00Z'],
      {
        DATA_DIR: t.dir,
      },
    );
    expect(past.exitCode).toBe(0);
    expect(past.output).toContain('already expired');
    const refused = await json('/api/premium', { inviteCode: 'ALREADY-EXPIRED' }).expect(401);
    expect(refused.body.error.code).toBe('invite_code_expired');
    expect((await runCreateInvite(['--bogus'], { DATA_DIR: t.dir })).exitCode).toBe(2);
    expect((await runCreateInvite(['--code', 'abc'], { DATA_DIR: t.dir })).exitCode).toBe(1);
    const unlimited = await runCreateInvite(['--unlimited', '--code', 'NO-LIMIT-CODE'], {
      DATA_DIR: t.dir,
    });
    expect(unlimited.output).toContain('max uses: unlimited');
  });
});

describe('rate limits', () => {
  it.each([
    ['/api/premium', { inviteCode: 'NOPE-NOPE' }],
    ['/api/premiumLogin', { email: 'a@example.com', inviteCode: 'NOPE-NOPE' }],
    ['/api/addToMailList', { email: 'limit@example.com' }],
  ])('%s → 429 with Retry-After past the per-client limit', async (endpoint, body) => {
    const limited = await setup({ rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const send = () =>
        limited.http
          .post(endpoint)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
      for (let i = 0; i < 3; i++) expect((await send()).status).not.toBe(429);
      const res = await send().expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.body.error).toMatchObject({ code: 'rate_limited', message: expect.any(String) });
      if (endpoint !== '/api/addToMailList') expect(res.body.success).toBe(false);
      // Other endpoints and GETs are not affected.
      await limited.http.get('/api/strategies').expect(200);
    } finally {
      await limited.cleanup();
    }
  });
});
