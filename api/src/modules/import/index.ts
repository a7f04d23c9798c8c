/** The import module's public entry: the run of an import, its schedule and its status file; the /pools import, pools.json and every pool's daily history with its backfill, which the scanner reads. */
export * from './schemas.ts';
export * from './schedule.ts';
export * from './run-import.ts';
export * from './pools-file.ts';
export {
  formatPoolsFile,
  importPoolsSnapshot,
  MAX_DROPPED_SHARE,
  MAX_NAMED_LEFT_OUT,
  POOLS_SOURCE_URL,
  PoolsImportError,
  preparePoolsSnapshot,
  type PoolsImportReport,
  type PrepareOptions,
} from './import-pools.ts';
export * from './pool-backfill.ts';
export * from './pool-history.ts';
export * from './pg-pool-history.ts';
export * from './pg-backfill.ts';
