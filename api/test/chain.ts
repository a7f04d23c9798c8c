/**
 * The local Ethereum node and test contracts of the on-chain feed tests: shared with the e2e suite
 * and the benchmarks, so they live in packages/testkit (src/chain.ts).
 */
export * from '@yield/testkit/chain';

/**
 * The gas price eth_feeHistory gives over the latest block, asked of the node directly (not
 * through viem): the next block's base fee plus the latest block's median priority fee, in wei.
 */
export async function feeHistoryPrice(url: string): Promise<bigint> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_feeHistory',
      params: ['0x1', 'latest', [50]],
    }),
  });
  const { result } = (await res.json()) as {
    result: { baseFeePerGas: string[]; reward: string[][] };
  };
  return BigInt(result.baseFeePerGas.at(-1)!) + BigInt(result.reward[0]![0]!);
}
