/**
 * Test fixtures: every suite works on a temp copy of the shipped data directory, never on
 * api/data itself, and runs the app in-process through supertest.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type Koa from 'koa';
import { createApp } from '../src/app.ts';
import {
  createDeps,
  DEFAULT_DATA_DIR,
  type AppDeps,
  type CreateDepsOptions,
} from '../src/composition/deps.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import { isInstallationFile } from '../src/composition/data-files.ts';
import { memoryLogger } from '../src/platform/logger.ts';

export const TEST_SECRET = 'test-secret-0123456789abcdefghijklmnopqrstuvwxyz';

/** Copies the shipped data (minus secrets) into a fresh temp dir with empty runtime files. */
export async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yield-api-test-'));
  await cp(DEFAULT_DATA_DIR, dir, {
    recursive: true,
    // A developer's running server may have written a secret, user data, its journal, its lock
    // or alert e-mails into api/data.
    filter: (src) => src === DEFAULT_DATA_DIR || !isInstallationFile(path.basename(src)),
  });
  await writeFile(path.join(dir, 'invites.json'), '{ "invites": [] }\n');
  await writeFile(path.join(dir, 'users.json'), '{ "users": [] }\n');
  await writeFile(path.join(dir, 'mailing-list.json'), '{ "entries": [] }\n');
  await writeFile(path.join(dir, 'alerts.json'), '{ "subscriptions": [], "deliveries": [] }\n');
  return dir;
}

export interface TestContext {
  dir: string;
  deps: AppDeps;
  app: Koa;
  http: ReturnType<typeof request>;
  logger: ReturnType<typeof memoryLogger>;
  cleanup(): Promise<void>;
}

export async function setup(
  options: CreateDepsOptions & { dir?: string } = {},
): Promise<TestContext> {
  const dir = options.dir ?? (await tempDataDir());
  const logger = memoryLogger();
  const deps = await createDeps({
    jwtSecret: TEST_SECRET,
    logger,
    watchIntervalMs: 0,
    rateLimit: { max: 100_000, windowMs: 60_000 },
    ...options,
    // Past days computed when asked for only (test/as-of-abuse.test.ts turns the precompute on):
    // no suite pays for every day of the data in the background.
    asOf: { rateLimitMax: 100_000, precompute: false, ...options.asOf },
    dataDir: dir,
  });
  const app = createApp(deps);
  const callback = app.callback();
  return {
    dir,
    deps,
    app,
    http: request(callback),
    logger,
    cleanup: async () => {
      await deps.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Folds the user-data journal into the JSON files now (the server does it a second after the last
 * change), so a test reads mailing-list.json, users.json or invites.json as an operator would.
 */
export async function foldUserData(t: TestContext): Promise<void> {
  if (!(t.deps.userData instanceof FileUserDataStore)) throw new Error('not the file store');
  await t.deps.userData.compact();
}

export async function readJson<T = unknown>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** Writes a file and moves its mtime forward, so a same-millisecond edit is still noticed. */
export async function editFile(file: string, text: string): Promise<void> {
  await writeFile(file, text);
  const { utimes } = await import('node:fs/promises');
  const later = new Date(Date.now() + 2000);
  await utimes(file, later, later);
}

export function decodeJwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * The e-mails written to `dir`'s outbox (no SMTP_URL) for `to`, parsed; waits up to `timeoutMs`
 * for at least `atLeast` of them (some are sent after the answer).
 */
export async function outboxMails(
  dir: string,
  to: string,
  atLeast = 1,
  timeoutMs = 5000,
): Promise<import('mailparser').ParsedMail[]> {
  const { readdir } = await import('node:fs/promises');
  const { simpleParser } = await import('mailparser');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = await readdir(path.join(dir, 'outbox')).catch(() => [] as string[]);
    const mails = await Promise.all(
      files
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map(async (f) => simpleParser(await readFile(path.join(dir, 'outbox', f)))),
    );
    const mine = mails.filter((m) => {
      const address = Array.isArray(m.to) ? m.to[0]?.text : m.to?.text;
      return address?.toLowerCase() === to.toLowerCase();
    });
    if (mine.length >= atLeast || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 50));
  }
}
