/**
 * Which pools' histories to backfill: after a /pools import, the top pools by TVL whose history
 * here is shorter than MIN_HISTORY_DAYS; a pool page request queues its own pool the same way.
 */
import type { PoolHistoryDeps } from '../../deps.ts';
import { MIN_HISTORY_DAYS } from './score-from-history.ts';

/** Queues the top `deps.top` pools by TVL that lack history; returns how many were queued. */
export async function queueTopBackfill(
  deps: PoolHistoryDeps,
  pools: readonly { pool: string; tvlUsd: number }[],
): Promise<number> {
  if (deps.top <= 0) return 0;
  const top = [...pools]
    .sort((a, b) => b.tvlUsd - a.tvlUsd || (a.pool < b.pool ? -1 : 1))
    .slice(0, deps.top)
    .map((p) => p.pool);
  const held = await deps.store.trailingOfAll(top, MIN_HISTORY_DAYS);
  let queued = 0;
  for (const pool of top) {
    if ((held.get(pool)?.length ?? 0) >= MIN_HISTORY_DAYS) continue;
    if (deps.backfill.enqueue(pool)) queued++;
  }
  return queued;
}
