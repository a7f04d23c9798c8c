/**
 * The worker thread that computes the answers of past days (./as-of-service.ts starts it through
 * ./as-of-worker-boot.mjs, which lets it load TypeScript). It holds the data files of one data
 * version, sent once per version, and computes one day per message, so the server's event loop
 * never runs the engine for a past day.
 *
 * A day's bodies travel back in one buffer that is transferred, not copied: the main thread keeps
 * each body as a slice of it (one allocation per day, no shared pool slab copied per body).
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort, threadId, type MessagePort } from 'node:worker_threads';
import { computations, computeAsOf, type AsOfAnswers, type AsOfInput } from './as-of.ts';
import type { CachedBody } from '../../platform/http/cached-body.ts';

export type ToWorker =
  | { type: 'input'; version: number; input: AsOfInput }
  | { type: 'compute'; version: number; asOf: string };

export type FromWorker =
  | {
      type: 'answers';
      version: number;
      asOf: string;
      answers: PackedAnswers | null;
      /** computeAsOf runs on the worker's thread so far, and which thread that is. */
      computations: number;
      threadId: number;
      /** Whether the thread runs at the lowest scheduling priority (lowerPriority). */
      lowPriority: boolean;
    }
  | { type: 'failed'; version: number; asOf: string; message: string };

/** One day's bodies in one buffer: `parts` in order, each [key, ETag, length in bytes]. */
export interface PackedAnswers {
  bytes: Uint8Array<ArrayBuffer>;
  parts: [key: string, etag: string, length: number][];
}

const STRATEGIES = 'strategies';
const BASERATE = 'baserate';
const BREAKDOWN = 'breakdown:';

export function packAnswers(answers: AsOfAnswers): PackedAnswers {
  const named: [string, CachedBody][] = [
    [STRATEGIES, answers.bodies.strategies],
    [BASERATE, answers.bodies.baserate],
    ...[...answers.bodies.breakdown].map(([id, b]): [string, CachedBody] => [BREAKDOWN + id, b]),
  ];
  // Its own ArrayBuffer of the exact size (a small Buffer may be a slice of a shared pool).
  const bytes = new Uint8Array(named.reduce((n, [, b]) => n + b.body.length, 0));
  let offset = 0;
  for (const [, b] of named) {
    bytes.set(b.body, offset);
    offset += b.body.length;
  }
  return { bytes, parts: named.map(([key, b]) => [key, b.etag, b.body.length]) };
}

export function unpackAnswers(asOf: string, packed: PackedAnswers): AsOfAnswers {
  const { buffer, byteOffset } = packed.bytes;
  const breakdown = new Map<string, CachedBody>();
  const bodies: Partial<AsOfAnswers['bodies']> = { breakdown };
  let offset = byteOffset;
  for (const [key, etag, length] of packed.parts) {
    const cached = { body: Buffer.from(buffer, offset, length), etag };
    offset += length;
    if (key === STRATEGIES) bodies.strategies = cached;
    else if (key === BASERATE) bodies.baserate = cached;
    else breakdown.set(key.slice(BREAKDOWN.length), cached);
  }
  if (!bodies.strategies || !bodies.baserate) throw new Error(`answers of ${asOf} are incomplete`);
  return { asOf, bodies: bodies as AsOfAnswers['bodies'] };
}

/**
 * Gives this thread the lowest scheduling priority (nice 19), so that on a busy machine the
 * event loop's thread, at its normal priority, is never kept waiting by the engine. Linux only
 * (a thread's own id is read from /proc/thread-self; setpriority on it touches this thread alone);
 * elsewhere the thread keeps its priority. Lowering one's own priority needs no privilege.
 */
function lowerPriority(): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    os.setPriority(tid, os.constants.priority.PRIORITY_LOW);
    return os.getPriority(tid) === os.constants.priority.PRIORITY_LOW;
  } catch {
    return false;
  }
}

/** Answers the service's messages on `port` (the worker's parentPort). */
export function serveAsOf(port: MessagePort | null = parentPort): void {
  if (!port) throw new Error('serveAsOf runs in a worker thread');
  const lowPriority = lowerPriority();
  let loaded: { version: number; input: AsOfInput } | null = null;
  port.on('message', (message: ToWorker) => {
    if (message.type === 'input') {
      loaded = { version: message.version, input: message.input };
      return;
    }
    const { version, asOf } = message;
    try {
      if (loaded?.version !== version) throw new Error(`data version ${version} was not sent`);
      const answers = computeAsOf(loaded.input, asOf);
      const packed = answers ? packAnswers(answers) : null;
      const reply: FromWorker = {
        type: 'answers',
        version,
        asOf,
        answers: packed,
        computations: computations.onThisThread,
        threadId,
        lowPriority,
      };
      port.postMessage(reply, packed ? [packed.bytes.buffer] : []);
    } catch (err) {
      const reply: FromWorker = { type: 'failed', version, asOf, message: (err as Error).message };
      port.postMessage(reply);
    }
  });
}
