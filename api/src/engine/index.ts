/** The metric engine: pure functions, no Koa and no lowdb (methods `ra30-v1` and the pools' `rapool-v2`, docs/methodology.md). */
export * from './ra30.ts';
export * from './base-rates.ts';
export * from './rapool.ts';
export * from './rapool2.ts';
export * from './earnings.ts';
export * from './warnings.ts';
export * from './top-picks-returns.ts';
export * from './top-pools-returns.ts';
