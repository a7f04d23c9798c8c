export { AntdRoot } from './AntdRoot.tsx';
export { toast, warmUpToasts } from './toast.ts';
export { loadOnce } from './load-once.ts';
export * from './format.ts';
export { CHARGES_EXCEED_YIELD, NegativeYieldHint } from './NegativeYieldHint.tsx';
export { DepositsPausedNote } from './DepositsPaused.tsx';
export { STILL_TRYING_AFTER_MS, STILL_TRYING_TEXT, StillTrying } from './StillTrying.tsx';
export * from './site-links.ts';
export * from './source-kit/index.ts';
