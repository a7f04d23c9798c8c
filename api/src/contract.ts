/**
 * The response shapes the front ends read live in packages/platform (one source of truth for the
 * API and the remotes). Types only: nothing from there is loaded at run time.
 */
export type * from '../../packages/platform/src/api-types.ts';
