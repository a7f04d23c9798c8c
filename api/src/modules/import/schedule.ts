/**
 * The running API's own imports: with DATA_IMPORT_INTERVAL set (`30s`, `15m`, `6h`, `1d`) it
 * imports at start and then every interval, one import at a time (the next one is scheduled when
 * the previous one has finished, so they never overlap). After a failed run (no feed could be
 * imported, or history.json could not be written) it waits interval x 2, x 4, ... up to
 * max(interval, 6 h), and goes back to the interval after the next good run. A run in which only
 * some feeds failed is not a failed run: the good feeds are current, the failures show in
 * GET /api/health. close() stops the timer and aborts a run in progress.
 */
import type { Logger } from '../../platform/logger.ts';
import type { ImportResult } from './run-import.ts';

export const MAX_BACKOFF_MS = 6 * 3_600_000;

/** Delay before the next run after `failures` failed runs in a row. */
export function nextDelay(intervalMs: number, failures: number): number {
  if (failures === 0) return intervalMs;
  const cap = Math.max(intervalMs, MAX_BACKOFF_MS);
  return Math.min(intervalMs * 2 ** Math.min(failures, 30), cap);
}

/** A run failed when nothing could be imported (every feed failed, or the write did). */
export function runFailed(result: ImportResult): boolean {
  return result.error !== null || (result.feeds.length > 0 && result.feeds.every((f) => !f.ok));
}

export interface ScheduleState {
  intervalMs: number;
  running: boolean;
  consecutiveFailures: number;
  nextRunAt: string | null;
  lastRunAt: string | null;
}

export class ImportSchedule {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private failures = 0;
  private nextAt: number | null = null;
  private lastAt: number | null = null;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    /** One import; null when it was skipped because another process is importing. */
    private readonly run: (signal: AbortSignal) => Promise<ImportResult | null>,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Imports now, then on the schedule. */
  start(): void {
    if (this.stopped || this.timer || this.inFlight) return;
    this.schedule(0);
  }

  state(): ScheduleState {
    return {
      intervalMs: this.intervalMs,
      running: this.inFlight !== null,
      consecutiveFailures: this.failures,
      nextRunAt: this.nextAt === null ? null : new Date(this.nextAt).toISOString(),
      lastRunAt: this.lastAt === null ? null : new Date(this.lastAt).toISOString(),
    };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.nextAt = this.clock() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.nextAt = null;
      this.inFlight = this.tick().finally(() => {
        this.inFlight = null;
      });
    }, delayMs);
    // The schedule alone never keeps a process alive (tests, a server shutting down).
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.abort = new AbortController();
    this.lastAt = this.clock();
    let failed: boolean;
    try {
      const result = await this.run(this.abort.signal);
      failed = result !== null && runFailed(result);
      if (result === null) this.logger.info('scheduled import skipped: another process imports');
      else if (failed)
        this.logger.error('scheduled import failed', {
          error: result.error,
          failedFeeds: result.feeds.filter((f) => !f.ok).map((f) => f.series),
        });
    } catch (err) {
      failed = true;
      this.logger.error('scheduled import failed', { error: (err as Error).message });
    }
    this.abort = null;
    this.failures = failed ? this.failures + 1 : 0;
    const delay = nextDelay(this.intervalMs, this.failures);
    if (this.failures > 0)
      this.logger.warn('next import backs off', { failures: this.failures, delayMs: delay });
    this.schedule(delay);
  }

  /** Stops the schedule; resolves when a run in progress has given up. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.nextAt = null;
    this.abort?.abort();
    await this.inFlight;
  }
}
