/** The metric engine: pure functions, no Koa and no lowdb (method `ra30-v1`, docs/methodology.md). */
export * from './ra30.ts';
export * from './base-rates.ts';
export * from './rapool.ts';
export * from './earnings.ts';
export * from './warnings.ts';
export * from './track-record.ts';
