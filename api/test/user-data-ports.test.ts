/**
 * The user-data ports split by aggregate: code that takes one port works with the whole store
 * (files or PostgreSQL) and with that aggregate's module alone, on the run's throwaway cluster.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PgAlerts } from '../src/modules/alerts/pg-store.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import { PgJobLocks } from '../src/platform/job-locks/pg.ts';
import { PgMailingList } from '../src/modules/mailing-list/pg-store.ts';
import { PgPremium } from '../src/modules/premium/pg-store.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import type { AlertStore } from '../src/modules/alerts/store.ts';
import { runExclusive, type JobLocks } from '../src/platform/job-locks/port.ts';
import type { MailingListStore } from '../src/modules/mailing-list/store.ts';
import type { PremiumStore } from '../src/modules/premium/store.ts';
import type { StoreHealth } from '../src/platform/store-health.ts';
import type { UserDataStore } from '../src/composition/user-data.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { setup, type TestContext } from './helpers.ts';
import { freshDatabase } from './pg-cluster.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const now = new Date('2026-11-20T10:00:00Z');

/** Callers that know one port each. */
async function signUpTwice(list: MailingListStore) {
  const first = await list.addSubscriber({
    email: 'Ann@x.test',
    source: 'footer',
    createdAt: now.toISOString(),
  });
  const again = await list.addSubscriber({
    email: 'ann@X.test',
    source: 'footer',
    createdAt: now.toISOString(),
  });
  return [first.created, again.created];
}

async function askTwice(alerts: AlertStore) {
  const sub = {
    id: crypto.randomUUID(),
    email: 'bob@x.test',
    sourceId: 3,
    kind: 'below-base' as const,
    createdAt: now.toISOString(),
    confirmedAt: null,
  };
  const a = await alerts.requestAlertConfirmation(sub, now);
  const b = await alerts.requestAlertConfirmation({ ...sub, id: crypto.randomUUID() }, now);
  return [a.mail, b.mail, a.record.id === b.record.id];
}

async function noInvite(premium: PremiumStore) {
  return premium.redeemInvite({
    inviteId: 'none',
    user: {
      userId: 'u1',
      inviteId: 'none',
      email: null,
      createdAt: now.toISOString(),
      lastLoginAt: now.toISOString(),
    },
    now,
  });
}

async function lockedTwice(locks: JobLocks) {
  return runExclusive(locks, 'job', () => runExclusive(locks, 'job', async () => 'inner'));
}

async function exercise(
  ports: { list: MailingListStore; alerts: AlertStore; premium: PremiumStore; locks: JobLocks },
  health?: StoreHealth,
) {
  expect(await signUpTwice(ports.list)).toEqual([true, false]);
  expect(await askTwice(ports.alerts)).toEqual([true, false, true]);
  expect(await noInvite(ports.premium)).toEqual({ ok: false, reason: 'invalid' });
  // The same lock held: the inner round is skipped.
  expect(await lockedTwice(ports.locks)).toBeNull();
  if (health) expect((await health.health()).available).toBe(true);
}

const whole = (s: UserDataStore) => ({ list: s, alerts: s, premium: s, locks: s });

describe('user-data ports', () => {
  it('the file store serves each port', async () => {
    const t: TestContext = await setup();
    cleanups.push(() => t.cleanup());
    await exercise(whole(t.deps.userData), t.deps.userData);
  });

  it('PostgreSQL: the whole store serves each port', async () => {
    const url = await freshDatabase(inject('pgBaseUrl'));
    const store = await PgUserDataStore.open({ connectionString: url, logger: silentLogger });
    cleanups.push(() => store.close());
    await exercise(whole(store), store);
  });

  it("PostgreSQL: each aggregate's module works alone over the shared connection", async () => {
    const url = await freshDatabase(inject('pgBaseUrl'));
    const db = new PgConnection({ connectionString: url, logger: silentLogger });
    cleanups.push(() => db.close());
    await db.ensureReady();
    await exercise(
      {
        list: new PgMailingList(db),
        alerts: new PgAlerts(db),
        premium: new PgPremium(db),
        locks: new PgJobLocks(db),
      },
      db,
    );
  });
});
