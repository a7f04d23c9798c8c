/**
 * The answers of past days (./as-of.ts), computed off the event loop and once per data version.
 *
 * - **One worker, one day at a time**: every computation runs in one worker thread
 *   (./as-of-worker.ts), which is sent one day at a time; days asked for by requests go first,
 *   then the background precompute. The worker runs at the lowest scheduling priority (Linux),
 *   so that on a busy machine it never keeps the event loop's thread waiting for a core.
 * - **Once per data version**: a data version is the set of data files the answers are cut from
 *   (sources, history, prices, settings; a snapshot rebuilt for staleness alone keeps it). A
 *   day's answers are kept until the data changes; requests for a day being computed wait for
 *   that one computation.
 * - **Precomputed**: the first request of a version queues every valid day (from the first day
 *   of data to today, newest first) behind the requests, so that soon every day is a hit.
 * - **Bounded**: the kept answers are a least-recently-used cache bounded by their bytes
 *   (`maxBytes`); the precompute stops before it would evict a day.
 */
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../platform/logger.ts';
import {
  answersBytes,
  daysBetween,
  firstDataDay,
  type AsOfAnswers,
  type AsOfInput,
} from './as-of.ts';
import { unpackAnswers, type FromWorker, type ToWorker } from './as-of-worker.ts';

/** The default bound of the kept answers: ~3,000 days of the shipped data's sources. */
export const AS_OF_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The memory of one kept body besides its bytes (its Buffer, ETag string and map entry): measured
 * ~260 bytes on node 20 (4 KB for a day of the shipped data's 15 bodies).
 */
const BODY_OVERHEAD = 300;

/** What one day's answers hold in memory, estimated: their bytes and their objects. */
function keptBytes(answers: AsOfAnswers): number {
  return answersBytes(answers) + BODY_OVERHEAD * (2 + answers.bodies.breakdown.size);
}

export interface AsOfServiceOptions {
  logger: Logger;
  /** Bytes of answers kept per data version. Default AS_OF_CACHE_BYTES. */
  maxBytes?: number;
  /** Queue every valid day behind the first request of a version. Default true. */
  precompute?: boolean;
  /** The worker's entry. Default ./as-of-worker-boot.mjs (tests give a broken one). */
  workerUrl?: URL;
}

/** What the service did, for tests and operators. */
export interface AsOfStats {
  /** Days computed by the worker thread (its own count of computeAsOf runs, across restarts). */
  workerComputations: number;
  /** The threads that ran those computations. */
  threads: number[];
  /** Days being computed now, and the most ever at once. */
  computing: number;
  maxComputing: number;
  /** Days waiting for the worker (asked for, then precompute). */
  queued: number;
  /** Days kept for the current data version, and their memory (bodies and objects, estimated). */
  cachedDays: number;
  cachedBytes: number;
  workerStarts: number;
  /** Whether the worker runs at the lowest scheduling priority (Linux); null before it answered. */
  lowPriority: boolean | null;
}

type Result = AsOfAnswers | null;

/** The answers of one data version. */
class Generation {
  readonly cache: LRUCache<string, AsOfAnswers>;
  readonly pending = new Map<string, Job>();
  /** Days left to precompute, oldest first (taken from the end); null until asked for. */
  background: string[] | null = null;
  /** Bytes of the last day computed: the precompute stops when one more would not fit. */
  lastBytes = 0;
  readonly first: string | null;

  constructor(
    readonly version: number,
    readonly input: AsOfInput,
    maxBytes: number,
  ) {
    this.cache = new LRUCache({ maxSize: maxBytes, sizeCalculation: keptBytes });
    this.first = input.history ? firstDataDay(input.history) : null;
  }

  /** The same data files (a snapshot rebuilt for staleness alone has the same ones). */
  matches(input: AsOfInput): boolean {
    const mine = this.input;
    return (
      mine.sources === input.sources &&
      mine.history === input.history &&
      mine.prices === input.prices &&
      mine.settings === input.settings
    );
  }
}

interface Job {
  gen: Generation;
  day: string;
  promise: Promise<Result>;
  resolve(result: Result): void;
  reject(error: Error): void;
}

export class AsOfService {
  private readonly maxBytes: number;
  private readonly precompute: boolean;
  private readonly logger: Logger;
  private readonly workerUrl: URL;
  private current: Generation | null = null;
  /** The version replaced last: a request that began before the change is answered from it. */
  private previous: Generation | null = null;
  private versions = 0;
  private worker: Worker | null = null;
  /** The version whose data files the worker holds. */
  private loaded: number | null = null;
  private running: Job | null = null;
  private readonly urgent: Job[] = [];
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** Days handed to the worker and not answered yet (one at most, by design: counted). */
  private computing = 0;
  private readonly counts = {
    /** Each worker thread's own count of its computeAsOf runs (a restarted worker is another). */
    byThread: new Map<number, number>(),
    maxComputing: 0,
    workerStarts: 0,
    lowPriority: null as boolean | null,
  };

  constructor(options: AsOfServiceOptions) {
    this.logger = options.logger;
    this.maxBytes = options.maxBytes ?? AS_OF_CACHE_BYTES;
    this.precompute = options.precompute ?? true;
    this.workerUrl = options.workerUrl ?? new URL('./as-of-worker-boot.mjs', import.meta.url);
  }

  /** The first day of data of `input` (computed once per version). */
  firstDay(input: AsOfInput): string | null {
    return this.generationOf(input).first;
  }

  /**
   * The kept answers of `day`, without computing it; undefined when not kept. The first look at
   * a data version (even one refused by the rate limit) starts its precompute, up to `today`.
   */
  ready(input: AsOfInput, day: string, today: string): AsOfAnswers | undefined {
    const gen = this.generationOf(input);
    this.startPrecompute(gen, today);
    return gen === this.current ? gen.cache.get(day) : undefined;
  }

  /**
   * The answers of `day`: kept ones at once, else from the worker (one computation however many
   * ask). The first call of a data version starts its precompute, up to `today`.
   */
  answers(input: AsOfInput, day: string, today: string): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('the answers of past days are closed'));
    const gen = this.generationOf(input);
    const kept = gen.cache.get(day);
    // Queued before the precompute starts: the asked-for day is the worker's first.
    const job = kept ? null : (gen.pending.get(day) ?? this.queue(gen, day));
    this.startPrecompute(gen, today);
    this.pump();
    return job ? job.promise : Promise.resolve(kept ?? null);
  }

  /** Resolves once nothing is computing or queued (the precompute done). */
  idle(): Promise<void> {
    if (!this.running && !this.hasWork()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stats(): AsOfStats {
    return {
      workerComputations: [...this.counts.byThread.values()].reduce((a, b) => a + b, 0),
      threads: [...this.counts.byThread.keys()],
      computing: this.computing,
      maxComputing: this.counts.maxComputing,
      queued: this.urgent.length + (this.current?.background?.length ?? 0),
      cachedDays: this.current?.cache.size ?? 0,
      cachedBytes: this.current?.cache.calculatedSize ?? 0,
      workerStarts: this.counts.workerStarts,
      lowPriority: this.counts.lowPriority,
    };
  }

  /** Stops the worker; requests still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the server is stopping');
    for (const job of [...this.urgent, ...(this.running ? [this.running] : [])]) job.reject(error);
    this.urgent.length = 0;
    this.running = null;
    this.computing = 0;
    if (this.current) this.current.background = [];
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
    this.settleIdle();
  }

  private generationOf(input: AsOfInput): Generation {
    if (this.current?.matches(input)) return this.current;
    if (this.previous?.matches(input)) return this.previous;
    // New data: the old version's days are dropped, its precompute stops.
    if (this.current) {
      this.current.background = [];
      this.current.cache.clear();
    }
    this.previous = this.current;
    this.current = new Generation(++this.versions, input, this.maxBytes);
    return this.current;
  }

  /** Queues every valid day of the current version behind the asked-for days, once. */
  private startPrecompute(gen: Generation, today: string): void {
    if (gen !== this.current || gen.background !== null || this.closed) return;
    gen.background = this.precompute && gen.first ? daysBetween(gen.first, today) : [];
    this.pump();
  }

  private queue(gen: Generation, day: string, urgent = true): Job {
    let resolve!: (r: Result) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<Result>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A precomputed day may fail with no one waiting: that is logged, not an unhandled rejection.
    promise.catch(() => undefined);
    const job: Job = { gen, day, promise, resolve, reject };
    gen.pending.set(day, job);
    if (urgent) this.urgent.push(job);
    return job;
  }

  private hasWork(): boolean {
    return this.urgent.length > 0 || (this.current?.background?.length ?? 0) > 0;
  }

  /** Sends the next day to the worker when it is free: asked-for days first. */
  private pump(): void {
    if (this.running || this.closed) return;
    const job = this.urgent.shift() ?? this.nextBackground();
    if (!job) {
      this.settleIdle();
      return;
    }
    const worker = this.ensureWorker();
    if (this.loaded !== job.gen.version) {
      // The data files are copied to the worker once per version (~10 ms for the shipped data).
      this.post(worker, { type: 'input', version: job.gen.version, input: job.gen.input });
      this.loaded = job.gen.version;
    }
    this.running = job;
    this.computing++;
    this.counts.maxComputing = Math.max(this.counts.maxComputing, this.computing);
    this.post(worker, { type: 'compute', version: job.gen.version, asOf: job.day });
  }

  private nextBackground(): Job | undefined {
    const gen = this.current;
    const days = gen?.background;
    while (gen && days && days.length > 0) {
      if (gen.cache.calculatedSize + gen.lastBytes > this.maxBytes) {
        // Full: the days left are computed when asked for, never by evicting others.
        days.length = 0;
        break;
      }
      const day = days.pop()!;
      if (!gen.cache.has(day) && !gen.pending.has(day)) return this.queue(gen, day, false);
    }
    return undefined;
  }

  private post(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    // No flags of the process: its `--import tsx` does not apply to a worker on node 20 (the boot
    // file registers tsx itself), and some (`--input-type`) stop a worker from starting.
    const worker = new Worker(this.workerUrl, { execArgv: [] });
    // Never what keeps a process alive (close() stops it).
    worker.unref();
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    worker.on('error', (err) => this.onWorkerExit(worker, err));
    worker.on('exit', (code) => this.onWorkerExit(worker, new Error(`worker exited (${code})`)));
    this.counts.workerStarts++;
    this.worker = worker;
    this.loaded = null;
    return worker;
  }

  private onMessage(message: FromWorker): void {
    const job = this.running;
    if (!job || job.day !== message.asOf || job.gen.version !== message.version) {
      this.logger.error('answers of a past day not asked for', { asOf: message.asOf });
      return;
    }
    this.running = null;
    this.computing--;
    job.gen.pending.delete(job.day);
    if (message.type === 'failed') {
      this.logger.error('computing a past day failed', { asOf: job.day, error: message.message });
      job.reject(new Error(`computing ${job.day} failed: ${message.message}`));
    } else {
      this.counts.byThread.set(message.threadId, message.computations);
      this.counts.lowPriority = message.lowPriority;
      const answers = message.answers ? unpackAnswers(job.day, message.answers) : null;
      if (answers && job.gen === this.current) {
        job.gen.lastBytes = keptBytes(answers);
        job.gen.cache.set(job.day, answers);
      }
      job.resolve(answers);
    }
    this.pump();
  }

  /**
   * The worker died (a crash, out of memory, or it could not start): its day fails and the
   * precompute stops (a worker that cannot start is not started again for every day); the next
   * day asked for starts a new one.
   */
  private onWorkerExit(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.loaded = null;
    this.computing = 0;
    if (this.current) this.current.background = [];
    this.logger.error('worker of past days stopped', { error: error.message });
    const job = this.running;
    this.running = null;
    if (job) {
      job.gen.pending.delete(job.day);
      job.reject(error);
    }
    this.pump();
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
