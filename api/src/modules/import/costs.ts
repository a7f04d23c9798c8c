/**
 * Deposit and withdrawal costs of an on-chain source, read from its chain at import
 * (docs/methodology.md "Net yield", docs/decisions.md 55):
 *
 * - entry: the value (in assets) of convertToShares(A) − previewDeposit(A): an ERC-4626 preview
 *   includes the vault's fees, the conversion does not.
 * - exit: convertToAssets(s) − previewRedeem(s) for the shares s = convertToShares(A).
 * - The previews are per amount; what is kept is the fee RATE at a reference amount A (cost / A),
 *   checked linear: the rate at 100 × A must be the same within 1e-6 (relative) or the cost is
 *   unknown ("not linear"). Any amount's cost is then rate × amount.
 * - gas: the gas units of a deposit and of a withdrawal of that kind of contract (measured, see
 *   GAS_UNITS) × the chain's gas price from eth_feeHistory (the next block's base fee plus the
 *   latest block's median priority fee), in wei; the USD figure uses the native token's price.
 *
 * A cost that cannot be read (a contract without previews, a reverted call, no fee history) is
 * unknown with the reason, never zero.
 */
import { parseAbi, type Address, type PublicClient } from 'viem';
import { rpcReason } from './onchain.ts';

const PREVIEW_ABI = parseAbi([
  'function convertToShares(uint256 assets) view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function previewDeposit(uint256 assets) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
]);

/** A cost rate (fraction of the amount) or why it is unknown. */
export type RateOrReason = { rate: number } | { unknown: string };

/** Gas units of a deposit and of a withdrawal, or why they are unknown. */
export type GasOrReason = { deposit: number; withdraw: number } | { unknown: string };

/**
 * Gas units per feed kind: OpenZeppelin's ERC-4626 deposit(assets, receiver) and
 * redeem(shares, receiver, owner) by a holder who already holds shares, measured with
 * eth_estimateGas on anvil (OpenZeppelin Contracts 5, solc 0.8 with the optimizer at 200 runs; the
 * figure includes the transaction's 21,000; api/test/costs.test.ts checks it against the node).
 * Other kinds have no measured figure yet: their gas is unknown, not zero.
 */
export const GAS_UNITS: Partial<Record<string, { deposit: number; withdraw: number }>> = {
  erc4626: { deposit: 60_095, withdraw: 55_517 },
};

export interface SourceCosts {
  /** The block the costs were read at and its day. */
  block: string;
  date: string;
  entry: RateOrReason;
  exit: RateOrReason;
  /** The chain's gas price (wei per gas unit), or why unknown. */
  gasPriceWei: { value: string } | { unknown: string };
  gasUnits: GasOrReason;
}

const LINEAR_TOLERANCE = 1e-6;

async function costsAt(c: PublicClient, vault: Address, amount: bigint) {
  const read = (functionName: 'convertToShares' | 'previewDeposit', arg: bigint) =>
    c.readContract({ address: vault, abi: PREVIEW_ABI, functionName, args: [arg] });
  const [shares, previewShares] = await Promise.all([
    read('convertToShares', amount),
    read('previewDeposit', amount),
  ]);
  const [entryValue, assets, redeemed] = await Promise.all([
    c.readContract({
      address: vault,
      abi: PREVIEW_ABI,
      functionName: 'convertToAssets',
      args: [shares - previewShares],
    }),
    c.readContract({
      address: vault,
      abi: PREVIEW_ABI,
      functionName: 'convertToAssets',
      args: [shares],
    }),
    c.readContract({
      address: vault,
      abi: PREVIEW_ABI,
      functionName: 'previewRedeem',
      args: [shares],
    }),
  ]);
  return { entry: entryValue, exit: assets - redeemed };
}

function linearRate(small: bigint, big: bigint, amount: bigint): RateOrReason {
  const r1 = Number(small) / Number(amount);
  const r2 = Number(big) / Number(amount * 100n);
  const scale = Math.max(Math.abs(r1), Math.abs(r2));
  if (scale > 0 && Math.abs(r1 - r2) / scale > LINEAR_TOLERANCE)
    return { unknown: `not linear in the amount (${r1} at the reference, ${r2} at 100×)` };
  return { rate: r2 };
}

/** Entry and exit fee rates of an ERC-4626 vault at a reference amount (in asset base units). */
export async function readPreviewRates(
  c: PublicClient,
  vault: Address,
  referenceAmount: bigint,
): Promise<{ entry: RateOrReason; exit: RateOrReason }> {
  try {
    const small = await costsAt(c, vault, referenceAmount);
    const big = await costsAt(c, vault, referenceAmount * 100n);
    return {
      entry: linearRate(small.entry, big.entry, referenceAmount),
      exit: linearRate(small.exit, big.exit, referenceAmount),
    };
  } catch (err) {
    const reason = `previews not readable: ${rpcReason(err)}`;
    return { entry: { unknown: reason }, exit: { unknown: reason } };
  }
}

/** The gas price (wei): the next block's base fee plus the latest block's median priority fee. */
export async function readGasPrice(c: PublicClient): Promise<bigint> {
  const h = await c.getFeeHistory({ blockCount: 1, blockTag: 'latest', rewardPercentiles: [50] });
  const base = h.baseFeePerGas[h.baseFeePerGas.length - 1];
  const tip = h.reward?.[0]?.[0];
  if (base === undefined || tip === undefined)
    throw new Error('eth_feeHistory without base fee or reward');
  return base + tip;
}

/** The costs of one ERC-4626 source, read at the latest block. */
export async function readSourceCosts(
  c: PublicClient,
  vault: Address,
  kind: string,
  referenceAmount: bigint,
): Promise<SourceCosts> {
  const block = await c.getBlock({ blockTag: 'latest' });
  const rates =
    kind === 'erc4626'
      ? await readPreviewRates(c, vault, referenceAmount)
      : {
          entry: { unknown: `no previews for kind ${kind}` },
          exit: { unknown: `no previews for kind ${kind}` },
        };
  let gasPriceWei: SourceCosts['gasPriceWei'];
  try {
    gasPriceWei = { value: (await readGasPrice(c)).toString() };
  } catch (err) {
    gasPriceWei = { unknown: `gas price not readable: ${rpcReason(err)}` };
  }
  const units = GAS_UNITS[kind];
  return {
    block: block.number.toString(),
    date: new Date(Number(block.timestamp) * 1000).toISOString().slice(0, 10),
    ...rates,
    gasPriceWei,
    gasUnits: units ?? { unknown: `no measured gas for kind ${kind}` },
  };
}

/** Gas in USD: units × price (wei) / 1e18 × the native token's USD price. */
export function gasUsd(units: number, gasPriceWei: bigint, nativeUsd: number): number {
  return (Number(BigInt(units) * gasPriceWei) / 1e18) * nativeUsd;
}
