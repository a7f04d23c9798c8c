/**
 * Alert subscriptions and their delivery ledger in the journaled user-data store: one per
 * address (any letter case), source and kind; confirmed once; deliveries recorded once; all of it
 * replayed after a restart and folded into alerts.json, like the mailing list.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/composition/data-files.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import type { AlertSubscription } from '../src/composition/user-data.ts';
import { memoryLogger } from '../src/platform/logger.ts';
import { editFile, tempDataDir } from './helpers.ts';

const dirs: string[] = [];
const opened: FileUserDataStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Opens the store as the server does; `killed` ones are never closed (the process died). */
async function openOwner(dir: string, killed = false) {
  const store = openStore(dir, memoryLogger());
  const userData = await FileUserDataStore.open(store, { logger: memoryLogger(), owner: true });
  await store.loadAll();
  if (!killed) opened.push(userData);
  return { store, userData };
}

async function freshDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}

let n = 0;
const sub = (email: string, sourceId = 3, kind: AlertSubscription['kind'] = 'below-base') => ({
  id: `sub-${++n}`,
  email,
  sourceId,
  kind,
  createdAt: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
  confirmedAt: null,
});
const NOW = new Date('2026-11-23T12:00:00Z');

describe('alert subscriptions in the user-data store', () => {
  it('one per address in any letter case, source and kind; the existing one is returned', async () => {
    const { userData } = await openOwner(await freshDir());
    const first = await userData.addAlertSubscription(sub('  Saver@Example.com '));
    expect(first).toMatchObject({ created: true, subscription: { email: 'Saver@Example.com' } });
    const again = await userData.addAlertSubscription(sub('saver@example.COM'));
    expect(again).toEqual({ created: false, subscription: first.subscription });
    // Another source or kind is another subscription; concurrent repeats make one.
    const results = await Promise.all([
      userData.addAlertSubscription(sub('saver@example.com', 4)),
      userData.addAlertSubscription(sub('SAVER@example.com', 4)),
      userData.addAlertSubscription(sub('saver@example.com', 3, 'stale')),
    ]);
    expect(results.map((r) => r.created)).toEqual([true, false, true]);
  });

  it('confirms once, lists only confirmed ones oldest first, removes', async () => {
    const { userData } = await openOwner(await freshDir());
    const a = (await userData.addAlertSubscription(sub('a@example.com'))).subscription;
    const b = (await userData.addAlertSubscription(sub('b@example.com'))).subscription;
    expect(await userData.listConfirmedAlertSubscriptions()).toEqual([]);
    const confirmed = await userData.confirmAlertSubscription({ id: b.id, now: NOW });
    expect(confirmed?.confirmedAt).toBe(NOW.toISOString());
    const later = new Date(NOW.getTime() + 60_000);
    expect(await userData.confirmAlertSubscription({ id: b.id, now: later })).toEqual(confirmed);
    await userData.confirmAlertSubscription({ id: a.id, now: later });
    expect((await userData.listConfirmedAlertSubscriptions()).map((s) => s.email)).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
    expect(await userData.confirmAlertSubscription({ id: 'nope', now: NOW })).toBeNull();
    expect(await userData.removeAlertSubscription(a.id)).toBe(true);
    expect(await userData.removeAlertSubscription(a.id)).toBe(false);
    expect((await userData.listConfirmedAlertSubscriptions()).map((s) => s.email)).toEqual([
      'b@example.com',
    ]);
    // Unsubscribed, the address may subscribe again (a new subscription).
    expect((await userData.addAlertSubscription(sub('A@example.com'))).created).toBe(true);
  });

  it('records a delivery once, marks it sent, lists the unsent ones', async () => {
    const { userData } = await openOwner(await freshDir());
    const entry = {
      subscriptionId: 's1',
      crossing: 'below-base:3:2026-11-20',
      recordedAt: NOW.toISOString(),
      sentAt: null,
    };
    const firsts = await Promise.all([
      userData.recordAlertDelivery(entry),
      userData.recordAlertDelivery(entry),
    ]);
    expect(firsts.sort()).toEqual([false, true]);
    await userData.recordAlertDelivery({ ...entry, crossing: 'stale:3:2026-11-19' });
    expect((await userData.listUndeliveredAlerts()).map((d) => d.crossing)).toEqual([
      'below-base:3:2026-11-20',
      'stale:3:2026-11-19',
    ]);
    await userData.markAlertDelivered({
      subscriptionId: 's1',
      crossing: entry.crossing,
      sentAt: NOW,
    });
    expect((await userData.listUndeliveredAlerts()).map((d) => d.crossing)).toEqual([
      'stale:3:2026-11-19',
    ]);
    expect(await userData.recordAlertDelivery(entry)).toBe(false);
  });

  it('a restart replays the journal; compaction folds it into alerts.json; a hand edit is kept', async () => {
    const dir = await freshDir();
    const a = await openOwner(dir, true);
    const s = (await a.userData.addAlertSubscription(sub('replay@example.com'))).subscription;
    await a.userData.confirmAlertSubscription({ id: s.id, now: NOW });
    await a.userData.recordAlertDelivery({
      subscriptionId: s.id,
      crossing: 'incident:3:2026-11-20:exploit',
      recordedAt: NOW.toISOString(),
      sentAt: null,
    });
    // Killed before any fold: a new process finds everything in the journal.
    await a.userData.abandon();
    const b = await openOwner(dir);
    expect(await b.userData.listConfirmedAlertSubscriptions()).toEqual([
      { ...s, confirmedAt: NOW.toISOString() },
    ]);
    expect(
      await b.userData.recordAlertDelivery({
        subscriptionId: s.id,
        crossing: 'incident:3:2026-11-20:exploit',
        recordedAt: NOW.toISOString(),
        sentAt: null,
      }),
    ).toBe(false);
    expect((await b.userData.addAlertSubscription(sub('REPLAY@example.com'))).created).toBe(false);
    await b.userData.markAlertDelivered({
      subscriptionId: s.id,
      crossing: 'incident:3:2026-11-20:exploit',
      sentAt: NOW,
    });
    await b.userData.compact();
    const file = JSON.parse(await readFile(path.join(dir, 'alerts.json'), 'utf8')) as {
      subscriptions: AlertSubscription[];
      deliveries: { sentAt: string | null }[];
    };
    expect(file.subscriptions.map((x) => x.email)).toEqual(['replay@example.com']);
    expect(file.deliveries).toEqual([expect.objectContaining({ sentAt: NOW.toISOString() })]);

    // An operator removes the subscription by hand: the edit is kept.
    await editFile(path.join(dir, 'alerts.json'), JSON.stringify({ ...file, subscriptions: [] }));
    expect(await b.userData.listConfirmedAlertSubscriptions()).toEqual([]);
    expect((await b.userData.addAlertSubscription(sub('replay@example.com'))).created).toBe(true);
  });
});
