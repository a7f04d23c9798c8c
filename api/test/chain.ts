/**
 * The local Ethereum node and test contracts of the on-chain feed tests: shared with the e2e suite
 * and the benchmarks, so they live in packages/testkit (src/chain.ts).
 */
export * from '@yield/testkit/chain';
