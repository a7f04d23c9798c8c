/**
 * Backfills pools' histories from DeFiLlama's `GET /chart/<pool>` into the pool history store,
 * within DeFiLlama's rate limits:
 *
 * - at most `concurrency` requests at once;
 * - at most `requestsPerMinute` requests in any 60 s (retries count);
 * - an HTTP 429 or 5xx is retried up to `maxRetries` times, after its Retry-After when it sends
 *   one, else after `backoffMs` · 2^attempt;
 * - a pool is queued once: asking again while it waits or runs does nothing.
 *
 * Queued by a `/pools` import (the top pools by TVL whose history is short) and by a pool page
 * request (GET /api/scanner/pools/{pool}/history). docs/api.md ("Pool histories") lists the
 * settings.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { chartToDays, type PoolHistoryStore } from './pool-history.ts';
import { silentLogger, type Logger } from '../../platform/logger.ts';

/** The pools' history store, its backfill queue and how many top pools it backfills. */
export interface PoolHistoryDeps {
  store: PoolHistoryStore;
  backfill: PoolBackfill;
  /** Pools by TVL backfilled after each real /pools snapshot loads (POOL_BACKFILL_TOP). */
  top: number;
}

export interface BackfillOptions {
  /** DeFiLlama's yields API, e.g. https://yields.llama.fi. */
  apiUrl: string;
  concurrency?: number;
  requestsPerMinute?: number;
  maxRetries?: number;
  backoffMs?: number;
  timeoutMs?: number;
  userAgent?: string;
  logger?: Logger;
}

export const BACKFILL_DEFAULTS = {
  concurrency: 2,
  requestsPerMinute: 30,
  maxRetries: 4,
  backoffMs: 2_000,
  timeoutMs: 30_000,
} as const;

export interface BackfillOutcome {
  pool: string;
  ok: boolean;
  added: number;
  reason?: string;
}

export class PoolBackfill {
  private readonly pending: string[] = [];
  private readonly known = new Set<string>();
  private running = 0;
  private readonly sent: number[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private readonly opts: Required<BackfillOptions>;
  private readonly listeners: ((pool: string, added: number) => void)[] = [];
  private stopped = false;
  private readonly abort = new AbortController();
  /** Requests sent (retries included), for the operators' log and the tests. */
  requests = 0;
  readonly outcomes: BackfillOutcome[] = [];

  constructor(
    private readonly store: PoolHistoryStore,
    options: BackfillOptions,
  ) {
    this.opts = {
      concurrency: options.concurrency ?? BACKFILL_DEFAULTS.concurrency,
      requestsPerMinute: options.requestsPerMinute ?? BACKFILL_DEFAULTS.requestsPerMinute,
      maxRetries: options.maxRetries ?? BACKFILL_DEFAULTS.maxRetries,
      backoffMs: options.backoffMs ?? BACKFILL_DEFAULTS.backoffMs,
      timeoutMs: options.timeoutMs ?? BACKFILL_DEFAULTS.timeoutMs,
      userAgent: options.userAgent ?? 'pigi-yield-importer/1.0',
      logger: options.logger ?? silentLogger,
      apiUrl: options.apiUrl,
    };
  }

  /** Called after a pool's history gained days (the scanner re-reads the trailing histories). */
  onBackfilled(listener: (pool: string, added: number) => void): void {
    this.listeners.push(listener);
  }

  /** Queues a pool; false when it is already waiting or running (or the queue was stopped). */
  enqueue(pool: string): boolean {
    const key = pool.toLowerCase();
    if (this.stopped || this.known.has(key)) return false;
    this.known.add(key);
    this.pending.push(key);
    this.pump();
    return true;
  }

  isQueued(pool: string): boolean {
    return this.known.has(pool.toLowerCase());
  }

  get size(): number {
    return this.pending.length + this.running;
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
    for (const pool of this.pending.splice(0)) this.known.delete(pool);
    this.settle();
  }

  private settle() {
    if (this.size === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private pump() {
    while (this.running < this.opts.concurrency && this.pending.length > 0) {
      const pool = this.pending.shift()!;
      this.running++;
      void this.run(pool).finally(() => {
        this.running--;
        this.known.delete(pool);
        this.pump();
        this.settle();
      });
    }
  }

  /** Waits until one more request fits in the last 60 s, then counts it. */
  private async budget(): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - 60_000) this.sent.shift();
      if (this.sent.length < this.opts.requestsPerMinute) {
        this.sent.push(now);
        this.requests++;
        return;
      }
      await sleep(this.sent[0]! + 60_000 - now + 1, undefined, { signal: this.abort.signal });
    }
  }

  private async run(pool: string): Promise<void> {
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
  }

  private async fetchWithRetry(url: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      await this.budget();
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
      await sleep(Math.min(wait, 10 * 60_000), undefined, { signal: this.abort.signal });
    }
  }
}
