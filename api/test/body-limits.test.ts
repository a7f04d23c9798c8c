/**
 * The JSON body reader against clients that send too slowly or too much, over a real socket: a
 * trickled body is answered 408 within API_BODY_TIMEOUT_MS, a body over the limit 413, and in
 * both cases the connection is closed and the rest of the body is not read.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { exited, startApi } from './api-process.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';

let t: TestContext;
let server: http.Server;
let port: number;
const previousTimeout = process.env.API_BODY_TIMEOUT_MS;

beforeAll(async () => {
  process.env.API_BODY_TIMEOUT_MS = '500';
  t = await setup();
  server = http.createServer(t.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  if (previousTimeout === undefined) delete process.env.API_BODY_TIMEOUT_MS;
  else process.env.API_BODY_TIMEOUT_MS = previousTimeout;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.cleanup();
});

interface Exchange {
  /** What the server answered (status line, headers, body). */
  reply: string;
  /** Milliseconds from the first byte sent to the close, null when still open at the end. */
  closedAfterMs: number | null;
  /** Body bytes the client got to send. */
  sent: number;
}

/**
 * Sends `head`, then the body as `chunk` every `intervalMs` (0: as fast as the socket takes
 * it), for at most `giveUpMs`.
 */
function exchange(
  head: string,
  chunk: Buffer,
  intervalMs: number,
  giveUpMs: number,
  to = () => port,
) {
  return new Promise<Exchange>((resolve) => {
    const started = Date.now();
    const socket = net.connect(to(), '127.0.0.1');
    let reply = '';
    let sent = 0;
    let finished = false;
    const done = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ reply, closedAfterMs: closed ? Date.now() - started : null, sent });
    };
    const giveUp = setTimeout(() => done(false), giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (reply += text));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    const pump = () => {
      while (!finished && !socket.destroyed) {
        sent += chunk.length;
        const more = socket.write(chunk);
        if (intervalMs > 0) return void setTimeout(pump, intervalMs);
        if (!more) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

const headers = (extra: string) =>
  `POST /api/addToMailList HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n`;

const errorCode = (reply: string) =>
  (JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: { code: string } }).error
    .code;

describe('request bodies', () => {
  it('answers a body that trickles in with 408 and closes the connection within seconds', async () => {
    const result = await exchange(headers('Content-Length: 1000\r\n'), Buffer.from(' '), 200, 8000);
    expect(result.reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(errorCode(result.reply)).toBe('request_timeout');
    expect(result.closedAfterMs).not.toBeNull();
    expect(result.closedAfterMs!).toBeLessThan(5000);
  }, 15_000);

  it('closes the connection after a 413 instead of reading the rest of a streamed body', async () => {
    const result = await exchange(
      headers('Transfer-Encoding: chunked\r\n'),
      Buffer.from(`10000\r\n${' '.repeat(0x10000)}\r\n`),
      0,
      8000,
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(errorCode(result.reply)).toBe('payload_too_large');
    expect(result.closedAfterMs).not.toBeNull();
    // What the client got to send before the close: socket buffers, not the 8 s of a flood.
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
  }, 15_000);

  it('closes the connection after a 413 for a declared length too', async () => {
    const result = await exchange(
      headers('Content-Length: 10000000000\r\n'),
      Buffer.alloc(0x10000, 32),
      0,
      8000,
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(result.closedAfterMs).not.toBeNull();
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
  }, 15_000);
});

describe('the API server (src/server.ts)', () => {
  let apiPort: number;
  let dir: string;
  let proc: Awaited<ReturnType<typeof startApi>>;

  beforeAll(async () => {
    // A free port for the child process.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    apiPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    dir = await tempDataDir();
    proc = await startApi(dir, apiPort, {
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '1000',
      API_BODY_TIMEOUT_MS: '60000',
    });
  }, 90_000);

  afterAll(async () => {
    proc.kill('SIGTERM');
    await exited(proc);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 408 and closes a connection whose headers trickle in', async () => {
    const result = await exchange(
      'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      Buffer.from('X-Slow: 1\r\n'),
      200,
      8000,
      () => apiPort,
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorCode(result.reply)).toBe('request_timeout');
    expect(result.closedAfterMs).not.toBeNull();
    expect(result.closedAfterMs!).toBeLessThan(5000);
  }, 15_000);

  it('answers 408 and closes a connection whose request outlasts the request timeout', async () => {
    const result = await exchange(
      headers('Content-Length: 1000\r\n'),
      Buffer.from(' '),
      200,
      8000,
      () => apiPort,
    );
    expect(result.reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorCode(result.reply)).toBe('request_timeout');
    expect(result.closedAfterMs).not.toBeNull();
    expect(result.closedAfterMs!).toBeLessThan(5000);
  }, 15_000);
});
