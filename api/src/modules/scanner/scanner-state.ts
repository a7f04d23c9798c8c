/**
 * The scanner's current index, one per AppDeps: built when the app is created and rebuilt when
 * pools.json, project-tiers.json or sources.json is accepted (store.onChange). A file the store
 * refuses changes nothing here (the store keeps its last good data), and a rebuild that throws
 * keeps the previous index.
 */
import type { AppDeps } from '../../deps.ts';
import { ENVIRONMENT } from '../../platform/config.ts';
import { PoolBackfill, type PoolHistoryDeps } from './pool-backfill.ts';
import { PoolHistoryStore, utcDay, type PoolDay } from './pool-history.ts';
import { TRAILING_DAYS } from './score-from-history.ts';
import { queueTopBackfill } from './pool-history-queue.ts';
import type { DataFiles } from '../../composition/data-files.ts';
import { buildPoolIndex, type PoolIndex } from './pool-index.ts';
import { projectSafetyTable } from './project-safety.ts';

export const SCANNER_FILES: (keyof DataFiles)[] = ['pools', 'projectTiers', 'sources'];

export interface ScannerState {
  /** The index queries use, or null while a needed file never loaded. */
  index(): PoolIndex | null;
  /** Why there is no index (for the 503). */
  unavailableReason(): string;
  /** The pools' daily history store and backfill queue. */
  history: PoolHistoryDeps;
  /**
   * Resolves once the index includes the trailing histories read after the last rebuild (the
   * index is first built without them, then again once they are read).
   */
  settled(): Promise<void>;
}

const states = new WeakMap<AppDeps, ScannerState>();

export function scannerState(deps: AppDeps): ScannerState {
  const existing = states.get(deps);
  if (existing) return existing;

  let index: PoolIndex | null = null;
  let reason = 'the scanner has not been built yet';
  const history: PoolHistoryDeps = deps.poolHistory ?? fallbackHistory(deps);
  /** Each pool's trailing days, as last read from the history store. */
  let trailing = new Map<string, PoolDay[]>();
  let loading: Promise<void> = Promise.resolve();
  let generation = 0;

  /** Reads the trailing histories of the snapshot's pools, then rebuilds with them. */
  const loadHistories = () => {
    const pools = deps.store.get('pools');
    if (!pools) return;
    const mine = ++generation;
    const until = pools.asOf ? utcDay(pools.asOf) : undefined;
    const started = performance.now();
    loading = history.store
      .trailingOfAll(
        pools.data.map((p) => p.pool),
        TRAILING_DAYS,
        until,
      )
      .then((read) => {
        if (mine !== generation) return;
        trailing = read;
        deps.logger.info('pool histories read', {
          pools: read.size,
          ms: Math.round(performance.now() - started),
        });
        build();
        // Real snapshots only: the sample's pool ids are invented.
        if (!pools.sample) {
          const queued = queueTopBackfill(
            history,
            pools.data,
            (pool) => read.get(pool)?.length ?? 0,
          );
          if (queued > 0) deps.logger.info('pool history backfill queued', { pools: queued });
        }
      })
      .catch((err: unknown) => {
        deps.logger.error('reading the pool histories failed, keeping the previous ones', {
          error: (err as Error).message,
        });
      });
  };

  const rebuild = () => {
    build();
    loadHistories();
  };

  const build = () => {
    const pools = deps.store.get('pools');
    const tiers = deps.store.get('projectTiers');
    const sources = deps.store.get('sources');
    if (!pools || !tiers || !sources) {
      const missing = !pools ? 'pools.json' : !tiers ? 'project-tiers.json' : 'sources.json';
      reason = `${missing} has not loaded (see GET /api/health)`;
      return;
    }
    try {
      const started = performance.now();
      const safety = projectSafetyTable(tiers, sources, pools.asOf?.slice(0, 10) ?? null);
      for (const u of safety.unknownSources) {
        deps.logger.warn('project tier names an unknown source, charged as unlisted', {
          file: 'project-tiers.json',
          ...u,
        });
      }
      index = buildPoolIndex(pools, safety.of, (pool) => trailing.get(pool));
      deps.logger.info('scanner index built', {
        pools: index.size,
        asOf: index.asOf,
        ms: Math.round(performance.now() - started),
      });
    } catch (err) {
      deps.logger.error('building the scanner index failed, keeping the previous one', {
        error: (err as Error).message,
      });
    }
  };

  rebuild();
  deps.store.onChange((changed) => {
    if (changed.some((k) => SCANNER_FILES.includes(k))) rebuild();
  });

  let refreshTimer: NodeJS.Timeout | null = null;
  history.backfill.onBackfilled(() => {
    // Several pools are backfilled in a row: read the histories once they pause.
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      loadHistories();
    }, 2_000);
    refreshTimer.unref();
  });

  const state: ScannerState = {
    index: () => index,
    unavailableReason: () => reason,
    history,
    settled: async () => {
      let seen: Promise<void>;
      do {
        seen = loading;
        await seen;
      } while (seen !== loading);
    },
  };
  states.set(deps, state);
  return state;
}

/** The history store of the data directory, with a backfill queue at the default settings. */
function fallbackHistory(deps: AppDeps): PoolHistoryDeps {
  const store = new PoolHistoryStore(deps.store.dir);
  return {
    store,
    backfill: new PoolBackfill(store, {
      apiUrl: ENVIRONMENT.DEFILLAMA_API_URL.default,
      logger: deps.logger,
    }),
    top: ENVIRONMENT.POOL_BACKFILL_TOP.default,
  };
}
