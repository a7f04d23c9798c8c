/**
 * What the site server never sends however it is asked (renderers, files outside its folders),
 * what it does with a remotes manifest it cannot trust, and how long a slow client may hold a
 * connection. Raw requests (node:http, node:net): fetch would normalise the paths under test.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createSiteServer, type SiteServerOptions } from './site-server.ts';

let root: string;
const servers: http.Server[] = [];

function write(file: string, body: string) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, body);
}

async function start(options: Partial<SiteServerOptions> = {}): Promise<number> {
  const server = createSiteServer({
    rootDir: root,
    // Reads the whole body before it answers, as the API's POST routes do.
    apiHandler: (req, res) => {
      let size = 0;
      req.on('data', (chunk: Buffer) => (size += chunk.length));
      req.on('end', () => res.end(JSON.stringify({ size })));
    },
    ...options,
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** GET of a path exactly as written. */
function get(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: rawPath }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

let port: number;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'site-limits-'));
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
  );
  write('shell/dist/main.1a2b3c4d.js', 'console.log("shell");');
  write('shell/dist/server/render.cjs', 'SHELL RENDERER SOURCE');
  write(
    'shell/dist/remotes.json',
    JSON.stringify({ mfe_leaderboard: '/remotes/mfe-leaderboard/remoteEntry.js' }),
  );
  write('mfe-leaderboard/dist/remoteEntry.js', 'var mfe_leaderboard = {};');
  write('mfe-leaderboard/dist/server/render.cjs', 'LEADERBOARD RENDERER SOURCE');
  write('mfe-leaderboard/dist/pages.json', '[]');
  write('outside/secret.txt', 'OUTSIDE SECRET');
  // Links out of the served folders, and one that stays inside.
  fs.symlinkSync(path.join(root, 'outside/secret.txt'), path.join(root, 'shell/dist/leak.txt'));
  fs.symlinkSync(path.join(root, 'outside'), path.join(root, 'shell/dist/outside-dir'));
  fs.symlinkSync(
    path.join(root, 'outside/secret.txt'),
    path.join(root, 'mfe-leaderboard/dist/leak.js'),
  );
  fs.symlinkSync(
    path.join(root, 'shell/dist/main.1a2b3c4d.js'),
    path.join(root, 'shell/dist/alias.js'),
  );
  port = await start();
});

afterAll(() => {
  for (const server of servers) server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('files the site server never sends', () => {
  it('answers 404 to the server renderers however their path is spelled', async () => {
    for (const probe of [
      '/server/render.cjs',
      '/%73erver/render.cjs',
      '/%73%65%72%76%65%72/render.cjs',
      '//server/render.cjs',
      '/./server/render.cjs',
      '/static/../server/render.cjs',
      '/%2e%2e/shell/dist/server/render.cjs',
      '/server%2frender.cjs',
      '/server%5crender.cjs',
      '/%5cserver%5crender.cjs',
      '/remotes/mfe-leaderboard/server/render.cjs',
      '/remotes/mfe-leaderboard//server/render.cjs',
      '/remotes/mfe-leaderboard///server//render.cjs',
      '/remotes/mfe-leaderboard/./server/render.cjs',
      '/remotes/mfe-leaderboard/x/../server/render.cjs',
      '/remotes/mfe-leaderboard/%73erver/render.cjs',
      '/remotes/mfe-leaderboard/%2fserver/render.cjs',
      '/remotes/mfe-leaderboard/%5cserver%5crender.cjs',
      '/remotes/mfe-leaderboard/server%2frender.cjs',
      '/remotes/mfe-leaderboard/remoteEntry.js/../server/render.cjs',
    ]) {
      const { status, body } = await get(port, probe);
      expect(status, probe).toBe(404);
      expect(body, probe).not.toContain('RENDERER SOURCE');
    }
    // The files next to them are still served.
    expect((await get(port, '/remotes/mfe-leaderboard/remoteEntry.js')).body).toBe(
      'var mfe_leaderboard = {};',
    );
    expect((await get(port, '/remotes/mfe-leaderboard//remoteEntry.js')).status).toBe(200);
  });

  it('follows no symbolic link out of a served folder', async () => {
    for (const probe of [
      '/leak.txt',
      '/outside-dir/secret.txt',
      '/remotes/mfe-leaderboard/leak.js',
    ]) {
      const { status, body } = await get(port, probe);
      expect(status, probe).toBe(404);
      expect(body, probe).not.toContain('OUTSIDE SECRET');
    }
    // A link to a file of the same folder is served.
    expect((await get(port, '/alias.js')).body).toBe('console.log("shell");');
  });
});

describe('remotes manifest', () => {
  it('keeps an entry that could split the Content-Security-Policy out of it, and logs it', async () => {
    const manifest = path.join(root, 'shell/dist/remotes.json');
    const before = fs.readFileSync(manifest, 'utf8');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      fs.writeFileSync(
        manifest,
        JSON.stringify({
          mfe_leaderboard: "https://cdn.example.com;script-src 'unsafe-inline'/remoteEntry.js",
          mfe_strategy: 'https://a.example.com,b.example.com/remoteEntry.js',
          mfe_content: 'https://c.example.com /remoteEntry.js',
          mfe_premium: 'javascript:alert(1)',
          mfe_valid: 'https://ok.example.com/premium/remoteEntry.js',
        }),
      );
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(manifest, later, later);
      const response = await fetch(`http://127.0.0.1:${port}/risks`);
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self' https://ok.example.com 'sha256-");
      for (const bad of ['cdn.example.com', 'a.example.com', 'c.example.com', 'javascript']) {
        expect(csp, bad).not.toContain(bad);
      }
      expect(csp.split(';')[1]).not.toContain("'unsafe-inline'");
      // One directive per `;`, none of them added by the manifest.
      expect(csp.split(';').map((part) => part.trim().split(' ')[0])).toEqual([
        'default-src',
        'script-src',
        'style-src',
        'img-src',
        'font-src',
        'connect-src',
        'object-src',
        'base-uri',
        'form-action',
        'frame-ancestors',
      ]);
      expect(errors.mock.calls.map((call) => String(call[0])).join('\n')).toContain(
        'entry "mfe_leaderboard" ignored',
      );
    } finally {
      errors.mockRestore();
      fs.writeFileSync(manifest, before);
      const later = new Date(Date.now() + 10_000);
      fs.utimesSync(manifest, later, later);
    }
  });
});

/** Opens a connection and sends `head`; resolves with what came back and when it closed. */
function slowClient(
  port: number,
  head: string,
  trickle: string | null,
  intervalMs: number,
  giveUpMs: number,
): Promise<{ reply: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ reply, closedAfterMs: closed ? Date.now() - started : null });
    };
    const giveUp = setTimeout(() => done(false), giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('close', () => done(true));
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(head);
      if (trickle !== null) {
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write(trickle);
        }, intervalMs);
      }
    });
  });
}

/** The `error` of a raw reply's JSON body. */
const jsonError = (reply: string) =>
  (JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: unknown }).error;

describe('slow clients', () => {
  it('answers 408 and closes a connection whose body trickles in past the request timeout', async () => {
    const slow = await start({ requestTimeoutMs: 1000, headersTimeoutMs: 500 });
    const { reply, closedAfterMs } = await slowClient(
      slow,
      'POST /api/mailing-list HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      'a',
      200,
      6000,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(jsonError(reply)).toEqual({
      code: 'request_timeout',
      message: 'The request was not received in time',
    });
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(4000);
  }, 10_000);

  it('closes a connection whose headers trickle in past the headers timeout', async () => {
    const slow = await start({ requestTimeoutMs: 5000, headersTimeoutMs: 500 });
    const { reply, closedAfterMs } = await slowClient(
      slow,
      'GET /risks HTTP/1.1\r\nHost: x\r\n',
      'X-Slow: 1\r\n',
      200,
      6000,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(jsonError(reply)).toEqual({
      code: 'request_timeout',
      message: 'The request was not received in time',
    });
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(4000);
  }, 10_000);

  it('answers a malformed request with a JSON 400 and closes the connection', async () => {
    const { reply, closedAfterMs } = await slowClient(port, 'NOT HTTP\r\n\r\n', null, 0, 3000);
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonError(reply)).toEqual({ code: 'bad_request', message: 'Malformed request' });
    expect(closedAfterMs).not.toBeNull();
  });
});
