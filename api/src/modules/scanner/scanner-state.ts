/**
 * The scanner's current index, one per process: built by the composition root (createDeps) and rebuilt when
 * pools.json, project-tiers.json or sources.json is accepted (store.onChange). A file the store
 * refuses changes nothing here (the store keeps its last good data), and a rebuild that throws
 * keeps the previous index.
 *
 * Each snapshot load reads every pool's trailing days once (a full reload, counted). A backfill
 * reloads nothing whole: the pools backfilled until the next refresh (REFRESH_MIN_MS) are re-read
 * alone into the trailing days, then the index is rebuilt once.
 */
import type { Logger } from '../../platform/logger.ts';
import type { FileReader } from '../../platform/files/data-store.ts';
import type { PoolHistoryDeps } from '../import/index.ts';
import { utcDay, type PoolDay } from '../import/index.ts';
import { TRAILING_DAYS } from './score-from-history.ts';
import { queueTopBackfill } from './pool-history-queue.ts';
import { buildPoolIndex, type PoolIndex } from './pool-index.ts';
import { projectSafetyTable } from './project-safety.ts';
import type { PoolsFile } from '../import/index.ts';
import type { ProjectTiersFile } from './schemas.ts';
import type { SourcesFile } from '../yields/index.ts';

export const SCANNER_FILES: readonly string[] = ['pools', 'projectTiers', 'sources'];

/** The files the scanner reads, and how it hears that one was accepted. */
export type ScannerFiles = FileReader<'pools', PoolsFile> &
  FileReader<'projectTiers', ProjectTiersFile> &
  FileReader<'sources', SourcesFile> & {
    onChange(listener: (changed: string[]) => void): () => void;
  };

/** What the scanner's state takes: its files, the pools' histories and their backfill, a log. */
export interface ScannerStateDeps {
  store: ScannerFiles;
  poolHistory: PoolHistoryDeps;
  logger: Logger;
}

export interface ScannerState {
  /** The index queries use, or null while a needed file never loaded. */
  index(): PoolIndex | null;
  /** Why there is no index (for the 503). */
  unavailableReason(): string;
  /** The pools' daily history store and backfill queue. */
  history: PoolHistoryDeps;
  /**
   * Resolves once the index includes the trailing histories read after the last rebuild (the
   * index is first built without them, then again once they are read) and those of the pools
   * backfilled so far (a refresh waiting for its interval runs now).
   */
  settled(): Promise<void>;
  /** Reads of every pool's trailing days so far (one per snapshot load, never per backfill). */
  fullReloads(): number;
  /**
   * Changes (a new object) when an input of the scanner's track record changes: pools.json,
   * project-tiers.json or sources.json, or the history of a pool it reads (a non-outlier pool of
   * the snapshot) gaining days from a backfill (top-pools-answer.ts).
   */
  trackInputs(): object;
}

/**
 * Backfilled pools are re-read together, then the index rebuilt once: REFRESH_MIN_MS after the
 * first of them at least, and REFRESH_COST_FACTOR times the last build's duration (1.3-1.9 s at
 * 20,000 pools, a few ms for the 400-pool sample), so that rebuilds after backfills take at most
 * 1/20 of the server's time however large the snapshot.
 */
export const REFRESH_MIN_MS = 2_000;
export const REFRESH_COST_FACTOR = 20;

/** The scanner's state over `deps`: its index is built now, then on every accepted change. */
export function createScannerState(deps: ScannerStateDeps): ScannerState {
  return new LiveScannerState(deps);
}

/** A snapshot pool: its id as the snapshot spells it, and whether the track record reads it. */
interface SnapshotPool {
  pool: string;
  tracked: boolean;
}

class LiveScannerState implements ScannerState {
  readonly history: PoolHistoryDeps;
  private current: PoolIndex | null = null;
  private reason = 'the scanner has not been built yet';
  /** Each pool's trailing days, as last read from the history store. */
  private trailing = new Map<string, PoolDay[]>();
  private loading: Promise<void> = Promise.resolve();
  private generation = 0;
  private reloads = 0;
  private inputs = {};
  /** The snapshot's pools by lower-case id. */
  private snapshotPools = new Map<string, SnapshotPool>();
  /** Pools backfilled since the last refresh (snapshot ids). */
  private readonly backfilled = new Set<string>();
  private refreshTimer: NodeJS.Timeout | null = null;
  /** Milliseconds the last index build took. */
  private lastBuildMs = 0;

  constructor(private readonly deps: ScannerStateDeps) {
    this.history = deps.poolHistory;
    this.rebuild();
    deps.store.onChange((changed) => {
      if (changed.some((k) => SCANNER_FILES.includes(k))) this.rebuild();
    });
    this.history.backfill.onBackfilled((pool) => this.backfilledOne(pool));
  }

  index(): PoolIndex | null {
    return this.current;
  }

  unavailableReason(): string {
    return this.reason;
  }

  fullReloads(): number {
    return this.reloads;
  }

  trackInputs(): object {
    return this.inputs;
  }

  async settled(): Promise<void> {
    if (this.refreshTimer) this.refreshNow();
    let seen: Promise<void>;
    do {
      seen = this.loading;
      await seen;
    } while (seen !== this.loading);
  }

  /** A scanner file changed: build now, then again with the trailing histories once read. */
  private rebuild(): void {
    const pools = this.deps.store.get('pools');
    this.snapshotPools = new Map(
      (pools?.data ?? []).map((p) => [p.pool.toLowerCase(), { pool: p.pool, tracked: !p.outlier }]),
    );
    this.inputs = {};
    this.build();
    this.loadHistories();
  }

  /** Reads the trailing histories of every pool of the snapshot, then rebuilds with them. */
  private loadHistories(): void {
    const pools = this.deps.store.get('pools');
    if (!pools) return;
    const mine = ++this.generation;
    this.reloads++;
    const until = pools.asOf ? utcDay(pools.asOf) : undefined;
    const started = performance.now();
    const task = this.history.store
      .trailingOfAll(
        pools.data.map((p) => p.pool),
        TRAILING_DAYS,
        until,
      )
      .then(async (read) => {
        if (mine !== this.generation) return;
        this.trailing = read;
        this.deps.logger.info('pool histories read', {
          pools: read.size,
          ms: Math.round(performance.now() - started),
        });
        this.build();
        // Real snapshots only: the sample's pool ids are invented.
        if (pools.sample) return;
        const queued = await queueTopBackfill(
          this.history,
          pools.data,
          (pool) => read.get(pool)?.length ?? 0,
        );
        if (queued > 0) this.deps.logger.info('pool history backfill queued', { pools: queued });
      })
      .catch((err: unknown) => this.readFailed(err));
    // Not behind the previous read (a newer snapshot wins), but settled() waits for both.
    this.loading = Promise.all([this.loading, task]).then(() => undefined);
  }

  /**
   * A pool's history gained days. A pool of the snapshot is re-read with the others backfilled
   * before the refresh (one refresh, never postponed by later ones); one the track record reads
   * changes its inputs. A pool outside the snapshot is in neither.
   */
  private backfilledOne(pool: string): void {
    const known = this.snapshotPools.get(pool.toLowerCase());
    if (!known) return;
    if (known.tracked) this.inputs = {};
    this.backfilled.add(known.pool);
    if (this.refreshTimer) return;
    const wait = Math.max(REFRESH_MIN_MS, REFRESH_COST_FACTOR * this.lastBuildMs);
    this.refreshTimer = setTimeout(() => this.refreshNow(), wait);
    this.refreshTimer.unref();
  }

  /** Re-reads the trailing days of the pools backfilled since, then rebuilds the index once. */
  private refreshNow(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    this.loading = this.loading
      .then(async () => {
        const pools = this.deps.store.get('pools');
        const ids = [...this.backfilled];
        this.backfilled.clear();
        if (!pools || ids.length === 0) return;
        const until = pools.asOf ? utcDay(pools.asOf) : undefined;
        const read = await this.history.store.trailingOfAll(ids, TRAILING_DAYS, until);
        for (const pool of ids) {
          const rows = read.get(pool);
          if (rows) this.trailing.set(pool, rows);
        }
        this.build();
      })
      .catch((err: unknown) => this.readFailed(err));
  }

  private readFailed(err: unknown): void {
    this.deps.logger.error('reading the pool histories failed, keeping the previous ones', {
      error: (err as Error).message,
    });
  }

  private build(): void {
    const { store, logger } = this.deps;
    const pools = store.get('pools');
    const tiers = store.get('projectTiers');
    const sources = store.get('sources');
    if (!pools || !tiers || !sources) {
      const missing = !pools ? 'pools.json' : !tiers ? 'project-tiers.json' : 'sources.json';
      this.reason = `${missing} has not loaded (see GET /api/health)`;
      return;
    }
    try {
      const started = performance.now();
      const safety = projectSafetyTable(tiers, sources, pools.asOf?.slice(0, 10) ?? null);
      for (const u of safety.unknownSources) {
        logger.warn('project tier names an unknown source, charged as unlisted', {
          file: 'project-tiers.json',
          ...u,
        });
      }
      this.current = buildPoolIndex(pools, safety.of, (pool) => this.trailing.get(pool));
      this.lastBuildMs = performance.now() - started;
      logger.info('scanner index built', {
        pools: this.current.size,
        asOf: this.current.asOf,
        ms: Math.round(this.lastBuildMs),
      });
    } catch (err) {
      logger.error('building the scanner index failed, keeping the previous one', {
        error: (err as Error).message,
      });
    }
  }
}
