/** A BackfillClock the tests move by hand (no test waits for a minute to pass). */
import type { BackfillClock } from '../src/modules/import/pool-backfill.ts';

/** The backfill's time, moved by the test: a sleep ends once the clock has passed its end. */
export class TestClock implements BackfillClock {
  private t = Date.parse('2026-11-25T21:00:00Z');
  private sleepers: { at: number; wake: () => void }[] = [];
  now = () => this.t;
  sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const sleeper = { at: this.t + ms, wake: resolve };
      this.sleepers.push(sleeper);
      signal.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason as Error);
        },
        { once: true },
      );
    });
  advance(ms: number): void {
    this.t += ms;
    const due = this.sleepers.filter((s) => s.at <= this.t);
    this.sleepers = this.sleepers.filter((s) => s.at > this.t);
    for (const s of due) s.wake();
  }
  /** Sleeps under way (a worker waiting for its budget). */
  get sleeping(): number {
    return this.sleepers.length;
  }
}
