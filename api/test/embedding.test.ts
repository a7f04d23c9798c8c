/**
 * createApp does not own the server: the site server hands it only /api requests, and the
 * standalone server.ts runs it alone. Both ways are exercised over real sockets here.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROOT } from '../src/composition/deps.ts';
import { cachedBody } from '../src/index.ts';
import { setup, tempDataDir, TEST_SECRET, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await setup();
});
afterAll(async () => {
  await t.cleanup();
});

describe('embedding', () => {
  it('hands the site server the bytes and ETag a plain GET answers with (cachedBody)', async () => {
    for (const apiPath of [
      '/api/settings',
      '/api/sources',
      '/api/strategies',
      '/api/baserate',
      '/api/strategy-content/lido',
    ]) {
      const answer = await t.http.get(apiPath);
      expect(answer.status).toBe(200);
      const cached = cachedBody(t.deps, apiPath);
      expect(cached?.body.toString('utf8'), apiPath).toBe(answer.text);
      expect(cached?.etag, apiPath).toBe(answer.headers.etag);
    }
    expect(cachedBody(t.deps, '/api/strategy-content/nope')).toBeUndefined();
    expect(cachedBody(t.deps, '/api/scanner')).toBeUndefined();
  });

  it('works mounted next to a static handler, the way packages/site-server mounts it', async () => {
    const api = t.app.callback();
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith('/api')) return void api(req, res);
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>site</title>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${base}/options/lido`);
      expect(await page.text()).toContain('<title>site</title>');
      const strategies = await fetch(`${base}/api/strategies`);
      expect(strategies.status).toBe(200);
      expect(((await strategies.json()) as unknown[]).length).toBe(11);
      const missing = await fetch(`${base}/api/missing`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('src/server.ts serves the API on API_PORT', async () => {
    // Below the ephemeral range (32768 and up), where client sockets could hold the port.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    // A directory of its own: the in-process server of this file owns t.dir.
    const dir = await tempDataDir();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'server.ts')], {
      cwd: API_ROOT,
      env: { ...process.env, API_PORT: String(port), DATA_DIR: dir, JWT_SECRET: TEST_SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('server.ts did not start')), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('api listening')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', (code) => reject(new Error(`server.ts exited with ${code}`)));
      });
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(((await health.json()) as { status: string }).status).toBe('ok');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) =>
        child.exitCode === null && child.signalCode === null ? child.once('exit', r) : r(null),
      );
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000); // starting a node process with the tsx loader can be slow on a busy machine
});
