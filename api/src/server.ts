/** Standalone API server for development: `pnpm --filter @yield/api dev` (API_PORT, default 8787). */
import http, { type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createApp, createDeps } from './index.ts';

const port = Number(process.env.API_PORT ?? 8787);
const deps = await createDeps();
const app = createApp(deps);
const handler = app.callback();

/** A positive number of milliseconds from the environment, else `fallback`. */
const ms = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};
// A client that takes longer to send its headers (10 s) or its whole request (30 s) is answered
// 408 and its connection closed; node's defaults would hold a trickled request for 300 s. The
// JSON body reader has its own, shorter limit (API_BODY_TIMEOUT_MS, 10 s).
const requestTimeout = ms(process.env.REQUEST_TIMEOUT_MS, 30_000);
const headersTimeout = Math.min(ms(process.env.HEADERS_TIMEOUT_MS, 10_000), requestTimeout);
const server = http.createServer(
  {
    headersTimeout,
    requestTimeout,
    // How often those timeouts are checked (node's default is every 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  },
  handler,
);

/**
 * Answers a client error of the connection itself (headers or request not received in time,
 * malformed or oversized headers) as node would, but with a JSON body like every other error,
 * then closes the connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const [status, reason, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'request_timeout', 'The request was not received in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'Request headers too large']
        : [400, 'Bad Request', 'bad_request', 'Malformed request'];
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    const body = JSON.stringify({ error: { code, message } });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
server.on('clientError', answerClientError);

server.listen(port, () => {
  deps.logger.info('api listening', {
    url: `http://localhost:${port}/api`,
    dataDir: deps.store.dir,
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void deps.close().then(() => process.exit(0));
  });
}
