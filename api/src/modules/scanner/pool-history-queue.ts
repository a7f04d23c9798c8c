/**
 * Which pools' histories the server backfills from DeFiLlama's /chart: after each /pools
 * snapshot it loads (a scheduled import, `data:import`, a restart), the top POOL_BACKFILL_TOP
 * pools by TVL whose history here is shorter than MIN_HISTORY_DAYS, in the backfill's top queue
 * (served before any page view). A pool page request queues its own pool in the page-view queue
 * (route.ts).
 */
import type { PoolHistoryDeps } from '../import/index.ts';
import { MIN_HISTORY_DAYS } from './score-from-history.ts';

/** Queues the top `deps.top` pools by TVL that lack history; resolves to how many were queued. */
export async function queueTopBackfill(
  deps: PoolHistoryDeps,
  pools: readonly { pool: string; tvlUsd: number }[],
  daysHeld: (pool: string) => number,
): Promise<number> {
  if (deps.top <= 0) return 0;
  const top = [...pools]
    .sort((a, b) => b.tvlUsd - a.tvlUsd || (a.pool < b.pool ? -1 : 1))
    .slice(0, deps.top);
  // All at once: the pools join the queue in TVL order, in one go (no request leaves between).
  const results = await Promise.all(
    top
      .filter(({ pool }) => daysHeld(pool) < MIN_HISTORY_DAYS)
      .map(({ pool }) => deps.backfill.enqueue(pool, 'top')),
  );
  return results.filter((r) => r === 'queued').length;
}
