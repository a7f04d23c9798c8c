/**
 * Alerts with two site processes (two machines: each its own data directory) on one PostgreSQL
 * database, a real SMTP server in this process and `data:import` against the DeFiLlama replay:
 * savers subscribe and confirm across both processes, one import into both directories at once
 * makes a crossing, both processes evaluate (one at a time, under the lock) and write the alert
 * e-mails to the outbox, both send from it and are killed before the mail server accepted their
 * messages: a restarted process sends them, and every crossing is mailed exactly once.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runImportCli } from '../scripts/import-data.ts';
import { exited, post, startApi } from './api-process.ts';
import { tempDataDir } from './helpers.ts';
import { freePort, freshDatabase } from './pg-cluster.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';
import { replayAllFeeds } from './import-fixtures.ts';
import { linkIn, startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://alerts.example';

const procs: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One machine: its data directory, its port, its sender address (to tell the two apart). */
interface Machine {
  name: string;
  dir: string;
  port: number;
  env: Record<string, string>;
  proc: ChildProcess;
  /** Everything it logged (JSON lines). */
  log: string[];
}

async function startMachine(m: Omit<Machine, 'proc' | 'log'>): Promise<Machine> {
  const proc = await startApi(m.dir, m.port, m.env);
  procs.push(proc);
  const log: string[] = [];
  proc.stdout!.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n')));
  return { ...m, proc, log };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `data:import` into one machine's directory, from the replay server. */
/** data:import with the machines' database: the import is published, every machine serves it. */
async function importInto(m: Machine, server: ReplayServer): Promise<void> {
  const result = await runImportCli(
    [
      '--data-dir',
      m.dir,
      '--api-url',
      server.url,
      '--coins-api-url',
      server.url,
      '--timeout-ms',
      '5000',
    ],
    { ...process.env, DATABASE_URL: m.env.DATABASE_URL },
  );
  expect(result.exitCode, result.output).toBe(0);
}

const constantApy = (apy: number) => ({
  kind: 'json' as const,
  body: chartBody(
    dailyPoints({ lastDay: new Date().toISOString().slice(0, 10), days: 60, apy, tvlUsd: 2e8 }),
  ),
});

const isAlert = (subject: string | undefined) => !(subject ?? '').startsWith('Confirm');

describe('alerts on two processes sharing one PostgreSQL', () => {
  it('each crossing is mailed exactly once, also when the sending process dies before the mail server accepted it', async () => {
    const inbox: Inbox = await startInbox();
    cleanups.push(() => inbox.close());
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const machines = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const dir = await tempDataDir();
        cleanups.push(() => rm(dir, { recursive: true, force: true }));
        const env = {
          DATABASE_URL: databaseUrl,
          SMTP_URL: inbox.url,
          PUBLIC_URL,
          MAIL_FROM: `Pigi alerts <${name}@alerts.example>`,
          DATA_POLL_MS: '100',
        };
        return startMachine({ name, dir, port: await freePort(), env });
      }),
    );
    const [a, b] = machines as [Machine, Machine];
    const server = await replayAllFeeds(a.dir, new Date().toISOString().slice(0, 10));
    cleanups.push(() => server.close());
    const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    cleanups.push(() => db.end());

    // The source the import moves below its base rate: first above it on both machines.
    const sources = (await (await fetch(`http://127.0.0.1:${a.port}/api/sources`)).json()) as {
      id: number;
      isBaseRate: boolean;
      feeds: { provider: string; pool?: string }[];
    }[];
    const llamaPool = (s: (typeof sources)[number]) =>
      s.feeds.find((f) => f.provider === 'defillama')?.pool;
    const source = sources.find((s) => !s.isBaseRate && llamaPool(s))!;
    const pool = llamaPool(source)!;
    server.set(pool, constantApy(12));
    await Promise.all(machines.map((m) => importInto(m, server)));

    // Four savers subscribe and confirm, across both processes.
    const emails = ['ann@example.com', 'bob@example.com', 'cat@example.com', 'dan@example.com'];
    for (const [i, email] of emails.entries()) {
      const res = await post(machines[i % 2]!.port, '/api/alerts', {
        email,
        sourceId: source.id,
        kind: 'below-base',
      });
      expect(res.status).toBe(202);
    }
    await inbox.waitFor((m) => m.length === emails.length, 30_000);
    for (const [i, email] of emails.entries()) {
      const link = linkIn(inbox.to(email)[0]!, `${PUBLIC_URL}/api/alerts/confirm?`);
      const res = await fetch(
        `http://127.0.0.1:${machines[(i + 1) % 2]!.port}${link.pathname}${link.search}`,
      );
      expect(res.status).toBe(200);
    }
    const confirmed = await db.query(
      'SELECT 1 FROM alert_subscriptions WHERE confirmed_at IS NOT NULL',
    );
    expect(confirmed.rowCount).toBe(emails.length);

    // The mail server answers nothing for now; the import that makes the crossing lands on both
    // machines at once, and both evaluate (one at a time, under the lock): every delivery is
    // recorded in the ledger and its e-mail written to the outbox, and both processes send from it.
    inbox.hold();
    server.set(pool, constantApy(0.2));
    await Promise.all(machines.map((m) => importInto(m, server)));
    await until('both processes send an alert at once', () => inbox.held.length === 2);
    // Every delivery is in the ledger, none sent; each is one row of the outbox.
    const ledger = () =>
      db.query<{ subscription_id: string; sent_at: Date | null }>(
        'SELECT subscription_id, sent_at FROM alert_deliveries',
      );
    expect((await ledger()).rows).toHaveLength(emails.length);
    expect((await ledger()).rows.every((r) => r.sent_at === null)).toBe(true);
    const outbox = await db.query("SELECT 1 FROM mail_outbox WHERE kind = 'alert'");
    expect(outbox.rowCount).toBe(emails.length);

    // Both processes die before the mail server accepted their messages.
    for (const m of machines) m.proc.kill('SIGKILL');
    await Promise.all(machines.map((m) => exited(m.proc)));
    // Released only once the mail server has seen the connections close, as a real server would
    // have by the time it answered: the dead senders' messages are then dropped, never accepted.
    await until('the mail server sees the senders hang up', () => inbox.heldHungUp());
    inbox.release();
    expect(inbox.messages.filter((m) => isAlert(m.subject))).toEqual([]);

    // One comes back: the claims of the dead were rolled back, so it sends every alert.
    const restarted = await startMachine(a);
    await inbox.waitFor(
      (m) => m.filter((x) => isAlert(x.subject)).length === emails.length,
      30_000,
    );
    // The other comes back too: its evaluation at start sends nothing more.
    await startMachine(b);
    await new Promise((r) => setTimeout(r, 1500));

    for (const email of emails) {
      const alerts = inbox.to(email).filter((m) => isAlert(m.subject));
      expect(alerts, email).toHaveLength(1);
      expect(alerts[0]!.text).toContain(`${PUBLIC_URL}/strategy/${source.id}`);
    }
    expect(inbox.messages.filter((m) => isAlert(m.subject))).toHaveLength(emails.length);
    const rows = (await ledger()).rows;
    expect(rows).toHaveLength(emails.length);
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
    expect(restarted.proc.exitCode).toBeNull();
  }, 180_000);
});
