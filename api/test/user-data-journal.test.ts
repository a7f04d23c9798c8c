/**
 * The journal of user data beside its JSON files: replay on restart, compaction, hand edits,
 * torn lines, letter case, failed writes.
 */
import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type ApiStore } from '../src/composition/data-files.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import { Journal } from '../src/platform/files/journal.ts';
import { jsonFileText, jsonFileTextInSlices } from '../src/platform/files/json-text.ts';
import type { UserRecord } from '../src/modules/premium/schemas.ts';
import { memoryLogger } from '../src/platform/logger.ts';
import { slowDisk } from './disk.ts';
import { editFile, foldUserData, setup, tempDataDir, type TestContext } from './helpers.ts';

const dirs: string[] = [];
let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}

/** Opens the store the way the server does, without background compaction. */
async function openOwner(dir: string): Promise<{ store: ApiStore; userData: FileUserDataStore }> {
  const store = openStore(dir, memoryLogger());
  const userData = await FileUserDataStore.open(store, { logger: memoryLogger(), owner: true });
  await store.loadAll();
  return { store, userData };
}

/** Opens the store as db:import-files does: the journal replayed, nothing written, no lock. */
async function openReader(dir: string): Promise<{ store: ApiStore; userData: FileUserDataStore }> {
  const store = openStore(dir, memoryLogger());
  const userData = await FileUserDataStore.open(store, {
    logger: memoryLogger(),
    owner: false,
    replay: true,
  });
  await store.loadAll();
  return { store, userData };
}

const sub = (email: string) => ({ email, source: 'test', createdAt: new Date().toISOString() });
const emailsIn = (store: ApiStore) => store.get('mailingList')!.entries.map((e) => e.email);
const fileEmails = async (dir: string) =>
  (
    JSON.parse(await readFile(path.join(dir, 'mailing-list.json'), 'utf8')) as {
      entries: { email: string }[];
    }
  ).entries.map((e) => e.email);
const journalFiles = async (dir: string) =>
  (await readdir(dir)).filter((f) => f.startsWith('user-data.')).sort();

function user(inviteId: string, userId: string, email: string | null = null): UserRecord {
  const now = new Date().toISOString();
  return { userId, inviteId, email, createdAt: now, lastLoginAt: now };
}

async function withInvite(dir: string, maxUses: number | null = 10): Promise<string> {
  await writeFile(
    path.join(dir, 'invites.json'),
    jsonFileText({
      invites: [
        {
          id: 'inv-1',
          salt: 'c2FsdA==',
          hash: 'aGFzaA==',
          createdAt: '2026-01-01T00:00:00.000Z',
          expiresAt: null,
          maxUses,
          uses: 0,
        },
      ],
    }),
  );
  return 'inv-1';
}

const usesOf = (store: ApiStore) => store.get('invites')!.invites[0]!.uses;

describe('journal of user data', () => {
  it('a restart replays the journal: every acknowledged change is there, none twice', async () => {
    const dir = await freshDir();
    const invite = await withInvite(dir);
    const a = await openOwner(dir);
    for (let i = 0; i < 20; i++) await a.userData.addSubscriber(sub(`replay${i}@example.com`));
    await a.userData.redeemInvite({ inviteId: invite, user: user(invite, 'u1'), now: new Date() });
    await a.userData.loginWithInvite({
      inviteId: invite,
      email: 'u1@example.com',
      tokenUserId: 'u1',
      newUser: user(invite, 'unused'),
      now: new Date(),
    });
    // Nothing folded yet: the JSON files are as they were, the journal has it all.
    expect(await fileEmails(dir)).toEqual([]);
    expect(await journalFiles(dir)).toEqual(['user-data.log']);

    await a.userData.abandon(); // the process was killed; a new one starts
    const b = await openOwner(dir);
    expect(emailsIn(b.store)).toEqual(
      Array.from({ length: 20 }, (_, i) => `replay${i}@example.com`),
    );
    expect(usesOf(b.store)).toBe(1);
    expect(b.store.get('users')!.users).toEqual([
      expect.objectContaining({ userId: 'u1', email: 'u1@example.com' }),
    ]);
    expect(await b.userData.addSubscriber(sub('REPLAY3@example.com'))).toEqual({ created: false });
  });

  it('compaction folds everything into the JSON files and removes the journal; nothing lost or doubled', async () => {
    const dir = await freshDir();
    const invite = await withInvite(dir, null);
    const a = await openOwner(dir);
    await Promise.all(
      Array.from({ length: 3000 }, (_, i) => a.userData.addSubscriber(sub(`fold${i}@example.com`))),
    );
    for (let i = 0; i < 5; i++)
      await a.userData.redeemInvite({
        inviteId: invite,
        user: user(invite, `u${i}`),
        now: new Date(),
      });
    await a.userData.compact();
    expect(await journalFiles(dir)).toEqual([]);
    const emails = await fileEmails(dir);
    expect(emails).toHaveLength(3000);
    expect(new Set(emails).size).toBe(3000);
    const invites = JSON.parse(await readFile(path.join(dir, 'invites.json'), 'utf8')) as {
      invites: { uses: number }[];
    };
    expect(invites.invites[0]!.uses).toBe(5);
    // The files are what the schemas accept and what jsonFileText writes (read as a command
    // does, beside the running owner).
    const b = await openReader(dir);
    expect(b.store.status()['mailing-list.json']!.error).toBeNull();
    expect(await readFile(path.join(dir, 'users.json'), 'utf8')).toBe(
      jsonFileText(b.store.get('users')),
    );
    expect(usesOf(b.store)).toBe(5);
    // Later changes go to a fresh journal and fold again.
    await a.userData.addSubscriber(sub('after@example.com'));
    await a.userData.compact();
    expect((await fileEmails(dir)).at(-1)).toBe('after@example.com');
  });

  it('a crash between writing the JSON files and removing the journal counts nothing twice', async () => {
    const dir = await freshDir();
    const invite = await withInvite(dir, null);
    const a = await openOwner(dir);
    await a.userData.addSubscriber(sub('once@example.com'));
    await a.userData.redeemInvite({ inviteId: invite, user: user(invite, 'u1'), now: new Date() });
    const remove = Journal.prototype.removeSealed;
    Journal.prototype.removeSealed = () => Promise.reject(new Error('killed'));
    try {
      await expect(a.userData.compact()).rejects.toThrow('killed');
    } finally {
      Journal.prototype.removeSealed = remove;
    }
    expect(await journalFiles(dir)).toEqual(['user-data.sealed-1.log']);
    await a.userData.abandon();
    const b = await openOwner(dir);
    expect(usesOf(b.store)).toBe(1); // an invite use is not idempotent: the marker prevents a 2
    expect(emailsIn(b.store)).toEqual(['once@example.com']);
    expect(b.store.get('users')!.users).toHaveLength(1);
    // The next compaction cleans up.
    b.userData.start();
    await b.userData.compact();
    expect(await journalFiles(dir)).toEqual([]);
    await b.userData.abandon();
    expect(usesOf((await openOwner(dir)).store)).toBe(1);
  });

  it('a crash after only some files were written replays the journal onto the others', async () => {
    const dir = await freshDir();
    const invite = await withInvite(dir, null);
    const a = await openOwner(dir);
    await a.userData.addSubscriber(sub('part@example.com'));
    await a.userData.redeemInvite({ inviteId: invite, user: user(invite, 'u1'), now: new Date() });
    const replace = a.store.replaceFile.bind(a.store);
    a.store.replaceFile = async (key, text) => {
      if (key === 'users') throw new Error('killed');
      return replace(key, text);
    };
    await expect(a.userData.compact()).rejects.toThrow('killed');
    await a.userData.abandon();
    const b = await openOwner(dir);
    expect(usesOf(b.store)).toBe(1);
    expect(b.store.get('users')!.users.map((u) => u.userId)).toEqual(['u1']);
    expect(emailsIn(b.store)).toEqual(['part@example.com']);
  });

  it('a hand edit of mailing-list.json is honoured, with the journal replayed on top of it', async () => {
    t = await setup();
    const post = (email: string) =>
      t!.http.post('/api/addToMailList').set('Content-Type', 'application/json').send({ email });
    await post('kept@example.com').expect(202);
    await post('removed@example.com').expect(202);
    await foldUserData(t);
    await post('journal-only@example.com').expect(202); // not in the file yet
    const file = path.join(t.dir, 'mailing-list.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as {
      entries: { email: string; createdAt: string; source: string }[];
    };
    data.entries = data.entries.filter((e) => e.email !== 'removed@example.com');
    data.entries.push({
      email: 'By-Hand@example.com',
      createdAt: new Date().toISOString(),
      source: 'import',
    });
    await editFile(file, JSON.stringify(data));
    await t.deps.store.refresh();
    expect(emailsIn(t.deps.store)).toEqual([
      'kept@example.com',
      'By-Hand@example.com',
      'journal-only@example.com',
    ]);
    // The operator's removal stands (the address can sign up again); their entry dedupes.
    await post('removed@example.com').expect(202);
    await post('by-hand@EXAMPLE.com').expect(202);
    await foldUserData(t);
    expect(await fileEmails(t.dir)).toEqual([
      'kept@example.com',
      'By-Hand@example.com',
      'journal-only@example.com',
      'removed@example.com',
    ]);
  });

  it('a torn last journal line (a cut-short write) is ignored and cut off; later lines are kept', async () => {
    const dir = await freshDir();
    const a = await openOwner(dir);
    await a.userData.addSubscriber(sub('whole@example.com'));
    const log = path.join(dir, 'user-data.log');
    await appendFile(log, '{"t":"subscriber","email":"torn@exa');
    await a.userData.abandon();
    const logger = memoryLogger();
    const store = openStore(dir, logger);
    const b = await FileUserDataStore.open(store, { logger, owner: true });
    await store.loadAll();
    expect(emailsIn(store)).toEqual(['whole@example.com']);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        fields: expect.objectContaining({ file: 'user-data.log', tornLastLine: true }),
      }),
    );
    await b.addSubscriber(sub('next@example.com'));
    expect((await readFile(log, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    await b.abandon();
    expect(emailsIn((await openOwner(dir)).store)).toEqual([
      'whole@example.com',
      'next@example.com',
    ]);
  });

  it('one address is stored once whatever its letter case, across the file and the journal', async () => {
    const dir = await freshDir();
    await writeFile(
      path.join(dir, 'mailing-list.json'),
      jsonFileText({
        entries: [
          { email: 'Alice@Example.com', createdAt: '2026-01-01T00:00:00.000Z', source: 'x' },
        ],
      }),
    );
    const a = await openOwner(dir);
    expect(await a.userData.addSubscriber(sub('bob@example.com'))).toEqual({ created: true });
    expect(await a.userData.addSubscriber(sub('alice@example.COM'))).toEqual({ created: false });
    expect(await a.userData.addSubscriber(sub('BOB@example.com'))).toEqual({ created: false });
    await a.userData.abandon();
    const b = await openOwner(dir);
    expect(await b.userData.addSubscriber(sub('ALICE@EXAMPLE.COM'))).toEqual({ created: false });
    expect(await b.userData.addSubscriber(sub('Bob@Example.com'))).toEqual({ created: false });
    await b.userData.compact();
    expect(await fileEmails(dir)).toEqual(['Alice@Example.com', 'bob@example.com']);
  });

  it('a failed journal write answers 503 and is forgotten: the address signs up again, once', async () => {
    t = await setup();
    const post = (email: string) =>
      t!.http.post('/api/addToMailList').set('Content-Type', 'application/json').send({ email });
    await post('before@example.com').expect(202);
    const disk = slowDisk(0);
    disk.failNextDataSyncs(1);
    const failed = await post('unlucky@example.com').expect(503);
    expect(failed.body).toMatchObject({ error: { code: 'data_unavailable' } });
    disk.restore();
    // The store reloads what is on disk (a few ms); meanwhile writes answer 503.
    let status = 503;
    for (let i = 0; i < 100 && status === 503; i++) {
      status = (await post('unlucky@example.com')).status;
      if (status === 503) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(202);
    await post('UNLUCKY@example.com').expect(202);
    await foldUserData(t);
    expect(await fileEmails(t.dir)).toEqual(['before@example.com', 'unlucky@example.com']);
  });
});

describe('JSON file text', () => {
  it('written in slices, it is byte for byte JSON.stringify(data, null, 2) plus a newline', async () => {
    const samples: Record<string, unknown>[] = [
      {},
      { entries: [] },
      { invites: [{ id: 'a', note: 'line\nbreak "quoted"', maxUses: null, uses: 0 }] },
      {
        entries: Array.from({ length: 4321 }, (_, i) => ({
          email: `e${i}@example.com`,
          createdAt: '2026-01-01T00:00:00.000Z',
          source: 'website',
        })),
        nested: { a: [1, [2, { b: null }]], c: 'é' },
        empty: {},
      },
    ];
    for (const data of samples) {
      const { text } = await jsonFileTextInSlices(data);
      expect(text.toString('utf8')).toBe(jsonFileText(data));
    }
  });
});
