/** The lock of scheduled jobs (the scheduled import, the alert evaluation). */

export interface JobLocks {
  /**
   * Runs `fn` unless another holder of lock `name` runs it right now (in any process sharing the
   * store); resolves true when it ran, false when it was skipped. A failure of `fn` rejects.
   */
  withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean>;
}

/**
 * Runs `job` under lock `name` (withExclusiveLock): its result, or null when another holder runs
 * it right now (in any process sharing the store), so this round is skipped and never waits. Used
 * by the scheduled import (api/src/composition/deps.ts) and the alert evaluation (api/src/modules/alerts/evaluate.ts).
 */
export async function runExclusive<T>(
  locks: JobLocks,
  name: string,
  job: () => Promise<T>,
): Promise<T | null> {
  let result: T | null = null;
  await locks.withExclusiveLock(name, async () => {
    result = await job();
  });
  return result;
}
