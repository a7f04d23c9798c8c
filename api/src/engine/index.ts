/** The metric engine: pure functions, no Koa and no lowdb (methods `ra30-v1` and the pools' `rapool-v2`, docs/methodology.md). */
export * from './ra30.ts';
export * from './base-rates.ts';
// The retired rapool-v1 (rapool.ts, docs/methodology.md) is not the engine's any more: only the
// parameters and the reward share rapool-v2's callers still read come from it.
export { RAPOOL_V1, rewardShareOf } from './rapool.ts';
export * from './rapool2.ts';
export * from './earnings.ts';
export * from './net-yield.ts';
export * from './warnings.ts';
export * from './top-picks-returns.ts';
export * from './top-pools-returns.ts';
