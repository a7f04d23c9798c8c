/**
 * The answer to a client error of the connection itself, for every server of the site (the API
 * alone, api/src/server.ts, and the site server): node's own answer carries no body.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiErrorCode } from '@yield/contract/constants';

/**
 * Answers a client error of the connection itself (headers or request not received in time,
 * malformed or oversized headers) as node would, but with a JSON body like every other error,
 * then closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const [status, reason, code, message]: [number, string, ApiErrorCode, string] =
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
