/**
 * Invite-code checks (scrypt) running at once in one process are capped, with a bounded queue:
 * a flood of guesses is refused at once instead of holding the thread pool for everyone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  findInvite,
  hashCode,
  INVITE_CHECK_CONCURRENCY,
  INVITE_CHECK_QUEUE,
} from '../src/modules/premium/invite-codes.ts';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('invite-code checks running at once', () => {
  it('beyond the running and queued checks a guess is refused at once with 429, success:false', async () => {
    t = await setup();
    const ctx = t;
    // Codes with salts of their own: every check costs one scrypt per salt, so held checks last.
    for (let i = 0; i < 4; i++) {
      const { salt, hash } = await hashCode(`SLOW-CODE-${i}`);
      await ctx.deps.userData.createInvite({
        id: `slow-${i}`,
        salt,
        hash,
        createdAt: new Date().toISOString(),
        expiresAt: null,
        maxUses: null,
        uses: 0,
      });
    }
    const post = (path: string, body: unknown) =>
      ctx.http.post(path).set('Content-Type', 'application/json').send(JSON.stringify(body));

    const held = Array.from({ length: INVITE_CHECK_CONCURRENCY + INVITE_CHECK_QUEUE }, () =>
      findInvite(ctx.deps.userData, 'HELD-GUESS'),
    );
    try {
      for (const [path, body] of [
        ['/api/premium', { inviteCode: 'SLOW-CODE-1' }],
        ['/api/premiumLogin', { email: 'a@example.com', inviteCode: 'SLOW-CODE-1' }],
      ] as const) {
        const res = await post(path, body);
        expect(res.status).toBe(429);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body).toMatchObject({
          success: false,
          error: { code: 'rate_limited', message: expect.any(String) },
        });
      }
    } finally {
      expect(await Promise.all(held)).toEqual(held.map(() => null));
    }
    // Once the checks are done the next guess is checked again, and a right code works.
    expect((await post('/api/premium', { inviteCode: 'WRONG-CODE' })).status).toBe(401);
    expect((await post('/api/premium', { inviteCode: 'slow-code-2' })).status).toBe(200);
  });
});
