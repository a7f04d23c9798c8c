/**
 * Structured logging: one JSON line per event (pino), so operators can grep the file and the
 * reason. Lines look like `{"level":"info","time":"2026-…Z","message":"…",…fields}`; LOG_LEVEL
 * (read in composition/deps.ts) chooses the lowest level written. Secrets and e-mail addresses never reach
 * the log: fields named like a secret or an address are redacted by pino (REDACT_PATHS), and
 * address-like text in messages and in the other fields' texts is replaced by `[email]`.
 */
import pino from 'pino';

export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /**
   * The access line of one request, at level info: the same line as
   * `info('request', {requestId, method, route, status, ms})`, written without pino's generic
   * field handling (every part is known to be safe: a checked id, a method, a route pattern).
   */
  access?(requestId: string, method: string, route: string, status: number, ms: number): void;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A LOG_LEVEL value: one of LOG_LEVELS (default info); anything else stops the start. */
export function parseLogLevel(raw: string | undefined): LogLevel {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
}

const CENSOR = '[redacted]';

/** Fields (at the top or one level down) whose values are never written. */
export const REDACT_PATHS: string[] = [
  'email',
  'address',
  'to',
  'token',
  'password',
  'secret',
  'jwtSecret',
  'inviteCode',
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  '*.email',
  '*.address',
  '*.to',
  '*.token',
  '*.password',
  '*.secret',
  '*.inviteCode',
  '*.authorization',
];

/** Address-like text (`local@domain.tld`). */
const ADDRESS = /[^\s@<>()[\]{},;:"'`]+@[^\s@<>()[\]{},;:"'`]+\.[^\s@<>()[\]{},;:"'`]+/g;

/** `text` with every address-like part replaced by `[email]`. */
export function scrubAddresses(text: string): string {
  return text.includes('@') ? text.replace(ADDRESS, '[email]') : text;
}

/** The fields with address-like text in their (top-level) string values replaced. */
function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'string' && value.includes('@')) {
      out ??= { ...fields };
      out[key] = scrubAddresses(value);
    } else if (
      Array.isArray(value) &&
      value.some((v) => typeof v === 'string' && v.includes('@'))
    ) {
      out ??= { ...fields };
      out[key] = value.map((v: unknown) => (typeof v === 'string' ? scrubAddresses(v) : v));
    }
  }
  return out ?? fields;
}

/** Bytes of log lines gathered before a write: busy servers write in few system calls. */
const LOG_BUFFER_BYTES = 65536;
/** At most this long (ms) between an info line and its write, when the batch does not fill. */
const LOG_FLUSH_MS = 1000;

/**
 * Lines gathered into chunks of LOG_BUFFER_BYTES before they go to pino's destination
 * (sonic-boom, asynchronous writes): a write per line, or per few lines, cost a busy server a
 * tenth of its throughput (docs/performance.md); a chunk holds some 400 access lines. Written at
 * least once a second, at once after a warning or an error, and synchronously at exit.
 */
class LineBatch {
  /** Lines not yet handed on, as one string (appending is cheap: V8 joins them lazily). */
  private pending = '';

  constructor(private readonly out: pino.DestinationStream & { flushSync?(): void }) {
    setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
    process.once('exit', () => {
      this.flush();
      try {
        out.flushSync?.();
      } catch {
        // A write in progress: what it holds is written by node before the process ends.
      }
    });
  }

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= LOG_BUFFER_BYTES) this.flush();
  }

  flush(): void {
    if (this.pending === '') return;
    const chunk = this.pending;
    this.pending = '';
    this.out.write(chunk);
  }
}

export interface CreateLoggerOptions {
  /** Lowest level written (default info). */
  level?: LogLevel;
  /**
   * Where the lines go: a stream (tests), a file path, or a file descriptor. Default: standard
   * output, written asynchronously in chunks (at most a second late, flushed at exit) so
   * logging does not hold up requests.
   */
  destination?: pino.DestinationStream | string | number;
}

/** A Logger writing JSON lines through pino, with redaction. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const dest = options.destination ?? 1;
  // A file or descriptor: batched (LineBatch); a stream (tests) gets each line at once.
  let batch: LineBatch | null = null;
  let stream: pino.DestinationStream;
  if (typeof dest === 'string' || typeof dest === 'number') {
    batch = new LineBatch(pino.destination({ dest, sync: false }));
    stream = batch;
  } else stream = dest;
  const p = pino(
    {
      level: options.level ?? 'info',
      messageKey: 'message',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
    },
    stream,
  );
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (!p.isLevelEnabled(level)) return;
      if (fields) p[level](scrubFields(fields), scrubAddresses(message));
      else p[level](scrubAddresses(message));
      if (batch && (level === 'warn' || level === 'error')) batch.flush();
    };
  const accessOn = p.isLevelEnabled('info');
  // Route patterns are few: each one's JSON text is made once.
  const routeTexts = new Map<string, string>();
  const routeJson = (route: string): string => {
    let text = routeTexts.get(route);
    if (text === undefined) {
      text = JSON.stringify(route);
      if (routeTexts.size < 1000) routeTexts.set(route, text);
    }
    return text;
  };
  // The time text changes once a millisecond at most: made once per millisecond.
  let lastMs = 0;
  let lastTime = '';
  const access = (
    requestId: string,
    method: string,
    route: string,
    status: number,
    ms: number,
  ): void => {
    if (!accessOn) return;
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastTime = new Date(now).toISOString();
    }
    // The id (checked or made here) and the method (checked by node's parser) need no escaping.
    stream.write(
      `{"level":"info","time":"${lastTime}","message":"request","requestId":"${requestId}","method":"${method}","route":${routeJson(route)},"status":${status},"ms":${ms}}\n`,
    );
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    access,
  };
}

/** Standard output at level info (commands and scripts; the server's comes from composition/deps.ts). */
export const consoleLogger: Logger = createLogger();

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Collects log lines in memory; tests assert on what an operator would read. */
export function memoryLogger(): Logger & {
  lines: { level: string; message: string; fields?: Record<string, unknown> }[];
} {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(fields ? { level, message, fields } : { level, message });
  };
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}
