/**
 * A real local Ethereum node for the on-chain feed tests (api/test/onchain-import.test.ts, the e2e
 * suite's e2e/fixtures/local-chain.ts, bench/onchain-import.mjs): anvil from the npm package
 * @foundry-rs/anvil (its binary ships in the platform package) on 127.0.0.1 at a free port, and
 * contracts compiled at test time with solc from npm: OpenZeppelin's ERC4626 over a mintable ERC20,
 * a small rate contract with the getters the importer calls (and a teller naming one as its
 * accountant), Liquity v1's Stability Pool reduced to
 * its bookkeeping, an Aera v3 multi-depositor vault with its price-and-fee calculator, Aave v3's
 * Pool (a reserve's liquidity index) and Compound III's Comet (totalsBasic()). The compiler output is cached in
 * the temp directory (keyed by the sources, the compiler and OpenZeppelin's versions), so only the
 * first run on a machine compiles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  createTestClient,
  createWalletClient,
  http,
  publicActions,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';

const require = createRequire(import.meta.url);

/** anvil's first default account (a well-known development key, funded on every anvil). */
const DEV_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

export const CONTRACTS_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

contract TestToken is ERC20 {
    constructor() ERC20("Test Dollar", "TUSD") {}
    function mint(address to, uint256 amount) external { _mint(to, amount); }
}

contract TestVault is ERC4626 {
    constructor(IERC20 asset_) ERC20("Test Vault", "tvTUSD") ERC4626(asset_) {}
}

/** A mintable token with 6 decimals, as USDC has. */
contract TestToken6 is ERC20 {
    constructor() ERC20("Test USD Coin", "TUSDC") {}
    function decimals() public pure override returns (uint8) { return 6; }
    function mint(address to, uint256 amount) external { _mint(to, amount); }
}

/**
 * Aera v3's MultiDepositorVault as far as the importer reads it: ERC-20 units (18 decimals) and the
 * price-and-fee calculator it names (feeCalculator(), set with setFeeCalculator as on Aera's
 * FeeVault). Units are minted directly here; on Aera the provisioner mints them on deposits.
 */
contract TestAeraVault is ERC20 {
    address public feeCalculator;
    constructor() ERC20("Test Aera Vault", "tAERA") {}
    function setFeeCalculator(address calculator) external { feeCalculator = calculator; }
    function mint(address to, uint256 amount) external { _mint(to, amount); }
}

/**
 * Aera v3's PriceAndFeeCalculator reduced to its unit prices, with Aera's signatures: the
 * accountant's setUnitPrice(vault, price, timestamp) and convertUnitsToToken(vault, token,
 * unitsAmount) = unitsAmount × unitPrice / 1e18 (UNIT_PRICE_PRECISION, rounded down) in the
 * numeraire; a vault without a price yet is worth 0, as on Aera. Another token is refused (Aera
 * converts it through its oracle registry).
 */
contract TestPriceAndFeeCalculator {
    uint256 internal constant UNIT_PRICE_PRECISION = 1e18;
    address public immutable NUMERAIRE;
    mapping(address => uint128) internal unitPrices;
    constructor(address numeraire) { NUMERAIRE = numeraire; }
    function setUnitPrice(address vault, uint128 price, uint32 /* timestamp */) external {
        unitPrices[vault] = price;
    }
    function convertUnitsToToken(address vault, IERC20 token, uint256 unitsAmount)
        external view returns (uint256 tokenAmount)
    {
        require(address(token) == NUMERAIRE, "not the numeraire");
        return unitsAmount * unitPrices[vault] / UNIT_PRICE_PRECISION;
    }
}

/** The rate getters of liquid staking tokens and accountants, all over one settable rate. */
contract TestRate {
    uint256 public rate = 1e18;
    function setRate(uint256 r) external { rate = r; }
    function getExchangeRate() external view returns (uint256) { return rate; }
    function getRate() external view returns (uint256) { return rate; }
    function exchangeRate() external view returns (uint256) { return rate; }
    function getPooledEthByShares(uint256 shares) external view returns (uint256) { return shares * rate / 1e18; }
}

/**
 * A vault's teller (Veda's BoringVault, as ether.fi Liquid's) as far as the importer reads it: the
 * accountant it names (accountant()), whose getRate() is the share price.
 */
contract TestTeller {
    address public accountant;
    function setAccountant(address accountant_) external { accountant = accountant_; }
}

/**
 * Aave v3's Pool (SparkLend's is the same code) as far as the importer reads it: a reserve's
 * liquidity index in ray, getReserveNormalizedIncome(asset), set per asset by the test.
 */
contract TestAavePool {
    mapping(address => uint256) internal income;
    function setReserveNormalizedIncome(address asset, uint256 index) external { income[asset] = index; }
    function getReserveNormalizedIncome(address asset) external view returns (uint256) { return income[asset]; }
}

/**
 * Compound III's Comet as far as the importer reads it: totalsBasic() with CometStorage's
 * TotalsBasic struct in its field order, and baseIndexScale() (1e15, CometCore's BASE_INDEX_SCALE).
 */
contract TestComet {
    struct TotalsBasic {
        uint64 baseSupplyIndex;
        uint64 baseBorrowIndex;
        uint64 trackingSupplyIndex;
        uint64 trackingBorrowIndex;
        uint104 totalSupplyBase;
        uint104 totalBorrowBase;
        uint40 lastAccrualTime;
        uint8 pauseFlags;
    }
    TotalsBasic internal totals = TotalsBasic(1e15, 1e15, 0, 0, 0, 0, 0, 0);
    function baseIndexScale() external pure returns (uint64) { return 1e15; }
    function totalsBasic() external view returns (TotalsBasic memory) { return totals; }
    /** Moves the indices as an accrual at \`time\` does (the borrow index, the struct's second field, runs ahead). */
    function accrue(uint64 supplyIndex, uint64 borrowIndex, uint40 time) external {
        totals.baseSupplyIndex = supplyIndex;
        totals.baseBorrowIndex = borrowIndex;
        totals.lastAccrualTime = time;
    }
}

/**
 * Liquity v1's Stability Pool reduced to its bookkeeping: the same getters, and the same updates of
 * P, S and G per epoch and scale (StabilityPool.sol _computeRewardsPerUnitStaked and
 * _updateRewardSumAndProduct, without the rounding-error carry), driven by liquidate() and
 * issueLQTY() instead of the trove manager and community issuance.
 */
contract TestStabilityPool {
    uint256 public constant SCALE_FACTOR = 1e9;
    uint256 public P = 1e18;
    uint128 public currentScale;
    uint128 public currentEpoch;
    mapping(uint128 => mapping(uint128 => uint256)) public epochToScaleToSum;
    mapping(uint128 => mapping(uint128 => uint256)) public epochToScaleToG;
    uint256 internal totalLUSDDeposits;

    function getTotalLUSDDeposits() external view returns (uint256) { return totalLUSDDeposits; }
    function deposit(uint256 amount) external { totalLUSDDeposits += amount; }

    function issueLQTY(uint256 amount) external {
        uint256 perUnitStaked = amount * 1e18 / totalLUSDDeposits;
        epochToScaleToG[currentEpoch][currentScale] += perUnitStaked * P;
    }

    function liquidate(uint256 debtToOffset, uint256 collToAdd) external {
        uint256 ethPerUnitStaked = collToAdd * 1e18 / totalLUSDDeposits;
        uint256 lossPerUnitStaked = debtToOffset == totalLUSDDeposits
            ? 1e18
            : debtToOffset * 1e18 / totalLUSDDeposits;
        epochToScaleToSum[currentEpoch][currentScale] += ethPerUnitStaked * P;
        uint256 factor = 1e18 - lossPerUnitStaked;
        if (factor == 0) {
            currentEpoch += 1;
            currentScale = 0;
            P = 1e18;
        } else if (P * factor / 1e18 < SCALE_FACTOR) {
            P = P * factor * SCALE_FACTOR / 1e18;
            currentScale += 1;
        } else {
            P = P * factor / 1e18;
        }
        totalLUSDDeposits -= debtToOffset;
    }
}

/**
 * OpenZeppelin's fee-charging ERC-4626 example (docs, "ERC4626Fees"): previews include an entry
 * fee on deposit and an exit fee on redeem, in basis points, paid to a recipient.
 */
contract TestFeeVault is ERC4626 {
    uint256 private constant _BASIS_POINT_SCALE = 1e4;
    uint256 public immutable entryFeeBasisPoints;
    uint256 public immutable exitFeeBasisPoints;
    address public immutable feeRecipient;

    constructor(IERC20 asset_, uint256 entryBp, uint256 exitBp, address recipient)
        ERC20("Test Fee Vault", "tfvTUSD") ERC4626(asset_)
    {
        entryFeeBasisPoints = entryBp;
        exitFeeBasisPoints = exitBp;
        feeRecipient = recipient;
    }

    function previewDeposit(uint256 assets) public view override returns (uint256) {
        return super.previewDeposit(assets - _feeOnTotal(assets, entryFeeBasisPoints));
    }
    function previewMint(uint256 shares) public view override returns (uint256) {
        uint256 assets = super.previewMint(shares);
        return assets + _feeOnRaw(assets, entryFeeBasisPoints);
    }
    function previewWithdraw(uint256 assets) public view override returns (uint256) {
        return super.previewWithdraw(assets + _feeOnRaw(assets, exitFeeBasisPoints));
    }
    function previewRedeem(uint256 shares) public view override returns (uint256) {
        uint256 assets = super.previewRedeem(shares);
        return assets - _feeOnTotal(assets, exitFeeBasisPoints);
    }
    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override {
        uint256 fee = _feeOnTotal(assets, entryFeeBasisPoints);
        super._deposit(caller, receiver, assets, shares);
        if (fee > 0) IERC20(asset()).transfer(feeRecipient, fee);
    }
    function _withdraw(address caller, address receiver, address owner, uint256 assets, uint256 shares) internal override {
        uint256 fee = _feeOnRaw(assets, exitFeeBasisPoints);
        super._withdraw(caller, receiver, owner, assets, shares);
        if (fee > 0) IERC20(asset()).transfer(feeRecipient, fee);
    }
    function _feeOnRaw(uint256 assets, uint256 bp) private pure returns (uint256) {
        return Math.mulDiv(assets, bp, _BASIS_POINT_SCALE, Math.Rounding.Ceil);
    }
    function _feeOnTotal(uint256 assets, uint256 bp) private pure returns (uint256) {
        return Math.mulDiv(assets, bp, bp + _BASIS_POINT_SCALE, Math.Rounding.Ceil);
    }
}
`;

/** Seconds in a day: block timestamps are in seconds. */
export const DAY = 86_400;
/** The block timestamp (seconds) of a UTC day's start. */
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
/** The UTC day `n` days after `day` (YYYY-MM-DD). */
export const nextDay = (day: string, n = 1) =>
  new Date((dayStart(day) + n * DAY) * 1000).toISOString().slice(0, 10);

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/** Compiles CONTRACTS_SOURCE (cached in the temp directory). */
export async function compileContracts(): Promise<Record<string, Compiled>> {
  const solc = require('solc') as {
    version(): string;
    compile(input: string, callbacks: { import: (p: string) => object }): string;
  };
  const key = createHash('sha256')
    .update(solc.version())
    .update(CONTRACTS_SOURCE)
    .update(require('@openzeppelin/contracts/package.json').version as string)
    .digest('hex')
    .slice(0, 16);
  const cacheDir = path.join(os.tmpdir(), 'yield-solc-cache');
  const cacheFile = path.join(cacheDir, `${key}.json`);
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as Record<string, Compiled>;
  } catch {
    // not cached yet
  }
  const input = {
    language: 'Solidity',
    sources: { 'Test.sol': { content: CONTRACTS_SOURCE } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const findImports = (p: string) => {
    try {
      return { contents: require('node:fs').readFileSync(require.resolve(p), 'utf8') as string };
    } catch {
      return { error: `not found: ${p}` };
    }
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), { import: findImports }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const out: Record<string, Compiled> = {};
  for (const [name, c] of Object.entries(output.contracts['Test.sol']!))
    out[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  await mkdir(cacheDir, { recursive: true });
  await writeFile(cacheFile, JSON.stringify(out));
  return out;
}

/** The anvil binary of this platform, from the npm package's platform package. */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const anvilPkg = require.resolve('@foundry-rs/anvil/package.json');
  const fromAnvil = createRequire(anvilPkg);
  return fromAnvil.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Anvil {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts anvil on 127.0.0.1 at a free port, its genesis block at `genesisTime` (seconds). */
export async function startAnvil(genesisTime: number, extraArgs: string[] = []): Promise<Anvil> {
  const port = await freePort();
  const child = spawn(
    anvilBinary(),
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--timestamp',
      String(genesisTime),
      '--no-mining',
      '--silent',
      ...extraArgs,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 20_000) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A client that deploys, sends and mines blocks at chosen times (anvil's test methods). */
export function chainClients(url: string) {
  const account = privateKeyToAccount(DEV_KEY);
  const transport = http(url);
  const wallet = createWalletClient({ account, chain: foundry, transport }).extend(publicActions);
  const test = createTestClient({ mode: 'anvil', chain: foundry, transport });
  return { account, wallet, test };
}

export type Clients = ReturnType<typeof chainClients>;

/**
 * Sends the transactions `send` makes, then mines them in one block at `timestamp` (seconds);
 * returns the block's number.
 */
export async function mineAt(
  c: Clients,
  timestamp: number,
  send: () => Promise<Hex[]> = async () => [],
): Promise<bigint> {
  const hashes = await send();
  await c.test.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
  await c.test.mine({ blocks: 1 });
  for (const hash of hashes) {
    const r = await c.wallet.getTransactionReceipt({ hash });
    if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  }
  return (await c.wallet.getBlock({ blockTag: 'latest' })).number;
}

/** Deploys a compiled contract in a block mined at `timestamp`; returns its address. */
export async function deployAt(
  c: Clients,
  contract: Compiled,
  args: readonly unknown[],
  timestamp: number,
): Promise<Address> {
  const hash = await c.wallet.deployContract({
    abi: contract.abi,
    bytecode: contract.bytecode,
    args: args as never,
  });
  await mineAt(c, timestamp);
  const r = await c.wallet.getTransactionReceipt({ hash });
  if (!r.contractAddress) throw new Error('deployment failed');
  return r.contractAddress;
}
