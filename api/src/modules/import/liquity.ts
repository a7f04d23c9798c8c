/**
 * Liquity v1's Stability Pool as an on-chain feed (kind `liquity-stability-pool`,
 * docs/data-sources.md "Liquity's Stability Pool"). A deposit earns ETH from liquidations and LQTY
 * from issuance and loses the LUSD that liquidations cancel; the pool tracks all three with the
 * running product P and the sums S (ETH per unit staked) and G (LQTY per unit staked), kept per
 * epoch and scale. Each day is valued as a 1-LUSD deposit made at the previous day's last block
 * (its snapshots: P, the epoch, the scale, and S and G at that epoch and scale) and read back at
 * the day's last block with the contract's own formulas (StabilityPool.sol,
 * _getETHGainFromSnapshots, _getLQTYGainFromSnapshots, _getCompoundedStakeFromSnapshots):
 *
 *   ETH gain  = (S[e0][s0] − S0 + S[e0][s0+1] / 1e9) / P0 / 1e18   (ETH per LUSD)
 *   LQTY gain = (G[e0][s0] − G0 + G[e0][s0+1] / 1e9) / P0 / 1e18   (LQTY per LUSD)
 *   deposit   = 0 if the epoch moved on; P / P0 (same scale); P / P0 / 1e9 (one scale on);
 *               0 (two or more), and 0 when below 1e-9 of the deposit
 *   gain      = ETH gain × ETH price + LQTY gain × LQTY price − (1 − deposit)
 *
 * with the day's prices in USD from prices.json (LUSD counted at 1 USD). The day's APY is the one
 * whose ra30-v1 APR is 365 × gain × 100.
 */
import { parseAbi, type Address } from 'viem';

export const LIQUITY_SP_ABI = parseAbi([
  'function P() view returns (uint256)',
  'function currentEpoch() view returns (uint128)',
  'function currentScale() view returns (uint128)',
  'function epochToScaleToSum(uint128 epoch, uint128 scale) view returns (uint256)',
  'function epochToScaleToG(uint128 epoch, uint128 scale) view returns (uint256)',
  'function getTotalLUSDDeposits() view returns (uint256)',
]);

const E18 = 10n ** 18n;
const SCALE_FACTOR = 10n ** 9n;

/** The pool's state at a block, as a deposit made there would snapshot it. */
export interface PoolState {
  P: bigint;
  epoch: bigint;
  scale: bigint;
  /** S and G at (epoch, scale). */
  S: bigint;
  G: bigint;
  totalDeposits: bigint;
}

/** What a later block says of a deposit snapshotted at an earlier state. */
export interface LaterState {
  P: bigint;
  epoch: bigint;
  scale: bigint;
  /** S and G at the snapshot's (epoch, scale) and (epoch, scale + 1). */
  S0: bigint;
  S1: bigint;
  G0: bigint;
  G1: bigint;
}

/** A 1-LUSD deposit's gains over one day, each in its own token (18-decimal integers). */
export interface DepositChange {
  /** ETH (wei) earned by 1 LUSD. */
  ethWei: bigint;
  /** LQTY (wei) earned by 1 LUSD. */
  lqtyWei: bigint;
  /** LUSD (wei) left of the 1 LUSD deposit. */
  depositWei: bigint;
}

/** The contract's formulas for a deposit of 1 LUSD (1e18) snapshotted at `from`. */
export function depositChange(from: PoolState, to: LaterState): DepositChange {
  if (from.P <= 0n) throw new Error('P is 0 at the snapshot');
  const d = E18;
  const gain = (sum0: bigint, sum1: bigint, snap: bigint) =>
    (d * (sum0 - snap + sum1 / SCALE_FACTOR)) / from.P / E18;
  let deposit: bigint;
  if (to.epoch > from.epoch) deposit = 0n;
  else {
    const scaleDiff = to.scale - from.scale;
    deposit =
      scaleDiff === 0n
        ? (d * to.P) / from.P
        : scaleDiff === 1n
          ? (d * to.P) / from.P / SCALE_FACTOR
          : 0n;
    if (deposit < d / 10n ** 9n) deposit = 0n;
  }
  return {
    ethWei: gain(to.S0, to.S1, from.S),
    lqtyWei: gain(to.G0, to.G1, from.G),
    depositWei: deposit,
  };
}

/**
 * The day's gain of a 1-LUSD deposit in USD, or the token whose price is missing. A price is
 * needed only for a token the day paid out.
 */
export function dayGain(
  change: DepositChange,
  prices: { eth: number | null; lqty: number | null },
): { gain: number } | { missing: 'ETH' | 'LQTY' } {
  if (change.ethWei > 0n && prices.eth === null) return { missing: 'ETH' };
  if (change.lqtyWei > 0n && prices.lqty === null) return { missing: 'LQTY' };
  const eth = change.ethWei > 0n ? (Number(change.ethWei) / 1e18) * prices.eth! : 0;
  const lqty = change.lqtyWei > 0n ? (Number(change.lqtyWei) / 1e18) * prices.lqty! : 0;
  const loss = Number(E18 - change.depositWei) / 1e18;
  return { gain: eth + lqty - loss };
}

type Read = <T>(fn: () => Promise<T>) => Promise<T>;
interface Client {
  readContract(args: {
    address: Address;
    abi: typeof LIQUITY_SP_ABI;
    functionName: string;
    args?: readonly unknown[];
    blockNumber: bigint;
  }): Promise<unknown>;
}

/** The pool's state at `block`: P, epoch, scale, S and G there, and the LUSD deposited. */
export async function readPoolState(
  client: Client,
  call: Read,
  address: Address,
  block: bigint,
): Promise<PoolState> {
  const read = (functionName: string, args?: readonly unknown[]) =>
    call(
      () =>
        client.readContract({
          address,
          abi: LIQUITY_SP_ABI,
          functionName,
          ...(args ? { args } : {}),
          blockNumber: block,
        }) as Promise<bigint>,
    );
  const [P, epoch, scale, totalDeposits] = await Promise.all([
    read('P'),
    read('currentEpoch'),
    read('currentScale'),
    read('getTotalLUSDDeposits'),
  ]);
  const [S, G] = await Promise.all([
    read('epochToScaleToSum', [epoch, scale]),
    read('epochToScaleToG', [epoch, scale]),
  ]);
  return { P, epoch, scale, S, G, totalDeposits };
}

/** What `block` says of a deposit snapshotted at `from`. */
export async function readLaterState(
  client: Client,
  call: Read,
  address: Address,
  block: bigint,
  from: PoolState,
  now: PoolState,
): Promise<LaterState> {
  const read = (functionName: string, scale: bigint) =>
    call(
      () =>
        client.readContract({
          address,
          abi: LIQUITY_SP_ABI,
          functionName,
          args: [from.epoch, scale],
          blockNumber: block,
        }) as Promise<bigint>,
    );
  const [S0, S1, G0, G1] = await Promise.all([
    read('epochToScaleToSum', from.scale),
    read('epochToScaleToSum', from.scale + 1n),
    read('epochToScaleToG', from.scale),
    read('epochToScaleToG', from.scale + 1n),
  ]);
  return { P: now.P, epoch: now.epoch, scale: now.scale, S0, S1, G0, G1 };
}
