/**
 * Secrets that hold: JWT_SECRET and ALERTS_SECRET shorter than 32 bytes stop the start with a
 * message naming the variable; without ALERTS_SECRET, the alert links' secret is kept in the data
 * directory, so rotating JWT_SECRET leaves links already sent working.
 */
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { alertsSecret, signAlertToken } from '../src/platform/email-links/links.ts';
import { API_ROOT, createDeps, type AppDeps } from '../src/composition/deps.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { tempDataDir } from './helpers.ts';

const run = promisify(execFile);
const dirs: string[] = [];
const opened: AppDeps[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}

const base = { logger: silentLogger, watchIntervalMs: 0, databaseUrl: null } as const;

describe('secrets', () => {
  it("JWT_SECRET 'changeme' refuses to start: the server process exits naming the variable and the minimum", async () => {
    const dir = await dataDir();
    const started = run(process.execPath, ['--import', 'tsx', path.join('src', 'server.ts')], {
      cwd: API_ROOT,
      env: {
        ...process.env,
        API_PORT: '0',
        DATA_DIR: dir,
        JWT_SECRET: 'changeme',
        DATABASE_URL: '',
      },
      // Killed before the test's own timeout, so a server that does start never outlives it.
      timeout: 30_000,
    });
    const failure = (await started.then(
      () => null,
      (err: unknown) => err,
    )) as { code?: number; stderr?: string; killed?: boolean } | null;
    expect(failure).not.toBeNull();
    expect(failure!.killed).toBeFalsy();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stderr).toMatch(
      /^Cannot start: Invalid configuration:\n- JWT_SECRET must be at least 32 bytes/m,
    );
    // The message names what to change; a stack trace would only bury it.
    expect(failure!.stderr).not.toMatch(/^\s+at /m);
  }, 45_000);

  it('createDeps refuses a short JWT_SECRET or ALERTS_SECRET, and a short generated secret file', async () => {
    const dir = await dataDir();
    await expect(createDeps({ ...base, dataDir: dir, jwtSecret: 'changeme' })).rejects.toThrow(
      /JWT_SECRET must be at least 32 bytes/,
    );
    await expect(
      createDeps({
        ...base,
        dataDir: dir,
        jwtSecret: 'a-jwt-secret-long-enough-0123456789abcdef',
        alertsSecret: 'short',
      }),
    ).rejects.toThrow(/ALERTS_SECRET must be at least 32 bytes/);
    // 31 bytes: one short.
    await expect(createDeps({ ...base, dataDir: dir, jwtSecret: 'x'.repeat(31) })).rejects.toThrow(
      /JWT_SECRET must be at least 32 bytes/,
    );
    const ok = await createDeps({ ...base, dataDir: dir, jwtSecret: 'x'.repeat(32) });
    opened.push(ok);
  });

  it('without ALERTS_SECRET, rotating JWT_SECRET keeps the alert links already sent working', async () => {
    const dir = await dataDir();
    const saved = process.env.ALERTS_SECRET;
    delete process.env.ALERTS_SECRET;
    try {
      const before = 'the-first-jwt-secret-0123456789-abcdefghij';
      const after = 'the-rotated-jwt-secret-0123456789-abcdefgh';
      // A link e-mailed under the first secret (the key derived from it, as before the rotation).
      const sent = signAlertToken(
        alertsSecret(before, undefined),
        'confirm',
        'no-such-subscription',
        new Date(Date.now() + 3_600_000),
      );
      const first = await createDeps({ ...base, dataDir: dir, jwtSecret: before });
      opened.push(first);
      await first.close();
      opened.pop();
      const kept = (await readFile(path.join(dir, '.alerts-secret'), 'utf8')).trim();
      expect(kept).toBe(alertsSecret(before, undefined));

      const rotated = await createDeps({ ...base, dataDir: dir, jwtSecret: after });
      opened.push(rotated);
      const http = request(createApp(rotated).callback());
      // The signature holds: the link reaches the (long gone) subscription instead of "Invalid link".
      const res = await http.get(`/api/alerts/confirm?token=${encodeURIComponent(sent)}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Alert not found');
      // A link signed with a key derived from the new JWT secret is not one of ours.
      const forged = signAlertToken(
        alertsSecret(after, undefined),
        'confirm',
        'no-such-subscription',
        new Date(Date.now() + 3_600_000),
      );
      const refused = await http.get(`/api/alerts/confirm?token=${encodeURIComponent(forged)}`);
      expect(refused.status).toBe(400);
    } finally {
      if (saved === undefined) delete process.env.ALERTS_SECRET;
      else process.env.ALERTS_SECRET = saved;
    }
  });
});
