/**
 * Deposit and withdrawal costs read from a real local node (anvil): OpenZeppelin's fee-charging
 * ERC-4626 example (entry 50 bp, exit 100 bp) compiled with solc, a known base fee and a block
 * whose transaction pays a known priority fee. Checked: the fee rates equal the vault's previews,
 * the gas price equals eth_feeHistory's next base fee plus median priority fee, the measured gas of
 * OpenZeppelin's ERC-4626 is GAS_UNITS', the net figure follows the documented rule, and a source
 * without readable previews says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  encodeFunctionData,
  http,
  parseAbi,
  type Address,
  type PublicClient,
} from 'viem';
import { GAS_UNITS, gasUsd, readGasPrice, readSourceCosts } from '../src/modules/import/costs.ts';
import { netYield } from '../src/engine/net-yield.ts';
import {
  chainClients,
  compileContracts,
  dayStart,
  deployAt,
  mineAt,
  startAnvil,
  type Anvil,
  type Clients,
  feeHistoryPrice,
} from './chain.ts';

const E18 = 10n ** 18n;
const BASE_FEE = 7_000_000_000n;
const TIP = 2_000_000_000n;
const DAY = '2026-11-20';
const ABI = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function redeem(uint256 shares, address receiver, address owner) returns (uint256)',
  'function convertToShares(uint256 assets) view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function previewDeposit(uint256 assets) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
]);

let anvil: Anvil;
let c: Clients;
let pub: PublicClient;
let feeVault: Address;
let plainVault: Address;
let rate: Address;

async function send(to: Address, functionName: string, args: unknown[], tip = 1n) {
  return c.wallet.writeContract({
    address: to,
    abi: ABI,
    functionName,
    args,
    maxPriorityFeePerGas: tip,
    maxFeePerGas: 100n * BASE_FEE,
  } as never);
}

beforeAll(async () => {
  const compiled = await compileContracts();
  anvil = await startAnvil(dayStart(DAY), ['--base-fee', String(BASE_FEE)]);
  c = chainClients(anvil.url);
  pub = createPublicClient({ transport: http(anvil.url) }) as PublicClient;
  let t = dayStart(DAY) + 100;
  const token = await deployAt(c, compiled.TestToken!, [], t++);
  const recipient = '0x000000000000000000000000000000000000fee1';
  feeVault = await deployAt(c, compiled.TestFeeVault!, [token, 50n, 100n, recipient], t++);
  plainVault = await deployAt(c, compiled.TestVault!, [token], t++);
  rate = await deployAt(c, compiled.TestRate!, [], t++);
  const me = c.account.address;
  await mineAt(c, t++, async () => [await send(token, 'mint', [me, 10_000_000n * E18])]);
  await mineAt(c, t++, async () => [
    await send(token, 'approve', [feeVault, 10_000_000n * E18]),
    await send(token, 'approve', [plainVault, 10_000_000n * E18]),
  ]);
  await mineAt(c, t++, async () => [
    await send(feeVault, 'deposit', [1_000_000n * E18, me]),
    await send(plainVault, 'deposit', [1_000_000n * E18, me]),
  ]);
  // Yield in the fee vault, so shares and assets differ; the last block pays a known tip.
  await mineAt(c, t, async () => [await send(token, 'mint', [feeVault, 12_345n * E18], TIP)]);
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
});

describe('costs read from the chain', () => {
  it('entry and exit equal the vault previews; gas the node fee history', async () => {
    const costs = await readSourceCosts(pub, feeVault, 'erc4626', 1000n * E18);
    const A = 1000n * E18;
    const read = (fn: string, arg: bigint) =>
      pub.readContract({
        address: feeVault,
        abi: ABI,
        functionName: fn,
        args: [arg],
      } as never) as Promise<bigint>;
    const shares = await read('convertToShares', A);
    const entry = await read('convertToAssets', shares - (await read('previewDeposit', A)));
    const exit = (await read('convertToAssets', shares)) - (await read('previewRedeem', shares));
    expect('rate' in costs.entry && costs.entry.rate * 1000).toBeCloseTo(Number(entry) / 1e18, 9);
    expect('rate' in costs.exit && costs.exit.rate * 1000).toBeCloseTo(Number(exit) / 1e18, 9);
    // 50 bp on the total, 100 bp on the raw assets (OpenZeppelin's rounding aside).
    expect(Number(entry) / 1e18).toBeCloseTo((1000 * 50) / 10_050, 6);
    expect(Number(exit) / 1e18).toBeCloseTo((1000 * 100) / 10_100, 6);

    const price = await feeHistoryPrice(anvil.url);
    expect(price).toBeGreaterThan(TIP);
    expect(costs.gasPriceWei).toEqual({ value: price.toString() });
    expect(await readGasPrice(pub)).toBe(price);
    expect(costs.date).toBe(DAY);
  });

  it('GAS_UNITS of erc4626 is the measured gas of an OpenZeppelin ERC-4626 deposit and redeem', async () => {
    const me = c.account.address;
    const deposit = await pub.estimateGas({
      account: me,
      to: plainVault,
      data: encodeFunctionData({
        abi: ABI,
        functionName: 'deposit',
        args: [1000n * E18, me],
      }),
    });
    const withdraw = await pub.estimateGas({
      account: me,
      to: plainVault,
      data: encodeFunctionData({
        abi: ABI,
        functionName: 'redeem',
        args: [1000n * E18, me, me],
      }),
    });
    expect(GAS_UNITS.erc4626).toEqual({ deposit: Number(deposit), withdraw: Number(withdraw) });
  });

  it('the net figure of the read costs follows the documented rule', async () => {
    const costs = await readSourceCosts(pub, feeVault, 'erc4626', 1000n * E18);
    if (!('rate' in costs.entry) || !('rate' in costs.exit) || !('value' in costs.gasPriceWei))
      throw new Error('costs unknown');
    if ('unknown' in costs.gasUnits) throw new Error(costs.gasUnits.unknown);
    const wei = BigInt(costs.gasPriceWei.value);
    const ethUsd = 3000;
    const gasIn = gasUsd(costs.gasUnits.deposit, wei, ethUsd);
    expect(gasIn).toBeCloseTo((costs.gasUnits.deposit * Number(wei) * ethUsd) / 1e18, 9);
    const r = netYield({
      amount: 1000,
      apr: 8,
      days: 90,
      unitPriceUsd: 1,
      entryRate: { value: costs.entry.rate },
      exitRate: { value: costs.exit.rate },
      gasInUsd: { value: gasIn },
      gasOutUsd: { value: gasUsd(costs.gasUnits.withdraw, wei, ethUsd) },
    });
    const total =
      r.costs.entry.amount! + r.costs.exit.amount! + r.costs.gasIn.amount! + r.costs.gasOut.amount!;
    expect(r.netAmount).toBeCloseTo((1000 - total) * (1 + 8 / 100 / 365) ** 90, 9);
  });

  it('a source without readable previews says which cost and why', async () => {
    const asVault = await readSourceCosts(pub, rate, 'erc4626', 1000n * E18);
    expect('unknown' in asVault.entry && asVault.entry.unknown).toMatch(/^previews not readable: /);
    expect('unknown' in asVault.exit).toBe(true);
    const asRate = await readSourceCosts(pub, rate, 'rate', 1000n * E18);
    expect(asRate.entry).toEqual({ unknown: 'no previews for kind rate' });
    expect(asRate.gasUnits).toEqual({ unknown: 'no measured gas for kind rate' });
  });
});
