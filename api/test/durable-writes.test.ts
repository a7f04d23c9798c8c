/**
 * Group commit and durability of runtime writes: no caller waits for writes queued after its own,
 * and nobody is answered before the write holding their change is on disk (fsync'd).
 */
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { GroupCommit } from '../src/platform/files/durable.ts';
import { openStore } from '../src/composition/data-files.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { slowDisk, stepsWithin, type DiskOp } from './disk.ts';
import { foldUserData, readJson, setup, tempDataDir, type TestContext } from './helpers.ts';
import { startInbox } from './smtp-inbox.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Wait {
  start: number;
  end: number;
}

/**
 * A caller that arrives while a write runs waits for the rest of that write and for its own one,
 * so at most two writes' slow steps run from start to end inside its wait. A journal write is one
 * step (fdatasync; the very first also syncs the directory for the new file), a whole-file
 * replacement two (the temp file's fsync, then the directory's). A caller that also waits for
 * later writes sees every one of them: eight or so in these 1.6 s of load.
 */
const MAX_STEPS_JOURNAL = 2 * 1 + 1;
const MAX_STEPS_WHOLE_FILE = 2 * 2;

function worstWait(ops: DiskOp[], waits: Wait[]) {
  return Math.max(...waits.map((w) => stepsWithin(ops, w.start, w.end).length));
}

describe('group commit', () => {
  it('answers each caller with the commit that started after its change, never a later one', async () => {
    const gates: (() => void)[] = [];
    let commits = 0;
    const group = new GroupCommit(async () => {
      commits++;
      await new Promise<void>((resolve) => gates.push(resolve));
    });
    const settled: string[] = [];
    const track = (name: string, p: Promise<void>) => p.then(() => settled.push(name));
    const a = track('a', group.request());
    const b = track('b', group.request());
    expect(commits).toBe(1);
    const c = track('c', group.request());
    gates[0]!();
    await a;
    expect(settled).toEqual(['a']);
    expect(commits).toBe(2); // b and c share the second commit
    const d = track('d', group.request());
    gates[1]!();
    await Promise.all([b, c]);
    expect(settled).toEqual(['a', 'b', 'c']);
    gates[2]!();
    await d;
    expect(commits).toBe(3);
  });

  it('a failed commit rejects only its own callers', async () => {
    let n = 0;
    const group = new GroupCommit(async () => {
      n++;
      await sleep(5);
      if (n === 1) throw new Error('disk full');
    });
    const first = group.request();
    const second = group.request();
    await expect(first).rejects.toThrow('disk full');
    // `second` arrived while the first commit ran (same tick, after it started): next commit.
    await expect(second).resolves.toBeUndefined();
  });
});

describe('writes under sustained load on a slow disk (200 ms per write)', () => {
  it('sign-ups arriving without pause: every caller is answered by its own batch write', async () => {
    // Confirmation e-mails go to an SMTP server, so the disk serves the journal alone.
    const inbox = await startInbox();
    onTestFinished(() => inbox.close());
    t = await setup({ smtpUrl: inbox.url });
    const handler = t.app.callback();
    const waits: Wait[] = [];
    const server = http.createServer((req, res) => {
      const start = performance.now();
      res.on('finish', () => waits.push({ start, end: performance.now() }));
      void handler(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/addToMailList`;
    const disk = slowDisk(200);
    const statuses: Promise<number>[] = [];
    try {
      const until = performance.now() + 1600;
      for (let i = 0; performance.now() < until; i++) {
        statuses.push(
          fetch(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ email: `steady${i}@example.com` }),
          }).then((r) => r.status),
        );
        await sleep(15);
      }
      expect(new Set(await Promise.all(statuses))).toEqual(new Set([202]));
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(waits).toHaveLength(statuses.length);
    expect(worstWait(disk.ops, waits)).toBeLessThanOrEqual(MAX_STEPS_JOURNAL);
    // Batches: far fewer syncs than sign-ups.
    const syncs = disk.ops.filter((o) => o.kind === 'fdatasync' || o.kind === 'fsync');
    expect(syncs.length).toBeLessThan(statuses.length / 2);
    disk.restore();
    await foldUserData(t);
    const list = await readJson<{ entries: { email: string }[] }>(
      path.join(t.dir, 'mailing-list.json'),
    );
    expect(list.entries).toHaveLength(statuses.length);
  }, 30_000);

  it('whole-file writes (DataStore.mutate) arriving without pause: the same', async () => {
    const dir = await tempDataDir();
    const store = openStore(dir, silentLogger);
    await store.loadAll();
    const disk = slowDisk(200);
    const waits: Promise<Wait>[] = [];
    const until = performance.now() + 1600;
    for (let i = 0; performance.now() < until; i++) {
      const start = performance.now();
      waits.push(
        store
          .mutate('mailingList', (data) => {
            data.entries.push({
              email: `whole${i}@example.com`,
              createdAt: new Date().toISOString(),
              source: 'test',
            });
            return { result: undefined, changed: true };
          })
          .then(() => ({ start, end: performance.now() })),
      );
      await sleep(15);
    }
    const done = await Promise.all(waits);
    expect(worstWait(disk.ops, done)).toBeLessThanOrEqual(MAX_STEPS_WHOLE_FILE);
    await rm(dir, { recursive: true, force: true });
  }, 30_000);
});

describe('durability', () => {
  it('a sign-up is acknowledged only after a sync of a file holding it has finished', async () => {
    t = await setup();
    const disk = slowDisk(5);
    const emails = Array.from({ length: 60 }, (_, i) => `durable${i}@example.com`);
    const answered = await Promise.all(
      emails.map(async (email) => {
        const res = await t!.http
          .post('/api/addToMailList')
          .set('Content-Type', 'application/json')
          .send({ email });
        return { email, status: res.status, at: performance.now() };
      }),
    );
    for (const a of answered) {
      expect(a.status).toBe(202);
      const holding = disk.ops.find(
        (o) => o.synced?.includes(`"${a.email}"`) && o.end <= a.at && !o.failed,
      );
      expect(holding, `${a.email} answered before it was synced`).toBeDefined();
    }
  });

  it('a file replaced by the server is fsync’d, renamed into place, then its directory fsync’d', async () => {
    t = await setup();
    await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'application/json')
      .send({ email: 'folded@example.com' })
      .expect(202);
    const disk = slowDisk(0);
    await foldUserData(t);
    const target = path.join(t.dir, 'mailing-list.json');
    const rename = disk.ops.findIndex((o) => o.kind === 'rename' && o.file === target);
    expect(rename).toBeGreaterThan(0);
    const before = disk.ops.slice(0, rename);
    const after = disk.ops.slice(rename + 1);
    // The temp file (beside the target) holds the new content when it is synced.
    expect(
      before.some(
        (o) =>
          o.kind === 'fsync' &&
          o.file?.startsWith(`${target}.`) &&
          o.synced?.includes('folded@example.com'),
      ),
    ).toBe(true);
    expect(after.some((o) => o.kind === 'fsync' && o.file === t!.dir)).toBe(true);
  });
});
