/**
 * Which pools' histories the server backfills from DeFiLlama's /chart: after each /pools
 * snapshot it loads (a scheduled import, `data:import`, a restart), the top POOL_BACKFILL_TOP
 * pools by TVL whose history here is shorter than MIN_HISTORY_DAYS. A pool page request queues
 * its own pool the same way (route.ts).
 */
import type { PoolHistoryDeps } from './pool-backfill.ts';
import { MIN_HISTORY_DAYS } from './score-from-history.ts';

/** Queues the top `deps.top` pools by TVL that lack history; returns how many were queued. */
export function queueTopBackfill(
  deps: PoolHistoryDeps,
  pools: readonly { pool: string; tvlUsd: number }[],
  daysHeld: (pool: string) => number,
): number {
  if (deps.top <= 0) return 0;
  const top = [...pools]
    .sort((a, b) => b.tvlUsd - a.tvlUsd || (a.pool < b.pool ? -1 : 1))
    .slice(0, deps.top);
  let queued = 0;
  for (const { pool } of top) {
    if (daysHeld(pool) >= MIN_HISTORY_DAYS) continue;
    if (deps.backfill.enqueue(pool)) queued++;
  }
  return queued;
}
