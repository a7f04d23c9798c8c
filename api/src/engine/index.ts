/** The metric engine: pure functions, no Koa and no lowdb (see methodology.md, `ra30-v1`). */
export * from './ra30.ts';
export * from './base-rates.ts';
export * from './rapool.ts';
