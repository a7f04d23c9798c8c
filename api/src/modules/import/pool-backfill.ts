/**
 * Backfills pools' histories from DeFiLlama's `GET /chart/<pool>` into the pool history store,
 * within DeFiLlama's rate limits:
 *
 * - at most `concurrency` requests at once;
 * - at most `requestsPerMinute` requests in any 60 s (retries count);
 * - an HTTP 429 or 5xx is retried up to `maxRetries` times, after its Retry-After when it sends
 *   one, else after `backoffMs` · 2^attempt;
 * - a pool is queued once: asking again while it waits or runs does nothing;
 * - a pool fetched or tried in the last 24 hours (whatever the result) is not queued
 *   (backfill-tries.ts, kept on disk across restarts).
 *
 * With DATABASE_URL the store, the 24-hour memory and the budget are in PostgreSQL
 * (pg-pool-history.ts, pg-backfill.ts): the budget then counts the requests of every process
 * together, a pool tried by one process is not fetched by another within 24 hours, and each fetch
 * first claims its pool there, so a pool queued on several processes is fetched by one.
 *
 * Two queues: `top` (the top pools by TVL of each /pools snapshot, pool-history-queue.ts) and
 * `page` (pools whose page a saver opened, GET /api/scanner/pools/{pool}/history), which holds at
 * most `pageQueueMax` pools. The pool of each request is chosen when the budget lets it leave, top
 * first: a page-view pool is fetched only while no top pool waits. docs/api.md ("Pool histories")
 * lists the settings.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { chartToDays, PoolHistoryStore, type PoolHistory } from './pool-history.ts';
import { FileBackfillTries, type BackfillTries } from './backfill-tries.ts';
import type { BackfillBudget } from './pg-backfill.ts';
import { silentLogger, type Logger } from '../../platform/logger.ts';

/** The pools' history store, its backfill queues and how many top pools it backfills. */
export interface PoolHistoryDeps {
  store: PoolHistory;
  backfill: PoolBackfill;
  /** Pools by TVL backfilled after each real /pools snapshot loads (POOL_BACKFILL_TOP). */
  top: number;
  /** Page-view pools one client may queue per CLIENT_WINDOW_MS (POOL_BACKFILL_CLIENT_MAX). */
  clientMax: number;
}

/** The window of the per-client limit of page-view backfills. */
export const CLIENT_WINDOW_MS = 60 * 60 * 1000;

/** The time of the budget, the retries' waits and the 24-hour memory (a test moves it by hand). */
export interface BackfillClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const REAL_CLOCK: BackfillClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
};

export type BackfillQueue = 'top' | 'page';

/**
 * What `enqueue` did: `queued` (added now), `waiting` (already queued or being fetched),
 * `recent` (fetched or tried in the last 24 hours), `full` (the page-view queue is at its cap),
 * `limited` (the caller's gate said no), `stopped` (the server is stopping).
 */
export type EnqueueResult = 'queued' | 'waiting' | 'recent' | 'full' | 'limited' | 'stopped';

export interface BackfillOptions {
  /** DeFiLlama's yields API, e.g. https://yields.llama.fi. */
  apiUrl: string;
  concurrency?: number;
  requestsPerMinute?: number;
  maxRetries?: number;
  backoffMs?: number;
  timeoutMs?: number;
  /** Page-view pools waiting at most (POOL_BACKFILL_QUEUE_MAX). */
  pageQueueMax?: number;
  userAgent?: string;
  logger?: Logger;
  clock?: BackfillClock;
  /** Default: the file in the store's directory (required with another store). */
  tries?: BackfillTries;
  /** The budget shared with other processes (PostgreSQL); default: counted in this process. */
  budget?: BackfillBudget;
}

/** Pause before asking a database that did not answer for budget again. */
const SHARED_BUDGET_RETRY_MS = 5_000;

export const BACKFILL_DEFAULTS = {
  concurrency: 2,
  requestsPerMinute: 30,
  maxRetries: 4,
  backoffMs: 2_000,
  timeoutMs: 30_000,
  pageQueueMax: 200,
} as const;

export interface BackfillOutcome {
  pool: string;
  ok: boolean;
  added: number;
  reason?: string;
}

export class PoolBackfill {
  private readonly queues: Record<BackfillQueue, string[]> = { top: [], page: [] };
  /** Pools waiting or being fetched. */
  private readonly known = new Set<string>();
  /** Worker loops alive (each waits for the budget, then fetches one pool at a time). */
  private workers = 0;
  /** Workers fetching a pool. */
  private running = 0;
  private readonly sent: number[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private readonly opts: Required<Omit<BackfillOptions, 'tries' | 'budget'>>;
  private readonly budget: BackfillBudget | null;
  private readonly listeners: ((pool: string, added: number) => void)[] = [];
  private stopped = false;
  private readonly abort = new AbortController();
  readonly tries: BackfillTries;
  /** Requests sent (retries included), for the operators' log and the tests. */
  requests = 0;
  readonly outcomes: BackfillOutcome[] = [];

  constructor(
    private readonly store: PoolHistory,
    options: BackfillOptions,
  ) {
    this.opts = {
      concurrency: options.concurrency ?? BACKFILL_DEFAULTS.concurrency,
      requestsPerMinute: options.requestsPerMinute ?? BACKFILL_DEFAULTS.requestsPerMinute,
      maxRetries: options.maxRetries ?? BACKFILL_DEFAULTS.maxRetries,
      backoffMs: options.backoffMs ?? BACKFILL_DEFAULTS.backoffMs,
      timeoutMs: options.timeoutMs ?? BACKFILL_DEFAULTS.timeoutMs,
      pageQueueMax: options.pageQueueMax ?? BACKFILL_DEFAULTS.pageQueueMax,
      userAgent: options.userAgent ?? 'pigi-yield-importer/1.0',
      logger: options.logger ?? silentLogger,
      clock: options.clock ?? REAL_CLOCK,
      apiUrl: options.apiUrl,
    };
    this.budget = options.budget ?? null;
    if (options.tries) this.tries = options.tries;
    else if (store instanceof PoolHistoryStore)
      this.tries = new FileBackfillTries(store.dir, this.opts.clock.now);
    else throw new Error('a backfill of a store other than the files needs its tries');
  }

  /** Called after a pool's history gained days (the scanner re-reads that pool's trailing days). */
  onBackfilled(listener: (pool: string, added: number) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Queues a pool in `queue` unless it waits or runs already, was tried in the last 24 hours, or
   * (page views) the page-view queue is full. `gate` is asked last, just before the pool would be
   * queued (a per-client limit): false leaves it out. A top pool waiting as a page view moves to
   * the top queue.
   */
  async enqueue(
    pool: string,
    queue: BackfillQueue = 'top',
    gate?: () => Promise<boolean>,
  ): Promise<EnqueueResult> {
    const key = pool.toLowerCase();
    const now = this.admission(key, queue);
    if (now) return now;
    if (await this.tries.recentlyTried(key)) return 'recent';
    if (gate) {
      const after = this.admission(key, queue);
      if (after) return after;
      if (!(await gate())) return 'limited';
    }
    const last = this.admission(key, queue);
    if (last) return last;
    this.known.add(key);
    this.queues[queue].push(key);
    this.pump();
    return 'queued';
  }

  /** Why the pool cannot be queued now, or null when it can. */
  private admission(key: string, queue: BackfillQueue): EnqueueResult | null {
    if (this.stopped) return 'stopped';
    if (this.known.has(key)) {
      const at = queue === 'top' ? this.queues.page.indexOf(key) : -1;
      if (at >= 0) this.queues.top.push(...this.queues.page.splice(at, 1));
      return 'waiting';
    }
    if (queue === 'page' && this.queues.page.length >= this.opts.pageQueueMax) return 'full';
    return null;
  }

  /** Pools waiting in a queue (not yet being fetched). */
  waiting(queue: BackfillQueue): number {
    return this.queues[queue].length;
  }

  get size(): number {
    return this.queues.top.length + this.queues.page.length + this.running;
  }

  /** Resolves once nothing waits or runs. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what waits and ends what runs (waits for the budget or a retry, requests). */
  stop(): void {
    this.stopped = true;
    this.abort.abort();
    for (const queue of Object.values(this.queues))
      for (const pool of queue.splice(0)) this.known.delete(pool);
    this.settle();
  }

  private settle() {
    if (this.size === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Starts workers while fewer wait for the budget than pools wait for them. */
  private pump() {
    const pending = this.queues.top.length + this.queues.page.length;
    while (this.workers < this.opts.concurrency && this.workers - this.running < pending) {
      this.workers++;
      void this.work().finally(() => {
        this.workers--;
        this.settle();
      });
    }
  }

  /** The next pool to fetch, top pools first; counts it as running. */
  private take(): string | undefined {
    const pool = this.queues.top.shift() ?? this.queues.page.shift();
    if (pool !== undefined) this.running++;
    return pool;
  }

  private async work(): Promise<void> {
    for (;;) {
      let granted: { pool: string; at: number } | undefined;
      try {
        granted = await this.slot((at) => {
          const pool = this.take();
          return pool === undefined ? undefined : { pool, at };
        });
      } catch {
        return; // stopped while waiting for the budget
      }
      if (granted === undefined) return;
      const { pool } = granted;
      try {
        if (await this.claim(pool, granted.at)) await this.run(pool, granted.at);
      } finally {
        this.running--;
        this.known.delete(pool);
        this.settle();
      }
    }
  }

  /**
   * Waits until one more request fits in the last 60 s, then calls `take` in the same tick and,
   * when it gives something, counts the request: the pool of a request is chosen when it leaves.
   */
  private async slot<T>(take: (at: number) => T | undefined): Promise<T | undefined> {
    if (this.budget) return this.sharedSlot(this.budget, take);
    for (;;) {
      const now = this.opts.clock.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - 60_000) this.sent.shift();
      if (this.sent.length < this.opts.requestsPerMinute) {
        const taken = take(now);
        if (taken !== undefined) {
          this.sent.push(now);
          this.requests++;
        }
        return taken;
      }
      await this.opts.clock.sleep(this.sent[0]! + 60_000 - now + 1, this.abort.signal);
    }
  }

  /**
   * `slot` with the budget shared by every process: a request is counted in the database first,
   * then `take` chooses its pool; a count left unused (nothing to take any more) is given back.
   * A database that cannot be reached is asked again after a pause (nothing is sent meanwhile).
   */
  private async sharedSlot<T>(
    budget: BackfillBudget,
    take: (at: number) => T | undefined,
  ): Promise<T | undefined> {
    for (;;) {
      if (this.stopped) throw new Error('stopped');
      const now = this.opts.clock.now();
      let wait: number;
      try {
        wait = await budget.take(now, this.opts.requestsPerMinute);
      } catch (err) {
        this.opts.logger.warn('pool history backfill budget unavailable, waiting', {
          error: (err as Error).message,
        });
        wait = SHARED_BUDGET_RETRY_MS;
      }
      if (wait === 0) {
        const taken = this.stopped ? undefined : take(now);
        if (taken === undefined) await budget.giveBack(now).catch(() => undefined);
        else this.requests++;
        return taken;
      }
      // Until the moment the answer named: the clock moved while the database answered.
      const left = now + wait - this.opts.clock.now();
      if (left > 0) await this.opts.clock.sleep(left, this.abort.signal);
    }
  }

  /**
   * With a memory shared by several processes (`claim`), takes the pool for this fetch unless
   * another process fetched or tried it in the last 24 hours (it was queued here before that try
   * was recorded): then nothing is sent, and the request counted at `at` is given back.
   */
  private async claim(pool: string, at: number): Promise<boolean> {
    if (!this.tries.claim) return true;
    let mine = false;
    try {
      mine = await this.tries.claim(pool, new Date(at));
    } catch (err) {
      this.opts.logger.warn('pool history backfill not claimed', {
        pool,
        error: (err as Error).message,
      });
    }
    if (mine) return true;
    this.requests--;
    await this.budget?.giveBack(at).catch(() => undefined);
    this.opts.logger.info('pool history backfill left to another process', { pool });
    return false;
  }

  private async run(pool: string, claimedAt: number): Promise<void> {
    const url = `${this.opts.apiUrl.replace(/\/+$/, '')}/chart/${encodeURIComponent(pool)}`;
    let outcome: BackfillOutcome;
    try {
      const body = await this.fetchWithRetry(url);
      const added = await this.store.mergeRows(pool, chartToDays(body));
      outcome = { pool, ok: true, added };
      this.opts.logger.info('pool history backfilled', { pool, added });
      if (added > 0) for (const listener of this.listeners) listener(pool, added);
    } catch (err) {
      outcome = { pool, ok: false, added: 0, reason: (err as Error).message };
      this.opts.logger.warn('pool history backfill failed', { pool, reason: outcome.reason });
    }
    this.outcomes.push(outcome);
    if (this.outcomes.length > 1000) this.outcomes.splice(0, this.outcomes.length - 1000);
    // A fetch cut short by the server stopping was not a try.
    if (this.stopped) {
      await this.tries.unclaim?.(pool, new Date(claimedAt)).catch(() => undefined);
      return;
    }
    await this.tries
      .markTried(pool, new Date(this.opts.clock.now()), outcome.ok)
      .catch((err: unknown) =>
        this.opts.logger.warn('pool history backfill try not recorded', {
          pool,
          error: (err as Error).message,
        }),
      );
  }

  /** The first attempt's request was counted when its pool was taken. */
  private async fetchWithRetry(url: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await this.slot(() => true);
      const res = await fetch(url, {
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.opts.timeoutMs)]),
        headers: { 'User-Agent': this.opts.userAgent, Accept: 'application/json' },
      });
      if (res.ok) return res.json();
      await res.body?.cancel().catch(() => undefined);
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= this.opts.maxRetries) throw new Error(`HTTP ${res.status}`);
      const after = Number(res.headers.get('retry-after'));
      const wait =
        Number.isFinite(after) && after > 0 ? after * 1000 : this.opts.backoffMs * 2 ** attempt;
      await this.opts.clock.sleep(Math.min(wait, 10 * 60_000), this.abort.signal);
    }
  }
}
