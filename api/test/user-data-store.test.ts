/**
 * The UserDataStore contract, run through the interface against both implementations: the
 * journaled JSON files and PostgreSQL on a real server (the run's throwaway cluster). For
 * PostgreSQL, "another process" is a second store with its own connection pool on the same
 * database; the file store has one owner, so there it is the same store.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ALERT_KINDS } from '@yield/contract';
import { openStore } from '../src/composition/data-files.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import type { InviteRecord, UserRecord } from '../src/modules/premium/schemas.ts';
import type { AlertSubscription, UserDataStore } from '../src/composition/user-data.ts';
import { MemoryRateCounter, type RateCounter } from '../src/platform/http/rate-limit.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { freshDatabase } from './pg-cluster.ts';
import { tempDataDir } from './helpers.ts';

interface Opened {
  /** The store a process uses. */
  store: UserDataStore;
  /** The same data as seen by another process. */
  other: UserDataStore;
  /** The rate counters of the two processes. */
  counters: [RateCounter, RateCounter];
  /** Closes everything and opens the data again, as a restart would. */
  reopen(): Promise<UserDataStore>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function openFiles(): Promise<Opened> {
  const dir = await tempDataDir();
  const open = async () => {
    const files = openStore(dir, silentLogger);
    const store = await FileUserDataStore.open(files, { logger: silentLogger, owner: true });
    await files.loadAll();
    cleanups.push(() => store.close());
    return store;
  };
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = await open();
  const counter = new MemoryRateCounter();
  return {
    store,
    other: store,
    counters: [counter, counter],
    reopen: async () => {
      await store.close();
      return open();
    },
  };
}

async function openPostgres(): Promise<Opened> {
  const url = await freshDatabase(inject('pgBaseUrl'));
  const open = async () => {
    const store = await PgUserDataStore.open({ connectionString: url, logger: silentLogger });
    cleanups.push(() => store.close());
    return store;
  };
  const store = await open();
  const other = await open();
  return {
    store,
    other,
    counters: [store, other],
    reopen: async () => {
      await store.close();
      await other.close();
      return open();
    },
  };
}

const invite = (over: Partial<InviteRecord> = {}): InviteRecord => ({
  id: randomUUID(),
  salt: 'c2FsdA==',
  hash: 'aGFzaA==',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: null,
  maxUses: 1,
  uses: 0,
  ...over,
});

const user = (inviteId: string, email: string | null = null): UserRecord => {
  const now = new Date().toISOString();
  return { userId: randomUUID(), inviteId, email, createdAt: now, lastLoginAt: now };
};

const subscription = (email: string, sourceId = 13, createdAt = new Date()): AlertSubscription => ({
  id: randomUUID(),
  email,
  sourceId,
  kind: 'below-base',
  createdAt: createdAt.toISOString(),
  confirmedAt: null,
});

const NOW = new Date('2026-06-01T12:00:00.000Z');

describe.each([
  ['files', openFiles],
  ['postgres', openPostgres],
] as const)('%s store', (_name, open) => {
  it('stores an address once whatever its letter case, also when sent at once from two processes', async () => {
    const { store, other, reopen } = await open();
    const at = new Date().toISOString();
    expect(
      await store.addSubscriber({ email: 'Ann@Example.com', source: 'web', createdAt: at }),
    ).toEqual({ created: true });
    expect(
      await other.addSubscriber({ email: 'ann@example.COM', source: 'web', createdAt: at }),
    ).toEqual({ created: false });
    const variants = ['bob@example.com', 'BOB@example.com', 'Bob@Example.com', 'bob@EXAMPLE.com'];
    const results = await Promise.all(
      variants.flatMap((email, i) => [
        store.addSubscriber({ email, source: `s${i}`, createdAt: at }),
        other.addSubscriber({ email, source: `o${i}`, createdAt: at }),
      ]),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    // Durable: what was acknowledged is there after a restart.
    const again = await reopen();
    expect(
      await again.addSubscriber({ email: 'BOB@EXAMPLE.COM', source: 'x', createdAt: at }),
    ).toEqual({ created: false });
    expect(
      await again.addSubscriber({ email: 'ANN@EXAMPLE.COM', source: 'x', createdAt: at }),
    ).toEqual({ created: false });
    expect(
      await again.addSubscriber({ email: 'carl@example.com', source: 'x', createdAt: at }),
    ).toEqual({ created: true });
  });

  it('keeps invite records as given, lists the usable ones oldest first, ignores a repeated id', async () => {
    const { store, other } = await open();
    const a = invite({ note: 'partners', maxUses: 5, expiresAt: '2027-01-31T00:00:00.000Z' });
    const b = invite({ createdAt: '2026-02-01T00:00:00.000Z', maxUses: null });
    const off = invite({ disabled: true });
    await store.createInvite(a);
    await store.createInvite(b);
    await store.createInvite(off);
    await store.createInvite({ ...a, note: 'changed' });
    expect(await other.listInvites()).toEqual([a, b]);
  });

  it('spends a one-use invite once when it is redeemed from two processes at once', async () => {
    const { store, other } = await open();
    const one = invite({ maxUses: 1 });
    await store.createInvite(one);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? other : store).redeemInvite({ inviteId: one.id, user: user(one.id), now: NOW }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(
      Array(7).fill('exhausted'),
    );
    expect((await store.listInvites())[0]!.uses).toBe(1);
  });

  it('refuses unknown, disabled and expired invites without spending anything', async () => {
    const { store } = await open();
    const expired = invite({ expiresAt: '2026-05-01T00:00:00.000Z', maxUses: 3 });
    const off = invite({ disabled: true });
    await store.createInvite(expired);
    await store.createInvite(off);
    const redeem = (inviteId: string) =>
      store.redeemInvite({ inviteId, user: user(inviteId), now: NOW });
    expect(await redeem(randomUUID())).toEqual({ ok: false, reason: 'invalid' });
    expect(await redeem(off.id)).toEqual({ ok: false, reason: 'invalid' });
    expect(await redeem(expired.id)).toEqual({ ok: false, reason: 'expired' });
    expect((await store.listInvites()).find((i) => i.id === expired.id)!.uses).toBe(0);
  });

  it('logs an e-mail in with an invite: binds the invite step user, then finds it again', async () => {
    const { store, other } = await open();
    const inv = invite({ maxUses: 2 });
    await store.createInvite(inv);
    const first = await store.redeemInvite({ inviteId: inv.id, user: user(inv.id), now: NOW });
    expect(first.ok).toBe(true);
    const login = (email: string, tokenUserId: string | null = null) =>
      other.loginWithInvite({
        inviteId: inv.id,
        email,
        tokenUserId,
        newUser: user(inv.id, email),
        now: NOW,
      });
    // The user of the invite step without an e-mail gets it; no use is spent.
    const bound = await login('dee@example.com');
    expect(bound).toMatchObject({ ok: true, user: { email: 'dee@example.com' } });
    expect(first.ok && bound.ok && bound.user.userId).toBe(first.ok && first.user.userId);
    expect(bound.ok && bound.user.lastLoginAt).toBe(NOW.toISOString());
    // The same address logs in again as the same user.
    const again = await login('dee@example.com');
    expect(again.ok && again.user.userId).toBe(bound.ok && bound.user.userId);
    // Another address spends the second use; a third one is refused.
    const second = await login('eve@example.com');
    expect(second.ok && second.user.userId).not.toBe(bound.ok && bound.user.userId);
    expect(await login('fay@example.com')).toEqual({ ok: false, reason: 'exhausted' });
    // The caller's token names its user: the e-mail changes, no use is spent.
    const renamed = await login('fay@example.com', bound.ok ? bound.user.userId : null);
    expect(renamed).toMatchObject({ ok: true, user: { email: 'fay@example.com' } });
    expect((await store.listInvites())[0]!.uses).toBe(2);
  });

  it('two logins at once with one address and an invite find or create one user', async () => {
    const { store, other } = await open();
    const inv = invite({ maxUses: null });
    await store.createInvite(inv);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : store).loginWithInvite({
          inviteId: inv.id,
          email: 'gus@example.com',
          tokenUserId: null,
          newUser: user(inv.id, 'gus@example.com'),
          now: NOW,
        }),
      ),
    );
    const ids = new Set(results.map((r) => r.ok && r.user.userId));
    expect(ids.size).toBe(1);
    expect((await store.listInvites())[0]!.uses).toBe(1);
  });

  it('keeps one alert subscription per address, source and kind; confirms once; removes', async () => {
    const { store, other } = await open();
    const older = subscription('Hal@Example.com', 13, new Date('2026-03-01T00:00:00.000Z'));
    const newer = subscription('ida@example.com', 7, new Date('2026-04-01T00:00:00.000Z'));
    expect(await other.addAlertSubscription(newer)).toEqual({ created: true, subscription: newer });
    expect(await store.addAlertSubscription(older)).toEqual({ created: true, subscription: older });
    const dupe = await other.addAlertSubscription(subscription('hal@example.COM', 13));
    expect(dupe).toEqual({ created: false, subscription: older });
    expect((await store.addAlertSubscription(subscription('hal@example.com', 14))).created).toBe(
      true,
    );
    expect(await store.listConfirmedAlertSubscriptions()).toEqual([]);

    const t1 = new Date('2026-05-01T00:00:00.000Z');
    const confirmed = await store.confirmAlertSubscription({ id: older.id, now: t1 });
    expect(confirmed).toEqual({ ...older, confirmedAt: t1.toISOString() });
    const later = await other.confirmAlertSubscription({ id: older.id, now: NOW });
    expect(later!.confirmedAt).toBe(t1.toISOString());
    await other.confirmAlertSubscription({ id: newer.id, now: NOW });
    expect(await store.confirmAlertSubscription({ id: randomUUID(), now: NOW })).toBeNull();
    expect((await other.listConfirmedAlertSubscriptions()).map((s) => s.id)).toEqual([
      older.id,
      newer.id,
    ]);

    expect(await store.removeAlertSubscription(older.id)).toBe(true);
    expect(await other.removeAlertSubscription(older.id)).toBe(false);
    expect((await store.listConfirmedAlertSubscriptions()).map((s) => s.id)).toEqual([newer.id]);
  });

  it('stores a subscription of every alert kind, the detected-warning kind included', async () => {
    const { store, other, reopen } = await open();
    const subs = ALERT_KINDS.map((kind) => ({ ...subscription('kim@example.com', 13), kind }));
    for (const s of subs) expect((await store.addAlertSubscription(s)).created).toBe(true);
    for (const s of subs) await other.confirmAlertSubscription({ id: s.id, now: NOW });
    const again = await reopen();
    expect((await again.listConfirmedAlertSubscriptions()).map((s) => s.kind).sort()).toEqual(
      [...ALERT_KINDS].sort(),
    );
  });

  it('records a delivery once for two processes at once, and lists it until it is marked sent', async () => {
    const { store, other, reopen } = await open();
    const subscriptionId = randomUUID();
    const crossing = 'below-base:13:2026-11-20';
    const entry = { subscriptionId, crossing, recordedAt: NOW.toISOString(), sentAt: null };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).recordAlertDelivery(entry)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.recordAlertDelivery({ ...entry, crossing: 'incident:13:1' })).toBe(true);
    expect(await other.listUndeliveredAlerts()).toEqual([
      entry,
      { ...entry, crossing: 'incident:13:1' },
    ]);
    const sentAt = new Date('2026-06-01T12:00:05.000Z');
    await store.markAlertDelivered({ subscriptionId, crossing, sentAt });
    // A crash before the second was sent: after a restart it is still waiting.
    const again = await reopen();
    expect(await again.listUndeliveredAlerts()).toEqual([{ ...entry, crossing: 'incident:13:1' }]);
    expect(await again.recordAlertDelivery(entry)).toBe(false);
  });

  it('runs a job in one process at a time: a second caller is skipped while it runs', async () => {
    const { store, other } = await open();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const first = store.withExclusiveLock('data-import', async () => {
      started();
      await held;
    });
    await running;
    let ranSecond = false;
    expect(await other.withExclusiveLock('data-import', async () => void (ranSecond = true))).toBe(
      false,
    );
    expect(ranSecond).toBe(false);
    // Another job name is not blocked.
    expect(await other.withExclusiveLock('alerts', async () => undefined)).toBe(true);
    release();
    expect(await first).toBe(true);
    expect(await other.withExclusiveLock('data-import', async () => void (ranSecond = true))).toBe(
      true,
    );
    expect(ranSecond).toBe(true);
    // A failing job rejects and releases the lock.
    await expect(
      store.withExclusiveLock('data-import', () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await other.withExclusiveLock('data-import', async () => undefined)).toBe(true);
  });

  it('counts rate-limit hits of one key across processes, per window', async () => {
    const { counters } = await open();
    const [a, b] = counters;
    const counts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).hit('premiumLogin|1.2.3.4', 60_000)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    for (const c of counts) expect(c.msLeft).toBeGreaterThan(50_000);
    expect((await b.hit('premiumLogin|5.6.7.8', 60_000)).count).toBe(1);
    // A window that has ended starts again at 1.
    await a.hit('short|1.2.3.4', 50);
    await new Promise((r) => setTimeout(r, 80));
    expect((await b.hit('short|1.2.3.4', 50)).count).toBe(1);
  });

  it('reports itself available', async () => {
    const { store } = await open();
    expect(await store.health()).toMatchObject({ available: true, error: null });
  });
});
