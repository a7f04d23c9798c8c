/**
 * The API process killed (SIGKILL) in the middle of concurrent sign-ups, twice, and started
 * again: every address that was acknowledged (2xx) is on the list exactly once. The same for alert
 * subscriptions (POST /api/alerts): each acknowledged one is in alerts.json exactly once.
 */
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, startApi } from './api-process.ts';
import { tempDataDir } from './helpers.ts';

let child: ChildProcess | null = null;
let dir: string | null = null;
afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

/**
 * Posts the addresses with `concurrency` requests in flight and SIGKILLs the process once
 * `killAfter` have been acknowledged. Returns the acknowledged addresses.
 */
async function signUpUntilKilled(
  port: number,
  proc: ChildProcess,
  emails: string[],
  concurrency: number,
  killAfter: number,
  path = '/api/addToMailList',
  body: (email: string) => object = (email) => ({ email }),
): Promise<string[]> {
  const acked: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const email = emails[next++]!;
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body(email)),
        });
        if (res.ok) acked.push(email);
        if (acked.length >= killAfter && proc.exitCode === null) proc.kill('SIGKILL');
      } catch {
        // the process is gone: this request was not acknowledged
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return acked;
}

describe('killed during sign-ups', () => {
  it('every acknowledged address is stored exactly once after a restart', async () => {
    dir = await tempDataDir();
    // Below the ephemeral range (32768 and up), where client sockets could hold the port.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const first = Array.from({ length: 600 }, (_, i) => `killed-a${i}@example.com`);
    const second = [
      ...Array.from({ length: 600 }, (_, i) => `killed-b${i}@example.com`),
      // repeats of the first round in other letter cases
      ...first.slice(0, 100).map((e) => e.toUpperCase()),
    ];

    child = await startApi(dir, port);
    const ackedA = await signUpUntilKilled(port, child, first, 40, 150);
    await exited(child);
    expect(child.signalCode).toBe('SIGKILL');

    child = await startApi(dir, port);
    const ackedB = await signUpUntilKilled(port, child, second, 40, 150);
    await exited(child);

    child = await startApi(dir, port);
    const acked = [...ackedA, ...ackedB];
    expect(ackedA.length).toBeGreaterThanOrEqual(150);
    expect(ackedB.length).toBeGreaterThanOrEqual(150);
    // A repeat of every acknowledged address (in any case) gets the same answer as a new one.
    for (const email of acked) {
      const res = await fetch(`http://127.0.0.1:${port}/api/addToMailList`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: email.toLowerCase() === email ? email.toUpperCase() : email.toLowerCase(),
        }),
      });
      expect(res.status, email).toBe(202);
    }
    // A clean stop folds the journal into mailing-list.json.
    child.kill('SIGTERM');
    await exited(child);
    child = null;
    const list = JSON.parse(await readFile(path.join(dir, 'mailing-list.json'), 'utf8')) as {
      entries: { email: string }[];
    };
    const stored = list.entries.map((e) => e.email.toLowerCase());
    expect(new Set(stored).size).toBe(stored.length); // nothing twice
    for (const email of acked) expect(stored, email).toContain(email.toLowerCase());
    expect((await readdir(dir)).filter((f) => f.startsWith('user-data.'))).toEqual([]);
  }, 120_000);
});

describe('killed during alert subscriptions', () => {
  it('every acknowledged subscription is stored exactly once after a restart', async () => {
    dir = await tempDataDir();
    // Below the ephemeral range (32768 and up), where client sockets could hold the port.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const subscribe = (email: string) => ({ email, sourceId: 3, kind: 'below-base' });
    const first = Array.from({ length: 200 }, (_, i) => `alert-a${i}@example.com`);
    child = await startApi(dir, port);
    const ackedA = await signUpUntilKilled(port, child, first, 20, 60, '/api/alerts', subscribe);
    await exited(child);
    expect(child.signalCode).toBe('SIGKILL');

    // Again, with repeats of the first round in other letter cases.
    child = await startApi(dir, port);
    const second = [
      ...Array.from({ length: 100 }, (_, i) => `alert-b${i}@example.com`),
      ...first.slice(0, 50).map((e) => e.toUpperCase()),
    ];
    const ackedB = await signUpUntilKilled(port, child, second, 20, 40, '/api/alerts', subscribe);
    await exited(child);

    child = await startApi(dir, port);
    child.kill('SIGTERM');
    await exited(child);
    child = null;
    const file = JSON.parse(await readFile(path.join(dir, 'alerts.json'), 'utf8')) as {
      subscriptions: { email: string; sourceId: number; kind: string }[];
    };
    const stored = file.subscriptions.map((s) => s.email.toLowerCase());
    expect(new Set(stored).size).toBe(stored.length); // nothing twice
    for (const email of [...ackedA, ...ackedB])
      expect(stored, email).toContain(email.toLowerCase());
  }, 120_000);
});
