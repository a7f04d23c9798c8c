/** The scanner module's public entry: GET /api/scanner and a pool's history, the index over pools.json and its state, the scanner's track record. */
export * from './schemas.ts';
export * from './route.ts';
export * from './scanner-state.ts';
