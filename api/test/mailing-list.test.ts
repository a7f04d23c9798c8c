import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldUserData, readJson, setup, type TestContext } from './helpers.ts';

let t: TestContext;
beforeEach(async () => {
  t = await setup();
});
afterEach(async () => {
  await t.cleanup();
});

interface Entry {
  email: string;
  createdAt: string;
  source: string;
}
const entries = async () => {
  await foldUserData(t);
  return (await readJson<{ entries: Entry[] }>(path.join(t.dir, 'mailing-list.json'))).entries;
};
const post = (body: unknown) =>
  t.http
    .post('/api/addToMailList')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));

describe('POST /api/addToMailList', () => {
  it('stores a new address, unconfirmed, with time and source → 202', async () => {
    const res = await post({ email: 'new.saver@example.com', source: 'newsletter' }).expect(202);
    expect(res.body).toEqual({ success: true, message: expect.stringMatching(/Check your inbox/) });
    const list = await entries();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      email: 'new.saver@example.com',
      source: 'newsletter',
      confirmedAt: null,
    });
    expect(Date.parse(list[0]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('source defaults to "website"', async () => {
    await post({ email: 'plain@example.com' }).expect(202);
    expect((await entries())[0]!.source).toBe('website');
  });

  it('a repeat in any case is a success and is stored once', async () => {
    const first = await post({ email: 'Repeat@Example.com' }).expect(202);
    const again = await post({ email: '  repeat@EXAMPLE.com ' }).expect(202);
    expect(again.body).toEqual(first.body);
    expect((await entries()).map((e) => e.email)).toEqual(['repeat@example.com']);
  });

  it.each([
    [{ email: 'not-an-email' }],
    [{ email: '' }],
    [{ email: 42 }],
    [{}],
    [{ email: `${'a'.repeat(250)}@example.com` }],
    [{ email: 'ok@example.com', source: '<script>' }],
    [['ok@example.com']],
  ])('invalid input %j → 400 with a message', async (body) => {
    const res = await post(body).expect(400);
    expect(res.body).toMatchObject({
      error: { code: 'invalid_email', message: expect.any(String) },
    });
    expect(await entries()).toEqual([]);
  });

  it('500 concurrent distinct sign-ups are all stored exactly once', async () => {
    const emails = Array.from({ length: 500 }, (_, i) => `saver${i}@example.com`);
    const results = await Promise.all(emails.map((email) => post({ email })));
    expect(results.every((r) => r.status === 202)).toBe(true);
    const list = await entries();
    expect(list).toHaveLength(500);
    expect(new Set(list.map((e) => e.email))).toEqual(new Set(emails));
  });

  it('concurrent repeats of one address store it once', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post({ email: i % 2 ? 'same@example.com' : 'SAME@example.com' }),
      ),
    );
    expect(results.filter((r) => r.status === 202)).toHaveLength(50);
    expect(await entries()).toHaveLength(1);
  });
});
