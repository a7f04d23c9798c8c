/**
 * The site server hands /api requests to the API's Koa app, so TRUST_PROXY means the same there:
 * behind one load balancer the client is the rightmost X-Forwarded-For entry, and what the client
 * writes left of it does not escape the rate limits. Over a real socket on 127.0.0.1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, createDeps, DEFAULT_DATA_DIR, silentLogger, type AppDeps } from '@yield/api';
import { createSiteServer } from './site-server.ts';

let dataDir: string;
let rootDir: string;
let deps: AppDeps;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-proxy-data-'));
  fs.cpSync(DEFAULT_DATA_DIR, dataDir, {
    recursive: true,
    filter: (src) =>
      src === DEFAULT_DATA_DIR ||
      !(path.basename(src).startsWith('.') || path.basename(src).startsWith('user-data.')),
  });
  fs.writeFileSync(path.join(dataDir, 'mailing-list.json'), '{ "entries": [] }\n');
  rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-proxy-root-'));
  fs.mkdirSync(path.join(rootDir, 'shell/dist'), { recursive: true });
  fs.writeFileSync(path.join(rootDir, 'shell/dist/index.html'), '<!doctype html><div id="root">');
  fs.writeFileSync(path.join(rootDir, 'shell/dist/remotes.json'), '{}');

  process.env.TRUST_PROXY = '1';
  try {
    deps = await createDeps({
      dataDir,
      logger: silentLogger,
      watchIntervalMs: 0,
      importIntervalMs: null,
      databaseUrl: null,
      jwtSecret: 'site-server-test-secret-0123456789abcdefghijklmnop',
      rateLimit: { max: 3, windowMs: 60_000 },
    });
  } finally {
    delete process.env.TRUST_PROXY;
  }
  server = createSiteServer({ rootDir, apiHandler: createApp(deps).callback() });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await deps.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(rootDir, { recursive: true, force: true });
});

function signUp(forwardedFor: string, n: number) {
  return fetch(`${base}/api/addToMailList`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
    body: JSON.stringify({ email: `site${n}@example.com` }),
  });
}

describe('site server behind one load balancer (TRUST_PROXY=1)', () => {
  it('rate-limits by the rightmost X-Forwarded-For entry, not the ones the client wrote', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await signUp(`198.51.100.${i}, 203.0.113.5`, i)).status);
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const refused = await signUp('203.0.113.5', 10);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await signUp('198.51.100.1, 203.0.113.6', 11)).status).toBe(202);
  });
});
