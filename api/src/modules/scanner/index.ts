/** The scanner module's public entry: GET /api/scanner and a pool's history, the index over pools.json, the pools' daily histories and their backfill, the /pools import. */
export * from './schemas.ts';
export * from './route.ts';
export * from './scanner-state.ts';
export * from './import-pools.ts';
export * from './pool-backfill.ts';
export * from './pool-history.ts';
export * from './pg-pool-history.ts';
export * from './pg-backfill.ts';
