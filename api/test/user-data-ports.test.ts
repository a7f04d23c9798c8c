/**
 * The user-data ports split by aggregate: code that takes one port works with the whole store
 * (files or PostgreSQL) and with that aggregate's module alone, on the run's throwaway cluster;
 * both stores forward each port method through one layer (UserDataFacade).
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PgAlerts } from '../src/modules/alerts/pg-store.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import { PgJobLocks } from '../src/platform/job-locks/pg.ts';
import { PgMailingList } from '../src/modules/mailing-list/pg-store.ts';
import { PgPremium } from '../src/modules/premium/pg-store.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import { UserDataFacade, type UserDataParts } from '../src/composition/user-data-facade.ts';
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

/** Every method of each port, by the part of an adapter that serves it (checked by tsc below). */
const PART_METHODS = {
  mailingList: [
    'addSubscriber',
    'requestMailingListConfirmation',
    'confirmMailingListEntry',
    'removeMailingListEntry',
  ],
  premium: [
    'listInvites',
    'createInvite',
    'redeemInvite',
    'loginWithInvite',
    'activateInviteEmail',
    'requestSignInMail',
    'consumeSignInLink',
    'activePremiumUser',
    'disableInvite',
  ],
  alerts: [
    'addAlertSubscription',
    'confirmAlertSubscription',
    'removeAlertSubscription',
    'listConfirmedAlertSubscriptions',
    'recordAlertDelivery',
    'markAlertDelivered',
    'listUndeliveredAlerts',
    'requestAlertConfirmation',
  ],
  locks: ['withExclusiveLock'],
  lifecycle: ['health', 'close'],
} as const satisfies {
  [P in Exclude<keyof UserDataParts, 'purgeUnconfirmed'>]: readonly (keyof UserDataParts[P])[];
};

type Listed = (typeof PART_METHODS)[keyof typeof PART_METHODS][number] | 'purgeUnconfirmed';
/** A port method missing from the list above fails the type check. */
const everyMethodListed: [Exclude<keyof UserDataStore, Listed>] extends [never] ? true : false =
  true;
const ALL_METHODS: readonly Listed[] = [...Object.values(PART_METHODS).flat(), 'purgeUnconfirmed'];

type Call = { part: string; method: string; args: unknown[] };

/** Parts whose every method records its call and answers a token naming itself. */
function recordingParts(calls: Call[]): UserDataParts {
  const part = (name: string, methods: readonly string[]) =>
    Object.fromEntries(
      methods.map((method) => [
        method,
        (...args: unknown[]) => {
          calls.push({ part: name, method, args });
          return Promise.resolve(`${name}.${method}`);
        },
      ]),
    );
  const parts = Object.fromEntries(
    Object.entries(PART_METHODS).map(([name, methods]) => [name, part(name, methods)]),
  );
  const purge = part('purge', ['purgeUnconfirmed']);
  return { ...parts, purgeUnconfirmed: purge.purgeUnconfirmed } as unknown as UserDataParts;
}

describe('one forwarding layer', () => {
  it('both stores take every port method from UserDataFacade, not a copy of their own', () => {
    expect(everyMethodListed).toBe(true);
    for (const method of ALL_METHODS) {
      const shared = UserDataFacade.prototype[method];
      expect(typeof shared, method).toBe('function');
      expect(FileUserDataStore.prototype[method], method).toBe(shared);
      expect(PgUserDataStore.prototype[method], method).toBe(shared);
      expect(Object.hasOwn(FileUserDataStore.prototype, method), method).toBe(false);
      expect(Object.hasOwn(PgUserDataStore.prototype, method), method).toBe(false);
    }
  });

  it("forwards each method once, with its arguments, to the part that serves it, and returns the part's answer", async () => {
    for (const [part, methods] of Object.entries(PART_METHODS)) {
      for (const method of methods) {
        const calls: Call[] = [];
        const facade = new UserDataFacade(recordingParts(calls));
        const forward = facade[method] as (...a: unknown[]) => Promise<unknown>;
        // As many arguments as the method declares (a port method takes at most two).
        const args = [{ arg: method }, now].slice(0, forward.length);
        expect(await forward.apply(facade, args)).toBe(`${part}.${method}`);
        expect(calls).toEqual([{ part, method, args }]);
      }
    }
    const calls: Call[] = [];
    expect(await new UserDataFacade(recordingParts(calls)).purgeUnconfirmed(now)).toBe(
      'purge.purgeUnconfirmed',
    );
    expect(calls).toEqual([{ part: 'purge', method: 'purgeUnconfirmed', args: [now] }]);
  });
});
