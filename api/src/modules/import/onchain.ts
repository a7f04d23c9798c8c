/**
 * On-chain feeds (sources.json `feeds`, provider `onchain`): a series' daily history computed from
 * the share price (or rate) a contract reports at the last block of each UTC day, read over
 * JSON-RPC with viem from the endpoint in RPC_URL_<CHAIN> (docs/data-sources.md, "On-chain
 * feeds").
 *
 * - The day's last block: the highest block whose timestamp is before the next UTC midnight,
 *   found by a binary search over block numbers. All days of one chain are searched together, level
 *   by level (each level's midpoints are one batched request), and every timestamp read is cached.
 * - kind `erc4626`: price = convertToAssets(10**decimals()) / 10**(the asset's decimals());
 *   TVL = totalAssets() in the asset (valued at $1 for a dollar source, unvalued otherwise).
 *   kind `rate`: getPooledEthByShares(1e18) (Lido stETH), getExchangeRate() (Rocket Pool rETH),
 *   getRate() (an accountant), exchangeRate() (cbETH), each / 10**decimals (18 unless said);
 *   with `via: "accountant"` the address is a vault's teller and the getter is called on the
 *   accountant the teller names (accountant()) at each day's block.
 *   kind `liquity-stability-pool`: the day's gain of a 1-LUSD deposit from P, S and G
 *   (./liquity.ts), valued with the day's ETH and LQTY prices; a day whose price is missing is
 *   left out and reported (`leftOut`).
 *   kind `aera-v3` (an Aera v3 multi-depositor vault, whose units are priced by a separate
 *   price-and-fee calculator): at each day's block the calculator the vault names
 *   (feeCalculator()), then price = calculator.convertUnitsToToken(vault, token,
 *   10**decimals()) / 10**(the token's decimals()); TVL = convertUnitsToToken of totalSupply()
 *   (valued at $1 for a dollar source). The days before the vault has a calculator and a unit
 *   price (a value of 0) are left out like the days before the contract existed.
 *   kind `aave-v3-reserve` (Aave v3, SparkLend): price = Pool.getReserveNormalizedIncome(asset)
 *   / 1e27, the reserve's liquidity index: what one unit of an aToken's scaled balance is worth.
 *   kind `comet` (Compound III): price = totalsBasic().baseSupplyIndex / baseIndexScale(), the
 *   base supply index as the Comet last accrued it (it accrues at every interaction).
 *   Neither has a TVL here: a lending market's TVL is left to DeFiLlama's figure.
 * - The day's APY is the one whose ra30-v1 APR (api/src/engine/ra30.ts, apyToApr) is exactly
 *   365 × (p_d / p_{d-1} − 1) × 100: apy = 100 × ((p_d / p_{d-1})^365 − 1).
 * - Backfill: from the first day whose last block has code at the address, at most `maxDays` days
 *   back, and no further back than the node keeps state (a node that prunes history answers only
 *   recent blocks); afterwards only the days after the newest stored one (that one is read again
 *   as the reference price).
 *
 * Calls go through viem's HTTP transport with JSON-RPC batching (many calls in one request) and a
 * bound on the calls in flight. Every failure is a FeedError naming what failed; no partial
 * series is returned. A chain's failures stay its own feeds' failures: an unreachable node, a head
 * block that is not one (no number, a timestamp no date holds) and the chain's overall deadline
 * (RPC_CHAIN_DEADLINE_MS, 5 minutes; the feeds not read by then fail with `deadline: …` and the
 * requests under way are aborted) fail that chain's feeds, never the import.
 */
import pLimit from 'p-limit';
import {
  BaseError,
  createPublicClient,
  http,
  HttpRequestError,
  TimeoutError,
  parseAbi,
  zeroAddress,
  type Address,
  type PublicClient,
} from 'viem';
import { liquityGainCoins, type OnchainFeedRecord } from '../yields/index.ts';
import type { LeftOutDay } from '@yield/contract';
import { FeedError, MAX_PLAUSIBLE_APY } from './defillama.ts';
import { dayGain, depositChange, readLaterState, readPoolState } from './liquity.ts';

const DAY_MS = 86_400_000;
const DAY_S = 86_400;

export const DEFAULT_ONCHAIN_MAX_DAYS = 365;
/** JSON-RPC calls in flight per chain (they travel in batches of up to BATCH_SIZE). */
export const DEFAULT_RPC_CONCURRENCY = 64;
export const BATCH_SIZE = 100;
/** How long one chain's reads may take in all (RPC_CHAIN_DEADLINE_MS): 5 minutes. */
export const DEFAULT_CHAIN_DEADLINE_MS = 300_000;

const ERC4626_ABI = parseAbi([
  'function decimals() view returns (uint8)',
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
]);
const ERC20_ABI = parseAbi(['function decimals() view returns (uint8)']);
const RATE_ABI = parseAbi([
  'function getPooledEthByShares(uint256 sharesAmount) view returns (uint256)',
  'function getExchangeRate() view returns (uint256)',
  'function getRate() view returns (uint256)',
  'function exchangeRate() view returns (uint256)',
]);
/** Aera v3's MultiDepositorVault (ERC-20 units) and PriceAndFeeCalculator, as far as read here. */
const AERA_VAULT_ABI = parseAbi([
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function feeCalculator() view returns (address)',
]);
/** Aave v3's Pool (SparkLend's is the same code): a reserve's liquidity index, in ray (1e27). */
const AAVE_POOL_ABI = parseAbi([
  'function getReserveNormalizedIncome(address asset) view returns (uint256)',
]);
/** Compound III's Comet (CometExtInterface, the TotalsBasic struct of CometStorage in its order). */
const COMET_ABI = parseAbi([
  'struct TotalsBasic { uint64 baseSupplyIndex; uint64 baseBorrowIndex; uint64 trackingSupplyIndex; uint64 trackingBorrowIndex; uint104 totalSupplyBase; uint104 totalBorrowBase; uint40 lastAccrualTime; uint8 pauseFlags; }',
  'function totalsBasic() view returns (TotalsBasic)',
  'function baseIndexScale() view returns (uint64)',
]);
/** The decimals of Aave's ray. */
const RAY_DECIMALS = 27;
/** A vault's teller (Veda's BoringVault, e.g. ether.fi Liquid), naming its accountant. */
const TELLER_ABI = parseAbi(['function accountant() view returns (address)']);
const AERA_CALCULATOR_ABI = parseAbi([
  'function convertUnitsToToken(address vault, address token, uint256 unitsAmount) view returns (uint256)',
]);

/** The environment variable holding a chain's JSON-RPC endpoint: RPC_URL_ETHEREUM for ethereum. */
export function rpcVariable(chain: string): string {
  return `RPC_URL_${chain.toUpperCase()}`;
}

export interface OnchainTarget {
  series: string;
  feed: OnchainFeedRecord;
  /** A dollar source's TVL is its total assets; an ETH source's is left to DeFiLlama's figure. */
  unit: 'USD' | 'ETH';
  /** Newest day already stored from this very contract (read again as the reference), or null. */
  storedAsOf: string | null;
}

export interface OnchainRow {
  date: string;
  apy: number;
  /** The share price (or rate); null for a feed without one (Liquity's Stability Pool). */
  pricePerShare: number | null;
  /** The vault's total assets in USD (a dollar ERC-4626 vault), else null. */
  tvlUsd: number | null;
}

export interface OnchainRead {
  target: OnchainTarget;
  rows: OnchainRow[] | null;
  reason: string | null;
  /** Days left out of the rows (a Liquity day without the price of a token it paid out). */
  leftOut?: LeftOutDay[];
}

/** A token's price (USD) on a day, from prices.json; null when there is none. */
export type PriceLookup = (coin: string, day: string) => number | null;

export interface ChainReadOptions {
  rpcUrl: string;
  /** Today (UTC): only the days before it are complete. */
  today: string;
  maxDays?: number | undefined;
  timeoutMs?: number | undefined;
  concurrency?: number | undefined;
  /** The daily token prices a Liquity Stability Pool feed values its gains with. */
  price?: PriceLookup | undefined;
  /**
   * The chain's overall deadline (RPC_CHAIN_DEADLINE_MS): the feeds not read by then fail with
   * `deadline: …` and the requests still under way are aborted.
   */
  deadlineMs?: number | undefined;
}

function dayOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}
function shift(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
/** Seconds at the UTC midnight that ends `day`. */
function endOf(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000 + DAY_S;
}

/** A readable reason for a failed RPC call, without viem's long multi-line details. */
export function rpcReason(err: unknown): string {
  if (err instanceof FeedError) return err.message;
  if (err instanceof BaseError) {
    const causes: string[] = [];
    let e: unknown = err;
    for (let i = 0; e && i < 5; i++) {
      const c = e as { shortMessage?: string; details?: string; cause?: unknown };
      if (c.details && !causes.includes(c.details)) causes.push(c.details);
      e = c.cause;
    }
    return `${err.shortMessage}${causes.length ? ` (${causes[0]})` : ''}`;
  }
  return (err as Error).message;
}

/** Reads of one chain: its blocks' timestamps (cached) and the contracts' values at a block. */
export class ChainReader {
  readonly client: PublicClient;
  private readonly timestamps = new Map<bigint, number>();
  private readonly limit: ReturnType<typeof pLimit>;

  /** `signal`: aborts every request under way or still to come (the chain's deadline). */
  constructor(options: ChainReadOptions, signal?: AbortSignal) {
    this.client = createPublicClient({
      transport: http(options.rpcUrl, {
        batch: { batchSize: BATCH_SIZE, wait: 0 },
        timeout: options.timeoutMs ?? 20_000,
        retryCount: 1,
        ...(signal ? { fetchOptions: { signal } } : {}),
      }),
    });
    this.limit = pLimit(options.concurrency ?? DEFAULT_RPC_CONCURRENCY);
  }

  call<T>(fn: () => Promise<T>): Promise<T> {
    return this.limit(fn);
  }

  /**
   * The node's latest block. A head whose number or timestamp is not one a block can have (no
   * number, a time no date holds, e.g. 0xffffffffffff) is a FeedError naming it.
   */
  async latest(): Promise<{ number: bigint; timestamp: number }> {
    const b = await this.call(() => this.client.getBlock({ blockTag: 'latest' }));
    const raw = b.timestamp as bigint | undefined;
    const timestamp = Number(raw);
    if (typeof b.number !== 'bigint' || b.number < 0n)
      throw new FeedError(`bad head block: the node's latest block has no number`);
    if (raw === undefined || raw < 0n || Number.isNaN(new Date(timestamp * 1000).getTime()))
      throw new FeedError(
        `bad head block: block ${b.number} has the timestamp ${raw === undefined ? 'none' : `0x${raw.toString(16)}`}, not a time`,
      );
    this.timestamps.set(b.number, timestamp);
    return { number: b.number, timestamp };
  }

  async timestamp(n: bigint): Promise<number> {
    const known = this.timestamps.get(n);
    if (known !== undefined) return known;
    const b = await this.call(() => this.client.getBlock({ blockNumber: n }));
    const t = Number(b.timestamp);
    this.timestamps.set(n, t);
    return t;
  }

  /**
   * For each target time (seconds), the highest block in [0, head] whose timestamp is below it,
   * or null when even block 0 is not. One binary search for all targets: each level splits every
   * open interval at its midpoint, and the midpoints of a level are read together.
   */
  async lastBlocksBefore(
    targets: readonly number[],
    head: bigint,
  ): Promise<Map<number, bigint | null>> {
    const out = new Map<number, bigint | null>();
    const t0 = await this.timestamp(0n);
    const tHead = await this.timestamp(head);
    let open: { lo: bigint; hi: bigint; targets: number[] }[] = [];
    const inside: number[] = [];
    for (const t of new Set(targets)) {
      if (t <= t0) out.set(t, null);
      else if (t > tHead) out.set(t, head);
      else inside.push(t);
    }
    // Invariant: timestamp(lo) < every target <= timestamp(hi).
    if (inside.length > 0) open.push({ lo: 0n, hi: head, targets: inside });
    while (open.length > 0) {
      const next: typeof open = [];
      const mids = open.map((iv) => (iv.lo + iv.hi) / 2n);
      const times = await Promise.all(
        open.map((iv, i) => (iv.hi - iv.lo > 1n ? this.timestamp(mids[i]!) : Promise.resolve(0))),
      );
      open.forEach((iv, i) => {
        if (iv.hi - iv.lo <= 1n) {
          for (const t of iv.targets) out.set(t, iv.lo);
          return;
        }
        const mid = mids[i]!;
        const tm = times[i]!;
        const below = iv.targets.filter((t) => t <= tm);
        const above = iv.targets.filter((t) => t > tm);
        if (below.length) next.push({ lo: iv.lo, hi: mid, targets: below });
        if (above.length) next.push({ lo: mid, hi: iv.hi, targets: above });
      });
      open = next;
    }
    return out;
  }

  async hasCode(address: Address, block: bigint): Promise<boolean> {
    const code = await this.call(() => this.client.getCode({ address, blockNumber: block }));
    return code !== undefined && code !== '0x';
  }

  /**
   * Whether the node still has the state of `block` (a node that prunes history answers only
   * recent blocks), and if so whether `address` has code there. Transport failures throw.
   */
  async readableCode(address: Address, block: bigint): Promise<boolean | null> {
    try {
      return await this.hasCode(address, block);
    } catch (err) {
      if (
        err instanceof BaseError &&
        !err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)
      )
        return null;
      throw err;
    }
  }

  /** The first block in (lo, hi] whose state the node still has, given none at lo. */
  async firstReadableBlock(address: Address, lo: bigint, hi: bigint): Promise<bigint> {
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if ((await this.readableCode(address, mid)) === null) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  /** The first block in (lo, hi] with code at `address`, given none at lo and some at hi. */
  async firstBlockWithCode(address: Address, lo: bigint, hi: bigint): Promise<bigint> {
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (await this.hasCode(address, mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** The value the feed reads at `block`, in the units of 10**decimals, and total assets (ERC-4626). */
  async value(
    feed: OnchainFeedRecord,
    block: bigint,
    shareUnit: bigint,
  ): Promise<{ value: bigint; assets: bigint | null }> {
    const vault = feed.address as Address;
    if (feed.kind === 'erc4626') {
      const address = vault;
      const [value, assets] = await Promise.all([
        this.call(() =>
          this.client.readContract({
            address,
            abi: ERC4626_ABI,
            functionName: 'convertToAssets',
            args: [shareUnit],
            blockNumber: block,
          }),
        ),
        this.call(() =>
          this.client.readContract({
            address,
            abi: ERC4626_ABI,
            functionName: 'totalAssets',
            blockNumber: block,
          }),
        ),
      ]);
      return { value, assets };
    }
    if (feed.kind === 'aera-v3') return this.aeraValue(feed, block, shareUnit);
    if (feed.kind === 'aave-v3-reserve') {
      const value = await this.call(() =>
        this.client.readContract({
          address: vault,
          abi: AAVE_POOL_ABI,
          functionName: 'getReserveNormalizedIncome',
          args: [feed.asset as Address],
          blockNumber: block,
        }),
      );
      return { value, assets: null };
    }
    if (feed.kind === 'comet') {
      const totals = await this.call(() =>
        this.client.readContract({
          address: vault,
          abi: COMET_ABI,
          functionName: 'totalsBasic',
          blockNumber: block,
        }),
      );
      return { value: totals.baseSupplyIndex, assets: null };
    }
    const call = feed.call!;
    // Through a teller: the getter of the accountant it names at that block.
    const address =
      feed.via === 'accountant'
        ? await this.call(() =>
            this.client.readContract({
              address: vault,
              abi: TELLER_ABI,
              functionName: 'accountant',
              blockNumber: block,
            }),
          )
        : vault;
    const value = await this.call(() =>
      call === 'getPooledEthByShares'
        ? this.client.readContract({
            address,
            abi: RATE_ABI,
            functionName: call,
            args: [10n ** 18n],
            blockNumber: block,
          })
        : this.client.readContract({
            address,
            abi: RATE_ABI,
            functionName: call,
            blockNumber: block,
          }),
    );
    return { value, assets: null };
  }

  /**
   * An Aera v3 vault's unit at `block`: the calculator the vault names then, and the value in
   * `feed.token` of one unit and of all units (0 while the vault has no calculator).
   */
  private async aeraValue(
    feed: OnchainFeedRecord,
    block: bigint,
    shareUnit: bigint,
  ): Promise<{ value: bigint; assets: bigint | null }> {
    const vault = feed.address as Address;
    const token = feed.token as Address;
    const read = <F extends 'feeCalculator' | 'totalSupply'>(functionName: F) =>
      this.call(() =>
        this.client.readContract({
          address: vault,
          abi: AERA_VAULT_ABI,
          functionName,
          blockNumber: block,
        }),
      );
    const [calculator, supply] = await Promise.all([read('feeCalculator'), read('totalSupply')]);
    if (calculator === zeroAddress) return { value: 0n, assets: null };
    const convert = (units: bigint) =>
      this.call(() =>
        this.client.readContract({
          address: calculator,
          abi: AERA_CALCULATOR_ABI,
          functionName: 'convertUnitsToToken',
          args: [vault, token, units],
          blockNumber: block,
        }),
      );
    const [value, assets] = await Promise.all([convert(shareUnit), convert(supply)]);
    return { value, assets };
  }

  /** The share unit (10**decimals()) and the decimals of what a share is worth in. */
  async units(
    feed: OnchainFeedRecord,
    block: bigint,
  ): Promise<{ shareUnit: bigint; valueDecimals: number }> {
    if (feed.kind === 'aera-v3') {
      const [decimals, tokenDecimals] = await Promise.all([
        this.call(() =>
          this.client.readContract({
            address: feed.address as Address,
            abi: AERA_VAULT_ABI,
            functionName: 'decimals',
            blockNumber: block,
          }),
        ),
        this.call(() =>
          this.client.readContract({
            address: feed.token as Address,
            abi: ERC20_ABI,
            functionName: 'decimals',
            blockNumber: block,
          }),
        ),
      ]);
      return { shareUnit: 10n ** BigInt(decimals), valueDecimals: tokenDecimals };
    }
    if (feed.kind === 'aave-v3-reserve') return { shareUnit: 1n, valueDecimals: RAY_DECIMALS };
    if (feed.kind === 'comet') {
      const scale = await this.call(() =>
        this.client.readContract({
          address: feed.address as Address,
          abi: COMET_ABI,
          functionName: 'baseIndexScale',
          blockNumber: block,
        }),
      );
      const valueDecimals = Math.round(Math.log10(Number(scale)));
      if (scale <= 0n || 10n ** BigInt(valueDecimals) !== scale)
        throw new FeedError(
          `implausible value at ${feed.address}: baseIndexScale() ${scale} is not a power of ten`,
        );
      return { shareUnit: 1n, valueDecimals };
    }
    if (feed.kind !== 'erc4626')
      return { shareUnit: 10n ** 18n, valueDecimals: feed.decimals ?? 18 };
    const address = feed.address as Address;
    const [decimals, asset] = await Promise.all([
      this.call(() =>
        this.client.readContract({
          address,
          abi: ERC4626_ABI,
          functionName: 'decimals',
          blockNumber: block,
        }),
      ),
      this.call(() =>
        this.client.readContract({
          address,
          abi: ERC4626_ABI,
          functionName: 'asset',
          blockNumber: block,
        }),
      ),
    ]);
    const assetDecimals = await this.call(() =>
      this.client.readContract({
        address: asset,
        abi: ERC20_ABI,
        functionName: 'decimals',
        blockNumber: block,
      }),
    );
    return { shareUnit: 10n ** BigInt(decimals), valueDecimals: assetDecimals };
  }
}

/** value / 10**decimals as a number. */
function scaled(value: bigint, decimals: number): number {
  return Number(value) / 10 ** decimals;
}

/**
 * The APY (%) whose ra30-v1 APR is 365 × (p_d / p_{d-1} − 1) × 100; the day's growth is taken
 * from the integers so that no precision is lost to large share prices.
 */
export function apyFromPrices(previous: bigint, current: bigint): number {
  const SCALE = 10n ** 18n;
  const growth = Number(((current - previous) * SCALE) / previous) / 1e18;
  return 100 * Math.expm1(365 * Math.log1p(growth));
}

/** The days from `from` to `to` (inclusive), oldest first. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = shift(d, 1)) out.push(d);
  return out;
}

/** A deadline in words: `300 s`, `1500 ms`. */
function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Reads every target of one chain within the chain's deadline; never throws: a target that cannot
 * be read has `rows: null` and a reason (the whole chain's reason when the RPC fails, its head is
 * not a block, or the deadline passes first: then the requests still under way are aborted).
 */
export async function readChain(
  targets: readonly OnchainTarget[],
  options: ChainReadOptions,
): Promise<OnchainRead[]> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_CHAIN_DEADLINE_MS;
  const abort = new AbortController();
  const reader = new ChainReader(options, abort.signal);
  const done = new Map<OnchainTarget, OnchainRead>();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deadlineMs);
  });
  try {
    await Promise.race([
      readTargets(reader, targets, options, (read) => done.set(read.target, read)),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
  const reason = `deadline: the chain's reads did not finish within ${duration(deadlineMs)} (RPC_CHAIN_DEADLINE_MS)`;
  const reads = targets.map((target) => done.get(target) ?? { target, rows: null, reason });
  // No request of this chain outlives its deadline.
  abort.abort();
  return reads;
}

/** The days a chain's targets need and the last block of each. */
interface ChainPlan {
  head: bigint;
  /** The newest complete day the node has reached. */
  newest: string;
  /** The first day each target needs: its newest stored day (the reference), else the window's. */
  firstDay: Map<OnchainTarget, string>;
  blockOf: (day: string) => bigint | null;
}

/** The chain's head and the last block of every day its targets need; throws a FeedError. */
async function planDays(
  reader: ChainReader,
  targets: readonly OnchainTarget[],
  options: ChainReadOptions,
): Promise<ChainPlan> {
  const maxDays = options.maxDays ?? DEFAULT_ONCHAIN_MAX_DAYS;
  let head: { number: bigint; timestamp: number };
  try {
    head = await reader.latest();
  } catch (err) {
    if (err instanceof FeedError) throw err;
    throw new FeedError(`RPC unreachable: ${rpcReason(err)}`);
  }
  const yesterday = shift(options.today, -1);
  const newest = [yesterday, dayOf(head.timestamp)].sort()[0]!;
  const windowStart = shift(options.today, -(maxDays + 1));
  const firstDay = new Map<OnchainTarget, string>();
  for (const t of targets)
    firstDay.set(t, t.storedAsOf && t.storedAsOf >= windowStart ? t.storedAsOf : windowStart);
  const allDays = new Set<string>();
  for (const t of targets) for (const d of daysBetween(firstDay.get(t)!, newest)) allDays.add(d);
  let dayBlocks: Map<number, bigint | null>;
  try {
    dayBlocks = await reader.lastBlocksBefore(
      [...allDays].map((d) => endOf(d)),
      head.number,
    );
  } catch (err) {
    throw new FeedError(`finding the days' last blocks failed: ${rpcReason(err)}`);
  }
  return {
    head: head.number,
    newest,
    firstDay,
    blockOf: (day) => dayBlocks.get(endOf(day)) ?? null,
  };
}

/** Reads the targets, handing each outcome to `settle` as it comes; never throws. */
async function readTargets(
  reader: ChainReader,
  targets: readonly OnchainTarget[],
  options: ChainReadOptions,
  settle: (read: OnchainRead) => void,
): Promise<void> {
  let plan: ChainPlan;
  try {
    plan = await planDays(reader, targets, options);
  } catch (err) {
    const reason = err instanceof FeedError ? err.message : `failed: ${rpcReason(err)}`;
    for (const target of targets) settle({ target, rows: null, reason });
    return;
  }
  await Promise.all(
    targets.map(async (target) => {
      try {
        const leftOut: LeftOutDay[] = [];
        const rows = await readTarget(
          reader,
          target,
          plan.firstDay.get(target)!,
          plan.newest,
          plan.blockOf,
          plan.head,
          { price: options.price ?? (() => null), leftOut },
        );
        settle({ target, rows, reason: null, ...(leftOut.length ? { leftOut } : {}) });
      } catch (err) {
        settle({ target, rows: null, reason: rpcReason(err) });
      }
    }),
  );
}

async function readTarget(
  reader: ChainReader,
  target: OnchainTarget,
  from: string,
  to: string,
  blockOf: (day: string) => bigint | null,
  head: bigint,
  liquity: { price: PriceLookup; leftOut: LeftOutDay[] },
): Promise<OnchainRow[]> {
  const address = target.feed.address as Address;
  if (!(await reader.hasCode(address, head)))
    throw new FeedError(`no contract at ${target.feed.address} on ${target.feed.chain}`);
  let days = daysBetween(from, to).filter((d) => blockOf(d) !== null);
  if (days.length === 0) return [];
  // Backfill as far as the node allows: the days whose state it no longer has are left out.
  let first = blockOf(days[0]!)!;
  let code = await reader.readableCode(address, first);
  if (code === null) {
    const readable = await reader.firstReadableBlock(address, first, head);
    days = days.filter((d) => blockOf(d)! >= readable);
    if (days.length === 0) return [];
    first = blockOf(days[0]!)!;
    code = await reader.hasCode(address, first);
  }
  // And the days before the contract existed.
  if (!code) {
    const deployed = await reader.firstBlockWithCode(address, first, head);
    days = days.filter((d) => blockOf(d)! >= deployed);
  }
  if (days.length < 2) return [];
  if (target.feed.kind === 'liquity-stability-pool')
    return liquityRows(reader, target, days, blockOf, liquity.price, liquity.leftOut);
  const { shareUnit, valueDecimals } = await reader.units(target.feed, head);
  let values = await Promise.all(
    days.map((d) => reader.value(target.feed, blockOf(d)!, shareUnit)),
  );
  if (target.feed.kind === 'aera-v3') {
    // The days before the vault's units had a price: not yet a series.
    const priced = values.findIndex((v) => v.value > 0n);
    if (priced === -1) return [];
    days = days.slice(priced);
    values = values.slice(priced);
  }
  const rows: OnchainRow[] = [];
  for (let i = 1; i < days.length; i++) {
    const prev = values[i - 1]!.value;
    const cur = values[i]!;
    const where = `${target.feed.address} on ${days[i]}`;
    if (prev <= 0n || cur.value <= 0n)
      throw new FeedError(`implausible value at ${where}: a share price of 0`);
    const apy = apyFromPrices(prev, cur.value);
    if (!Number.isFinite(apy) || apy > MAX_PLAUSIBLE_APY)
      throw new FeedError(
        `implausible value at ${where}: APY ${apy}% is above ${MAX_PLAUSIBLE_APY}%`,
      );
    if (apy <= -100) throw new FeedError(`implausible value at ${where}: APY ${apy}%`);
    rows.push({
      date: days[i]!,
      apy,
      pricePerShare: scaled(cur.value, valueDecimals),
      tvlUsd:
        cur.assets !== null && target.unit === 'USD' ? scaled(cur.assets, valueDecimals) : null,
    });
  }
  return rows;
}

/** A Liquity Stability Pool feed's rows: each day's gain of a 1-LUSD deposit (./liquity.ts). */
async function liquityRows(
  reader: ChainReader,
  target: OnchainTarget,
  days: string[],
  blockOf: (day: string) => bigint | null,
  price: PriceLookup,
  leftOut: LeftOutDay[],
): Promise<OnchainRow[]> {
  const address = target.feed.address as Address;
  const call = <T>(fn: () => Promise<T>) => reader.call(fn);
  const client = reader.client as unknown as Parameters<typeof readPoolState>[0];
  const states = await Promise.all(
    days.map((d) => readPoolState(client, call, address, blockOf(d)!)),
  );
  const later = await Promise.all(
    days
      .slice(1)
      .map((d, i) =>
        readLaterState(client, call, address, blockOf(d)!, states[i]!, states[i + 1]!),
      ),
  );
  const coins = liquityGainCoins(target.feed);
  const rows: OnchainRow[] = [];
  for (let i = 1; i < days.length; i++) {
    const day = days[i]!;
    const where = `${target.feed.address} on ${day}`;
    if (states[i - 1]!.P <= 0n) throw new FeedError(`implausible value at ${where}: P is 0`);
    const change = depositChange(states[i - 1]!, later[i - 1]!);
    const valued = dayGain(change, { eth: price(coins.eth, day), lqty: price(coins.lqty, day) });
    if ('missing' in valued) {
      leftOut.push({
        date: day,
        value: null,
        reason: `no ${valued.missing} price for the day (${valued.missing === 'ETH' ? coins.eth : coins.lqty} in prices.json): its gain cannot be valued`,
      });
      continue;
    }
    // A liquidation day can pay far more than a day's interest; a day beyond what the history
    // holds (ra30-v1's bound on a day's APY) is left out and reported, like DeFiLlama's.
    const apy = valued.gain > -1 ? 100 * Math.expm1(365 * Math.log1p(valued.gain)) : -100;
    if (!Number.isFinite(apy) || apy > MAX_PLAUSIBLE_APY || apy <= -100) {
      leftOut.push({
        date: day,
        value: Number.isFinite(apy) ? apy : null,
        reason: `implausible APY at ${where}: a 1-LUSD deposit's day gain of ${valued.gain} USD (APY outside (−100%, ${MAX_PLAUSIBLE_APY}%])`,
      });
      continue;
    }
    rows.push({
      date: day,
      apy,
      pricePerShare: null,
      tvlUsd: target.unit === 'USD' ? scaled(states[i]!.totalDeposits, 18) : null,
    });
  }
  return rows;
}
