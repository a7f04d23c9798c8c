/**
 * Premium sign-in links with two site processes (two machines: each its own data directory) on one
 * PostgreSQL database and a real SMTP server in this process: two premiumLogin requests for one
 * registered address, one to each process at once, send one e-mail (the cap is the store's, not a
 * process's), a new address gets the same answer, and the link opened on both processes at once
 * gives one token.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { post, startApi } from './api-process.ts';
import { tempDataDir } from './helpers.ts';
import { freePort, freshDatabase } from './pg-cluster.ts';
import { linkIn, startInbox } from './smtp-inbox.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { silentLogger } from '../src/platform/logger.ts';

const PUBLIC_URL = 'https://site.example';
const CODE = 'TWO-MACHINES-1';

const procs: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
  for (const c of cleanups.splice(0).reverse()) await c();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sign-in links on two processes sharing one PostgreSQL', () => {
  it('one e-mail for two requests of one address (one to each process); the link gives one token', async () => {
    const inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const store = await PgUserDataStore.open({
      connectionString: databaseUrl,
      logger: silentLogger,
    });
    await createInvite(store, { code: CODE, maxUses: 10 });
    await store.close();
    const ports = (await Promise.all(
      ['a', 'b'].map(async () => {
        const dir = await tempDataDir();
        cleanups.push(() => rm(dir, { recursive: true, force: true }));
        const port = await freePort();
        const env = { DATABASE_URL: databaseUrl, SMTP_URL: inbox.url, PUBLIC_URL };
        procs.push(await startApi(dir, port, env));
        return port;
      }),
    )) as [number, number];

    // The site's flow on process A: the invite step, then the e-mail with its token.
    const invite = await post(ports[0], '/api/premium', { inviteCode: CODE });
    const { token } = (await invite.json()) as { token: string };
    const bound = await fetch(`http://127.0.0.1:${ports[0]}/api/premiumLogin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: 'member@example.com', inviteCode: CODE }),
    });
    expect(bound.status).toBe(200);

    // Someone with the code asks for the member's link on both machines at once, and for a new
    // address: the same answer each time.
    const answers = await Promise.all([
      post(ports[0], '/api/premiumLogin', { email: 'member@example.com', inviteCode: CODE }),
      post(ports[1], '/api/premiumLogin', { email: 'Member@Example.com', inviteCode: CODE }),
      post(ports[1], '/api/premiumLogin', { email: 'newcomer@example.com', inviteCode: CODE }),
    ]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(new Set(bodies).size).toBe(1);

    await inbox.waitFor(
      () =>
        inbox.to('member@example.com').length >= 1 && inbox.to('newcomer@example.com').length >= 1,
      20_000,
    );
    await pause(1500);
    expect(inbox.to('member@example.com')).toHaveLength(1);
    expect(inbox.to('newcomer@example.com')).toHaveLength(1);
    // Counted once in the store, whichever process asked.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const counted = await db.query<{ email: string }>(
      "SELECT email FROM confirmation_mails WHERE scope = 'premium-sign-in' ORDER BY email",
    );
    expect(counted.rows.map((r) => r.email)).toEqual([
      'member@example.com',
      'newcomer@example.com',
    ]);

    // The member's link, opened on both machines at once: one token.
    const link = linkIn(inbox.to('member@example.com')[0]!, `${PUBLIC_URL}/api/premium/sign-in?`);
    const pages = await Promise.all(
      ports.map((port) => fetch(`http://127.0.0.1:${port}${link.pathname}${link.search}`)),
    );
    const texts = await Promise.all(pages.map((p) => p.text()));
    expect(pages.map((p) => p.status).sort()).toEqual([200, 410]);
    expect(texts.filter((t) => t.includes('id="premium-session"'))).toHaveLength(1);
  }, 120_000);
});
