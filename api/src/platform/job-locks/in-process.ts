/** The lock of scheduled jobs for the file store: one process owns the files, so an in-process mutex. */
import type { JobLocks } from './port.ts';

export class InProcessJobLocks implements JobLocks {
  /** Names of the jobs running in this process. */
  private readonly running = new Set<string>();

  async withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean> {
    if (this.running.has(name)) return false;
    this.running.add(name);
    try {
      await fn();
      return true;
    } finally {
      this.running.delete(name);
    }
  }
}
