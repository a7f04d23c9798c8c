/**
 * The scheduled jobs run under the user-data store's lock (withExclusiveLock): one process at a
 * time evaluates alerts or imports into a data directory, and a process that finds the lock taken
 * skips that round (and logs it) instead of waiting. "Another process" is a second set of deps on
 * the same PostgreSQL database; with the files, one process owns them and the lock is its mutex.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { EVALUATION_LOCK } from '../src/modules/alerts/evaluate.ts';
import { runExclusive } from '../src/platform/job-locks/port.ts';
import type { OutgoingMail } from '../src/modules/alerts/mailer.ts';
import type { CreateDepsOptions } from '../src/composition/deps.ts';
import { feedTargets } from '../src/modules/import/run-import.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { NOW, openIncident, readSources, replayAllFeeds, TODAY } from './import-fixtures.ts';
import { freshDatabase } from './pg-cluster.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';

const contexts: TestContext[] = [];
let server: ReplayServer | undefined;
afterEach(async () => {
  // Every process sharing a directory stops (its imports and pool-history backfills) before the
  // directory is removed.
  const all = contexts.splice(0).reverse();
  for (const t of all) await t.deps.close();
  for (const dir of new Set(all.map((t) => t.dir))) await rm(dir, { recursive: true, force: true });
  await server?.close();
  server = undefined;
});

async function open(options: CreateDepsOptions & { dir?: string }): Promise<TestContext> {
  const t = await setup({
    now: () => NOW,
    smtpUrl: '',
    publicUrl: 'https://alerts.example',
    ...options,
  });
  contexts.push(t);
  return t;
}

/** An incident opens on source 3 (a crossing for `incident` alerts); the evaluation it starts ends. */
async function incidentOn3(t: TestContext): Promise<void> {
  await openIncident(t);
  await t.deps.alerts.settled();
}

/** Confirmed `incident` subscriptions to source 3, stored directly (no crossing marked handled). */
async function confirmedSubscribers(t: TestContext, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `saver${i}@example.com`);
  for (const [i, email] of emails.entries()) {
    const { subscription } = await t.deps.userData.addAlertSubscription({
      id: `sub-${i}`,
      email,
      sourceId: 3,
      kind: 'incident',
      createdAt: new Date(NOW.getTime() - 86_400_000 + i * 1000).toISOString(),
      confirmedAt: null,
    });
    await t.deps.userData.confirmAlertSubscription({ id: subscription.id, now: NOW });
  }
  return emails;
}

/**
 * Replaces the context's mailer: records every recipient, and holds the first send until
 * `release()` (an SMTP server that is slow to answer).
 */
function holdFirstSend(t: TestContext) {
  const mailer = t.deps.alerts.ctx.mailer;
  const send = mailer.send.bind(mailer);
  const sentTo: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let holding!: () => void;
  const held = new Promise<void>((r) => (holding = r));
  let first = true;
  mailer.send = async (mail: OutgoingMail) => {
    if (first) {
      first = false;
      holding();
      await released;
    }
    await send(mail);
    sentTo.push(mail.to);
  };
  return { sentTo, held, release };
}

const skippedEvaluations = (t: TestContext) =>
  t.logger.lines.filter((l) => l.message === 'alert evaluation skipped: another process evaluates')
    .length;

describe('alert evaluation under the lock', () => {
  it('PostgreSQL: a second process evaluating meanwhile skips the round; each alert is sent once', async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const a = await open({ databaseUrl });
    const b = await open({ databaseUrl });
    // The edit is published once (the yield data of both): B takes it at its next look.
    await incidentOn3(a);
    await b.deps.published!.check();
    await b.deps.alerts.settled();
    const emails = await confirmedSubscribers(a, 3);
    const mailsA = holdFirstSend(a);
    const mailsB = holdFirstSend(b);

    // B evaluates (it holds the lock): A's round meanwhile is skipped and records nothing.
    let evaluating!: () => void;
    const started = new Promise<void>((r) => (evaluating = r));
    let finish!: () => void;
    const lockedB = runExclusive(b.deps.userData, EVALUATION_LOCK, async () => {
      evaluating();
      await new Promise<void>((r) => (finish = r));
    });
    await started;
    const skippedBefore = skippedEvaluations(a);
    expect(await a.deps.alerts.evaluate()).toBeNull();
    expect(skippedEvaluations(a)).toBe(skippedBefore + 1);
    expect(await a.deps.userData.listUndeliveredAlerts()).toEqual([]);
    finish();
    await lockedB;

    // A evaluates: each delivery is recorded and its e-mail written to the outbox, from which
    // both processes send. While A's first send is held by its mail server, B's evaluation finds
    // the deliveries unsent but their e-mails waiting: it writes nothing, and waits for no send.
    expect(await a.deps.alerts.evaluate()).toEqual({ sent: 3, failed: 0 });
    await mailsA.held;
    expect(await b.deps.alerts.evaluate()).toEqual({ sent: 0, failed: 0 });
    mailsA.release();
    mailsB.release();
    await Promise.all([a.deps.alerts.settled(), b.deps.alerts.settled()]);
    expect([...mailsA.sentTo, ...mailsB.sentTo].sort()).toEqual(emails);
    expect(await a.deps.userData.listUndeliveredAlerts()).toEqual([]);
    // Everything is sent: another evaluation sends nothing more.
    expect(await b.deps.alerts.evaluate()).toEqual({ sent: 0, failed: 0 });
    await Promise.all([a.deps.alerts.settled(), b.deps.alerts.settled()]);
    expect([...mailsA.sentTo, ...mailsB.sentTo]).toHaveLength(3);
  });

  it('files: the evaluation holds the store lock while it runs, and frees it after', async () => {
    const t = await open({});
    await incidentOn3(t);
    await confirmedSubscribers(t, 2);
    const mails = holdFirstSend(t);
    const evaluation = t.deps.alerts.evaluate();
    await mails.held;
    expect(await t.deps.userData.withExclusiveLock(EVALUATION_LOCK, async () => undefined)).toBe(
      false,
    );
    mails.release();
    expect(await evaluation).toEqual({ sent: 2, failed: 0 });
    expect(await t.deps.userData.withExclusiveLock(EVALUATION_LOCK, async () => undefined)).toBe(
      true,
    );
  });
});

describe('scheduled import under the lock', () => {
  it('two processes importing into one data directory: one imports, the other skips the round', async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const dir = await tempDataDir();
    server = await replayAllFeeds(dir);
    // One slow feed keeps the first import running while the second process starts.
    const pool = feedTargets(await readSources(dir)).targets[0]!.pool;
    server.set(pool!, {
      kind: 'json',
      body: chartBody(dailyPoints({ lastDay: TODAY, days: 60, apy: 4, tvlUsd: 2e8 })),
      delayMs: 1500,
    });
    const importing = {
      databaseUrl,
      dir,
      importIntervalMs: 3_600_000,
      defillamaApiUrl: server.url,
      coinsApiUrl: server.url,
      // The pools' history backfill reads /chart too (the top pools of the snapshot the import
      // loads, this feed's pool among them): off, so that the count below is the imports' alone.
      poolBackfill: { top: 0 },
    };
    const a = await open(importing);
    const b = await open(importing);
    const charts = () => server!.requests.filter((r) => r.startsWith(`/chart/${pool}`)).length;
    const done = (t: TestContext) => {
      const s = t.deps.importSchedule!.state();
      return s.lastRunAt !== null && !s.running;
    };
    for (let i = 0; i < 200 && !(done(a) && done(b)); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(done(a) && done(b)).toBe(true);

    const skipped = (t: TestContext) =>
      t.logger.lines.filter(
        (l) => l.message === 'scheduled import skipped: another process imports',
      ).length;
    expect(skipped(a)).toBe(0);
    expect(skipped(b)).toBe(1);
    expect(charts()).toBe(1);
    // A skipped round is not a failure: no back-off.
    expect(b.deps.importSchedule!.state().consecutiveFailures).toBe(0);
  });
});
