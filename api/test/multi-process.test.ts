/**
 * Two API processes (two machines' worth: each its own data directory) on one PostgreSQL: every
 * rule of the user data holds across them, a process killed mid-traffic loses no acknowledged
 * sign-up, and both ride out the database being stopped and started again under traffic. The
 * cluster is this suite's own, since it is stopped.
 */
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { exited, post, startApi } from './api-process.ts';
import { tempDataDir } from './helpers.ts';
import { freePort, startCluster, type PgCluster } from './pg-cluster.ts';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.destroy();
});

const procs: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

interface Pair {
  url: string;
  ports: [number, number];
  procs: [ChildProcess, ChildProcess];
  db: pg.Pool;
}

/** Two API processes on a fresh database of the suite's cluster. */
async function twoProcesses(env: Record<string, string> = {}): Promise<Pair> {
  const url = await cluster.createDatabase();
  const ports: [number, number] = [await freePort(), await freePort()];
  const started = await Promise.all(
    ports.map(async (port) => {
      const dir = await tempDataDir();
      dirs.push(dir);
      const proc = await startApi(dir, port, { DATABASE_URL: url, ...env });
      procs.push(proc);
      return proc;
    }),
  );
  const db = new pg.Pool({ connectionString: url, max: 2 });
  db.on('error', () => undefined);
  return { url, ports, procs: [started[0]!, started[1]!], db };
}

async function storedEmails(db: pg.Pool): Promise<string[]> {
  const r = await db.query<{ email: string }>('SELECT email FROM mailing_list');
  return r.rows.map((row) => row.email.toLowerCase());
}

describe('two API processes on one PostgreSQL', () => {
  it('sign-ups split across both while one is killed: every acknowledged address stored once', async () => {
    const {
      ports,
      procs: [a],
      db,
    } = await twoProcesses();
    const emails = Array.from({ length: 500 }, (_, i) => `split${i}@example.com`);
    const acked: string[] = [];
    let ackedAtKill = 0;
    let next = 0;
    const worker = async (w: number) => {
      while (next < emails.length) {
        const i = next++;
        const email = emails[i]!;
        try {
          const res = await post(ports[(i + w) % 2]!, '/api/addToMailList', { email });
          if (res.ok) acked.push(email);
        } catch {
          // process A is gone: not acknowledged
        }
        if (acked.length >= 120 && a.exitCode === null && a.signalCode === null) {
          ackedAtKill = acked.length;
          a.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 30 }, (_, w) => worker(w)));
    await exited(a);
    expect(a.signalCode).toBe('SIGKILL');
    // B went on acknowledging after A was killed. How many depends on the machine: 260 of the 500
    // on a quiet one, 195 under a loaded CI run (the requests mapped to A after the kill fail).
    expect(acked.length).toBeGreaterThan(ackedAtKill);
    const stored = await storedEmails(db);
    expect(new Set(stored).size).toBe(stored.length);
    for (const email of acked) expect(stored, email).toContain(email);
    await db.end();
  }, 120_000);

  it('one address sent to both at once in different letter cases is created once', async () => {
    const { ports, db } = await twoProcesses();
    for (let i = 0; i < 20; i++) {
      const [x, y] = await Promise.all([
        post(ports[0], '/api/addToMailList', { email: `Case${i}@Example.com` }),
        post(ports[1], '/api/addToMailList', { email: `cASE${i}@example.COM` }),
      ]);
      expect([x.status, y.status].sort()).toEqual([202, 202]);
    }
    const stored = await storedEmails(db);
    expect(stored).toHaveLength(20);
    expect(new Set(stored).size).toBe(20);
    await db.end();
  }, 120_000);

  it('a one-use invite redeemed on both at once succeeds once', async () => {
    const { url, ports, db } = await twoProcesses();
    const store = await PgUserDataStore.open({ connectionString: url, logger: silentLogger });
    const codes: string[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await createInvite(store, { code: `ONE-USE-${i}-XYZ`, maxUses: 1 })).code);
    await store.close();
    for (const code of codes) {
      const answers = await Promise.all(
        ports.map((port) => post(port, '/api/premium', { inviteCode: code })),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 401]);
      const refused = answers.find((r) => r.status === 401)!;
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
        'invite_code_used_up',
      );
    }
    const users = await db.query('SELECT count(*)::int AS n FROM premium_users');
    expect(users.rows[0].n).toBe(4);
    await db.end();
  }, 120_000);

  it('counts the login rate limit across both processes', async () => {
    const { ports, db } = await twoProcesses({ RATE_LIMIT_MAX: '6' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await post(ports[i % 2]!, '/api/premiumLogin', {
        email: 'guess@example.com',
        inviteCode: `WRONG-CODE-${i}`,
      });
      statuses.push(res.status);
    }
    // Six attempts in all, not six per process.
    expect(statuses.slice(0, 6)).toEqual(Array(6).fill(401));
    expect(statuses.slice(6)).toEqual(Array(4).fill(429));
    await db.end();
  }, 120_000);

  it('rides out the database stopped and started again under traffic', async () => {
    const { ports, db } = await twoProcesses();
    await db.end();
    const acked: string[] = [];
    const unavailable: Response[] = [];
    let stop = false;
    let n = 0;
    const traffic = async (w: number) => {
      while (!stop) {
        const i = n++;
        const email = `fault${i}@example.com`;
        const res = await post(ports[(i + w) % 2]!, '/api/addToMailList', { email });
        if (res.ok) acked.push(email);
        else if (res.status === 503) unavailable.push(res);
        else throw new Error(`unexpected ${res.status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const running = Promise.all([0, 1, 2, 3].map(traffic));
    // A failure below must not leave the traffic running into the next test.
    onTestFinished(() => {
      stop = true;
      return running.then(
        () => undefined,
        () => undefined,
      );
    });
    await new Promise((r) => setTimeout(r, 1000));

    await cluster.stop();
    const before = acked.length;
    // Writes answer 503 `unavailable` with Retry-After; reads and health keep answering.
    for (const port of ports) {
      const write = await post(port, '/api/addToMailList', { email: 'down@example.com' });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await write.json()).toMatchObject({ error: { code: 'unavailable' } });
      const login = await post(port, '/api/premium', { inviteCode: 'ANY-CODE-123' });
      expect(login.status).toBe(503);
      expect(await login.json()).toMatchObject({ success: false, error: { code: 'unavailable' } });
      for (const path of ['/api/settings', '/api/strategies', '/api/sources', '/api/scanner']) {
        const read = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(read.status, path).toBe(200);
      }
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: 'degraded',
        userData: { store: 'postgres', available: false },
      });
    }
    await new Promise((r) => setTimeout(r, 1500));
    await cluster.start();

    // Both processes recover by themselves.
    for (const port of ports) {
      let status = 0;
      for (let tries = 0; tries < 50 && status !== 202; tries++) {
        if (tries > 0) await new Promise((r) => setTimeout(r, 200));
        status = (await post(port, '/api/addToMailList', { email: `back${port}@example.com` }))
          .status;
      }
      expect(status).toBe(202);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toMatchObject({ userData: { available: true, error: null } });
    }
    const afterRestart = acked.length;
    await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    await running;
    expect(unavailable.length).toBeGreaterThan(0);
    expect(acked.length).toBeGreaterThan(afterRestart);
    expect(before).toBeGreaterThan(0);

    const check = new pg.Pool({
      connectionString: cluster.url(new URL(db.options.connectionString!).pathname.slice(1)),
    });
    const stored = (
      await check.query<{ email: string }>('SELECT email FROM mailing_list')
    ).rows.map((r) => r.email);
    await check.end();
    expect(new Set(stored).size).toBe(stored.length);
    for (const email of acked) expect(stored, email).toContain(email);
  }, 180_000);

  it('a process started while the database is down serves reads, then migrates and writes once it is up', async () => {
    const url = await cluster.createDatabase();
    await cluster.stop();
    let restarted = false;
    onTestFinished(async () => {
      if (!restarted) await cluster.start();
    });
    const dir = await tempDataDir();
    dirs.push(dir);
    const port = await freePort();
    procs.push(await startApi(dir, port, { DATABASE_URL: url }));
    expect((await fetch(`http://127.0.0.1:${port}/api/strategies`)).status).toBe(200);
    const write = await post(port, '/api/addToMailList', { email: 'early@example.com' });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('5');
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as {
      userData: unknown;
    };
    expect(health.userData).toMatchObject({ store: 'postgres', available: false });

    await cluster.start();
    restarted = true;
    let status = 0;
    for (let tries = 0; tries < 50 && status !== 202; tries++) {
      if (tries > 0) await new Promise((r) => setTimeout(r, 200));
      status = (await post(port, '/api/addToMailList', { email: 'early@example.com' })).status;
    }
    expect(status).toBe(202);
    const db = new pg.Pool({ connectionString: url, max: 1 });
    const versions = await db.query('SELECT version FROM schema_migrations');
    await db.end();
    expect(versions.rowCount).toBeGreaterThan(0);
  }, 120_000);
});
