/**
 * Premium access can be taken back: after `invite:disable`, or after its user is deleted by hand
 * (users.json, or the premium_users table), a token is refused within 60 s on the premium report
 * and on the scanner's CSV, with the file store and with PostgreSQL. The clock of the API is
 * moved forward instead of waiting a minute.
 */
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { runDisableInvite } from '../scripts/disable-invite.ts';
import {
  editFile,
  foldUserData,
  outboxMails,
  readJson,
  setup,
  type TestContext,
} from './helpers.ts';
import { freshDatabase } from './pg-cluster.ts';

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.cleanup();
});

/** An API whose clock the test moves (deps.now; the tokens' own exp still uses the real time). */
async function clockedSetup(databaseUrl: string | null) {
  let offsetMs = 0;
  const t = await setup({ databaseUrl, now: () => new Date(Date.now() + offsetMs) });
  contexts.push(t);
  return { t, advance: (ms: number) => void (offsetMs += ms) };
}

async function loginWith(t: TestContext, code: string): Promise<{ token: string; userId: string }> {
  const res = await t.http
    .post('/api/premium')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ inviteCode: code }))
    .expect(200);
  return { token: res.body.token as string, userId: res.body.user.userId as string };
}

/** The premium report and the scanner's CSV, as the holder of `token` sees them. */
async function premiumReads(t: TestContext, token: string): Promise<[number, number]> {
  const report = await t.http
    .get('/api/premium/strategies/3')
    .set('Authorization', `Bearer ${token}`);
  const csv = await t.http.get('/api/scanner?format=csv').set('Authorization', `Bearer ${token}`);
  if (report.status === 401) expect(report.body.error).toMatchObject({ code: 'premium_revoked' });
  if (csv.status === 401) expect(csv.body.error).toMatchObject({ code: 'premium_required' });
  return [report.status, csv.status];
}

for (const variant of ['files', 'postgres'] as const) {
  describe(`revoking premium access (${variant})`, () => {
    const databaseUrl = async () =>
      variant === 'postgres' ? await freshDatabase(inject('pgBaseUrl')) : null;

    it('invite:disable refuses the tokens of the code within 60 s (report and CSV), and the code itself', async () => {
      const dbUrl = await databaseUrl();
      const { t, advance } = await clockedSetup(dbUrl);
      const { id } = await createInvite(t.deps.userData, { code: 'DISABLE-ME-1', maxUses: 5 });
      await createInvite(t.deps.userData, { code: 'KEEP-ME-1', maxUses: 5 });
      const revoked = await loginWith(t, 'DISABLE-ME-1');
      const kept = await loginWith(t, 'KEEP-ME-1');
      expect(await premiumReads(t, revoked.token)).toEqual([200, 200]);

      const cliEnv = dbUrl ? { DATABASE_URL: dbUrl } : { DATA_DIR: t.dir };
      const out = await runDisableInvite(['--', '--id', id], cliEnv);
      expect(out.exitCode).toBe(0);
      expect(out.output).toContain(id);

      advance(61_000);
      expect(await premiumReads(t, revoked.token)).toEqual([401, 401]);
      // The scanner without the CSV: the teaser, as for anyone.
      const teaser = await t.http
        .get('/api/scanner')
        .set('Authorization', `Bearer ${revoked.token}`)
        .expect(200);
      expect(teaser.body.teaser).toBe(true);
      // Other codes' users keep their access.
      expect(await premiumReads(t, kept.token)).toEqual([200, 200]);
      // Nobody logs in with the code any more.
      const again = await t.http
        .post('/api/premium')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ inviteCode: 'DISABLE-ME-1' }))
        .expect(401);
      expect(again.body).toMatchObject({ success: false, error: { code: 'invalid_invite_code' } });

      // By code; an unknown one changes nothing.
      expect((await runDisableInvite(['--code', 'keep-me-1'], cliEnv)).exitCode).toBe(0);
      advance(61_000);
      expect(await premiumReads(t, kept.token)).toEqual([401, 401]);
      expect((await runDisableInvite(['--code', 'NO-SUCH-CODE'], cliEnv)).exitCode).toBe(1);
      expect((await runDisableInvite(['--id', 'no-such-id'], cliEnv)).exitCode).toBe(1);
      expect((await runDisableInvite([], cliEnv)).exitCode).toBe(2);
    });

    it("premiumLogin: the owner's email gets no token without the owner's token; the own token binds", async () => {
      const { t, advance } = await clockedSetup(await databaseUrl());
      await createInvite(t.deps.userData, { code: 'STORE-OWNER-1', maxUses: 2 });
      const owner = await loginWith(t, 'STORE-OWNER-1');
      const send = (email: string, token?: string) => {
        const req = t.http
          .post('/api/premiumLogin')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ email, inviteCode: 'STORE-OWNER-1' }));
        return token ? req.set('Authorization', `Bearer ${token}`) : req;
      };
      const bound = await send('owner@example.com', owner.token).expect(200);
      expect(bound.body.user).toMatchObject({ userId: owner.userId, email: 'owner@example.com' });
      const answers = [];
      for (let i = 0; i < 5; i++) {
        const res = await send('Owner@Example.com').expect(202);
        expect(res.body.token).toBeUndefined();
        expect(res.body.emailSent).toBe(true);
        answers.push(res.body);
      }
      // The second use: a new user for a new email, never the owner; the same answer, no token.
      const other = await send('other@example.com').expect(202);
      expect(other.body).toEqual(answers[0]);
      const invites = await t.deps.userData.listInvites();
      expect(invites.find((i) => i.uses === 2)).toBeDefined();
      expect(await outboxMails(t.dir, 'other@example.com')).toHaveLength(1);
      // Used up: the same answer whether the email is the owner's or nobody's.
      for (const email of ['owner@example.com', 'nobody@example.com']) {
        const res = await send(email).expect(401);
        expect(res.body).toEqual({
          success: false,
          error: { code: 'invite_code_used_up', message: expect.any(String) },
        });
      }

      // The owner's mailbox got one sign-in link: it works for an hour.
      const linkOf = async (n: number) => {
        const mails = await outboxMails(t.dir, 'owner@example.com', n);
        expect(mails).toHaveLength(n);
        const url = new URL(
          /https?:\/\/\S+\/api\/premium\/sign-in\?token=\S+/.exec(mails[n - 1]!.text ?? '')![0],
        );
        return url.pathname + url.search;
      };
      const first = await linkOf(1);
      expect((await t.http.get(first).expect(200)).text).toContain('premium-session');
      advance(61 * 60_000);
      const expired = await t.http.get(first).expect(400);
      expect(expired.text).toContain('Link expired');
      // A new link (the code is used up: the same 401, the link is mailed all the same)...
      await send('owner@example.com').expect(401);
      const second = await linkOf(2);
      // ...is worthless once the code is disabled.
      const invite = (await t.deps.userData.listInvites()).find((i) => i.uses === 2)!;
      expect(await t.deps.userData.disableInvite(invite.id)).toBe(true);
      const gone = await t.http.get(second).expect(404);
      expect(gone.text).not.toContain('premium-session');
    });

    it('deleting the user by hand refuses its token within 60 s (report and CSV)', async () => {
      const dbUrl = await databaseUrl();
      const { t, advance } = await clockedSetup(dbUrl);
      await createInvite(t.deps.userData, { code: 'DELETE-USER-1', maxUses: 5 });
      const gone = await loginWith(t, 'DELETE-USER-1');
      const stays = await loginWith(t, 'DELETE-USER-1');
      expect(await premiumReads(t, gone.token)).toEqual([200, 200]);

      if (dbUrl) {
        const client = new pg.Client({ connectionString: dbUrl });
        await client.connect();
        try {
          await client.query('DELETE FROM premium_users WHERE user_id = $1', [gone.userId]);
        } finally {
          await client.end();
        }
      } else {
        await foldUserData(t);
        const file = path.join(t.dir, 'users.json');
        const users = await readJson<{ users: { userId: string }[] }>(file);
        const left = users.users.filter((u) => u.userId !== gone.userId);
        expect(left).toHaveLength(users.users.length - 1);
        await editFile(file, `${JSON.stringify({ users: left }, null, 2)}\n`);
      }

      advance(61_000);
      expect(await premiumReads(t, gone.token)).toEqual([401, 401]);
      expect(await premiumReads(t, stays.token)).toEqual([200, 200]);
    });
  });
}
