/**
 * An Aera v3 multi-depositor vault read on a real local node (anvil, started here on 127.0.0.1):
 * the test kit's TestAeraVault (ERC-20 units of 18 decimals naming its price-and-fee calculator,
 * feeCalculator()) and TestPriceAndFeeCalculator (Aera's setUnitPrice and convertUnitsToToken)
 * over a 6-decimal dollar token, compiled with solc and driven day by day: no calculator at first,
 * then a calculator without a price, then unit prices set by the accountant (twice on some days),
 * more units minted, and the vault moved to a second calculator. The shipped Gauntlet USD Alpha
 * feed (kind aera-v3, chain base) is pointed at these contracts and imported with RPC_URL_BASE.
 * Checked: each day's APR is exactly 365 × (p_d / p_{d−1} − 1) × 100 of the unit's value read
 * through the calculator the vault named at the day's last block, the TVL is all units' value, the
 * days before a price are left out, and a feed without its token is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAbi, zeroAddress, type Address, type Hex } from 'viem';
import { apyToApr } from '../src/engine/ra30.ts';
import { setup, editFile } from './helpers.ts';
import {
  NOW,
  TODAY,
  importWith,
  readHistory,
  readSources,
  replayAllFeeds,
  onlyOnchainFeedOf,
  useImportSite,
} from './import-fixtures.ts';
import {
  chainClients,
  compileContracts,
  dayStart,
  deployAt,
  mineAt,
  nextDay,
  startAnvil,
  type Anvil,
  type Clients,
} from './chain.ts';

const E18 = 10n ** 18n;
const GENESIS = nextDay(TODAY, -12);
const YESTERDAY = nextDay(TODAY, -1);
const SERIES = 'gauntlet-usd-alpha';
const SOURCE_ID = 12;

const VAULT_ABI = parseAbi([
  'function setFeeCalculator(address calculator)',
  'function mint(address to, uint256 amount)',
  'function feeCalculator() view returns (address)',
  'function totalSupply() view returns (uint256)',
]);
const CALCULATOR_ABI = parseAbi([
  'function setUnitPrice(address vault, uint128 price, uint32 timestamp)',
  'function convertUnitsToToken(address vault, address token, uint256 unitsAmount) view returns (uint256)',
]);

/** Day n after GENESIS. */
const day = (n: number) => nextDay(GENESIS, n);
/** The unit price's growth on day n (a few basis points a day). */
const growth = (n: number) => 0.0002 + 0.00003 * (n % 4);
/** The days on which the vault moves to the second calculator, and on which units are minted. */
const SWITCH_DAY = 8;
const MINT_DAY = 6;

interface Chain {
  anvil: Anvil;
  c: Clients;
  usdc: Address;
  /** A dollar token that is not the calculators' numeraire. */
  other: Address;
  vault: Address;
  first: Address;
  second: Address;
  /** The unit price (USDC base units per 1e18 units) set last on each day from day 2. */
  price: Map<string, bigint>;
  /** The last block of each day. */
  lastBlock: Map<string, bigint>;
}

async function buildChain(): Promise<Chain> {
  const compiled = await compileContracts();
  const anvil = await startAnvil(dayStart(GENESIS) + 60);
  const c = chainClients(anvil.url);
  const at = (n: number, hour: number) => dayStart(day(n)) + hour * 3600;
  const usdc = await deployAt(c, compiled.TestToken6!, [], dayStart(GENESIS) + 600);
  const other = await deployAt(c, compiled.TestToken6!, [], dayStart(GENESIS) + 650);
  const vault = await deployAt(c, compiled.TestAeraVault!, [], dayStart(GENESIS) + 700);
  const first = await deployAt(c, compiled.TestPriceAndFeeCalculator!, [usdc], at(0, 1));
  const second = await deployAt(c, compiled.TestPriceAndFeeCalculator!, [usdc], at(0, 2));
  const me = c.account.address;
  const vaultCall = (functionName: string, args: unknown[]) =>
    c.wallet.writeContract({ address: vault, abi: VAULT_ABI, functionName, args } as never);
  const setPrice = (calculator: Address, price: bigint, time: number) =>
    c.wallet.writeContract({
      address: calculator,
      abi: CALCULATOR_ABI,
      functionName: 'setUnitPrice',
      args: [vault, price, time],
    });
  const lastBlock = new Map<string, bigint>();
  lastBlock.set(GENESIS, await mineAt(c, at(0, 3)));
  // Day 1: the vault names its calculator and has units, but no price yet.
  lastBlock.set(
    day(1),
    await mineAt(c, at(1, 12), async () => [
      await vaultCall('setFeeCalculator', [first]),
      await vaultCall('mint', [me, 1_000_000n * E18]),
    ]),
  );
  // Day 2: the first price, 1.000000 USDC a unit.
  const price = new Map<string, bigint>();
  let p = 1_000_000n;
  price.set(day(2), p);
  lastBlock.set(
    day(2),
    await mineAt(c, at(2, 12), async () => [await setPrice(first, p, at(2, 12) - 60)]),
  );
  for (let n = 3; day(n) < TODAY; n++) {
    p = BigInt(Math.round(Number(p) * (1 + growth(n))));
    price.set(day(n), p);
    const calculator = n >= SWITCH_DAY ? second : first;
    const sends: (() => Promise<Hex>)[] = [];
    if (n === SWITCH_DAY) {
      // The new calculator gets the price, then the vault names it; the old one keeps its last.
      sends.push(() => setPrice(second, p, at(n, 20) - 60));
      sends.push(() => vaultCall('setFeeCalculator', [second]));
    } else sends.push(() => setPrice(calculator, p, at(n, 20) - 60));
    if (n === MINT_DAY) sends.push(() => vaultCall('mint', [me, 500_000n * E18]));
    if (n % 2 === 1) {
      // Two prices on odd days: the day's last block holds the later one.
      await mineAt(c, at(n, 9), async () => [await setPrice(calculator, p - 50n, at(n, 9) - 60)]);
    }
    lastBlock.set(
      day(n),
      await mineAt(c, at(n, 20), async () => {
        const hashes: Hex[] = [];
        for (const send of sends) hashes.push(await send());
        return hashes;
      }),
    );
  }
  // Today is not over: its price (0.1 % up) is not imported until tomorrow.
  const todays = p + p / 1000n;
  price.set(TODAY, todays);
  lastBlock.set(
    TODAY,
    await mineAt(c, dayStart(TODAY) + 6 * 3600, async () => [
      await setPrice(second, todays, dayStart(TODAY) + 6 * 3600 - 60),
    ]),
  );
  return { anvil, c, usdc, other, vault, first, second, price, lastBlock };
}

/** One unit's value read straight from the node: the calculator the vault named at `block`. */
async function unitValue(chain: Chain, block: bigint, units = E18): Promise<bigint> {
  const calculator = await chain.c.wallet.readContract({
    address: chain.vault,
    abi: VAULT_ABI,
    functionName: 'feeCalculator',
    blockNumber: block,
  });
  if (calculator === zeroAddress) return 0n;
  return chain.c.wallet.readContract({
    address: calculator,
    abi: CALCULATOR_ABI,
    functionName: 'convertUnitsToToken',
    args: [chain.vault, chain.usdc, units],
    blockNumber: block,
  });
}

/** The shipped feed of Gauntlet USD Alpha, pointed at the test's vault and token; no other on-chain feed
 * (the TVL is then the vault's own). */
function feedFromChain(dir: string, chain: Chain, change: Record<string, unknown> = {}) {
  return onlyOnchainFeedOf(dir, SOURCE_ID, { address: chain.vault, token: chain.usdc, ...change });
}

let chain: Chain;
beforeAll(async () => {
  chain = await buildChain();
}, 120_000);
afterAll(async () => {
  await chain?.anvil.stop();
});

describe('an Aera v3 vault read through its price-and-fee calculator', () => {
  const site = useImportSite((dir) => feedFromChain(dir, chain));

  it('ships Gauntlet USD Alpha as an aera-v3 feed on Base valued in USDC', async () => {
    const shipped = (await readSources(site.t.dir)).sources.find((s) => s.id === SOURCE_ID)!;
    expect(shipped.series).toBe(SERIES);
    expect(shipped.feeds?.find((f) => f.provider === 'onchain')).toMatchObject({
      chain: 'base',
      kind: 'aera-v3',
    });
  });

  it('imports each day’s APR from one unit’s value at the day’s last block, exactly 365 × (p_d/p_d−1 − 1) × 100', async () => {
    const result = await importWith(site.t, site.server, { rpcUrls: { base: chain.anvil.url } });
    const feed = result.feeds.find((f) => f.provider === 'onchain' && f.series === SERIES)!;
    expect([feed.ok, feed.reason, feed.newestDay]).toEqual([true, null, YESTERDAY]);

    const rows = (await readHistory(site.t.dir)).series[SERIES]!;
    // From the day after the first price to yesterday: no calculator (day 0) and no price (day 1)
    // are not days of the series; today is not over.
    const priced = [...chain.price.keys()].filter((d) => d < TODAY);
    expect(rows.map((r) => r.date)).toEqual(priced.slice(1));
    expect(rows[0]!.date).toBe(day(3));
    for (const row of rows) {
      const block = chain.lastBlock.get(row.date)!;
      const before = chain.lastBlock.get(nextDay(row.date, -1))!;
      const p = await unitValue(chain, block);
      const q = await unitValue(chain, before);
      // What the node answers is the price set last that day, through the calculator of the day.
      expect(p, row.date).toBe(chain.price.get(row.date));
      expect(q).toBe(chain.price.get(nextDay(row.date, -1)));
      const apr = 365 * (Number(p) / Number(q) - 1) * 100;
      expect(Math.abs(apyToApr(row.apy) - apr), row.date).toBeLessThan(1e-9);
      expect(row.pricePerShare).toBeCloseTo(Number(p) / 1e6, 12);
      // TVL: every unit's value in USDC (a dollar source).
      const units = row.date >= day(MINT_DAY) ? 1_500_000n : 1_000_000n;
      expect(row.tvlUsd, row.date).toBeCloseTo(Number(units * p) / 1e6, 6);
    }
    // The vault's move to the second calculator is followed: the first keeps its old price.
    const afterSwitch = chain.lastBlock.get(day(SWITCH_DAY + 1))!;
    const stale = await chain.c.wallet.readContract({
      address: chain.first,
      abi: CALCULATOR_ABI,
      functionName: 'convertUnitsToToken',
      args: [chain.vault, chain.usdc, E18],
      blockNumber: afterSwitch,
    });
    expect(stale).toBe(chain.price.get(day(SWITCH_DAY - 1)));
    const switched = rows.find((r) => r.date === day(SWITCH_DAY + 1))!;
    expect(apyToApr(switched.apy)).toBeCloseTo(365 * growth(SWITCH_DAY + 1) * 100, 1);

    expect((await readHistory(site.t.dir)).provenance?.[SERIES]).toMatchObject({
      kind: 'onchain',
      chain: 'base',
      address: chain.vault,
      asOf: YESTERDAY,
    });
  });

  it('serves the vault as live data read on Base', async () => {
    const sources = (await site.t.http.get('/api/sources').expect(200)).body as {
      id: number;
      feeds: Record<string, unknown>[];
    }[];
    expect(sources.find((s) => s.id === SOURCE_ID)!.feeds).toEqual([
      { provider: 'onchain', chain: 'base', kind: 'aera-v3', address: chain.vault, series: SERIES },
    ]);
    const history = (await site.t.http.get(`/api/history?id=${SOURCE_ID}&range=30D`).expect(200))
      .body as { data: unknown[]; provenance: { kind: string; asOf: string | null } };
    expect(history.provenance).toMatchObject({ kind: 'onchain', asOf: YESTERDAY });
    expect(history.data).toHaveLength(chain.price.size - 2);
  });

  it('imports only the new day afterwards', async () => {
    const before = (await readHistory(site.t.dir)).series[SERIES]!;
    const later = await importWith(site.t, site.server, {
      rpcUrls: { base: chain.anvil.url },
      now: () => new Date(`${nextDay(TODAY)}T12:00:00Z`),
    });
    const feed = later.feeds.find((f) => f.provider === 'onchain' && f.series === SERIES)!;
    expect([feed.ok, feed.days, feed.added, feed.newestDay]).toEqual([true, 1, 1, TODAY]);
    const rows = (await readHistory(site.t.dir)).series[SERIES]!;
    expect(rows.slice(0, -1)).toEqual(before);
    const p = Number(chain.price.get(TODAY)!);
    const q = Number(chain.price.get(YESTERDAY)!);
    expect(rows.at(-1)!.date).toBe(TODAY);
    expect(Math.abs(apyToApr(rows.at(-1)!.apy) - 365 * (p / q - 1) * 100)).toBeLessThan(1e-9);
  });
});

describe('an aera-v3 feed', () => {
  it('valued in a token the calculator cannot convert fails with a reason; the series keeps its data', async () => {
    const t = await setup({ now: () => NOW });
    const server = await replayAllFeeds(t.dir);
    try {
      await feedFromChain(t.dir, chain, { token: chain.other });
      const before = (await readHistory(t.dir)).series[SERIES];
      const result = await importWith(t, server, { rpcUrls: { base: chain.anvil.url } });
      const feed = result.feeds.find((f) => f.provider === 'onchain' && f.series === SERIES)!;
      expect(feed.ok).toBe(false);
      expect(feed.reason).toMatch(/"convertUnitsToToken" reverted[\s\S]*not the numeraire/);
      expect(result.ok).toBe(false);
      expect((await readHistory(t.dir)).series[SERIES]).toEqual(before);
    } finally {
      await server.close();
      await t.cleanup();
    }
  });

  it('must name its token in sources.json, and only an aera-v3 feed may', async () => {
    const t = await setup({ now: () => NOW });
    try {
      const sources = await readSources(t.dir);
      const source = sources.sources.find((s) => s.id === SOURCE_ID)!;
      const feed = source.feeds!.find((f) => f.provider === 'onchain')!;
      const { token: _token, ...withoutToken } = feed as typeof feed & { token?: string };
      source.feeds = [withoutToken as never];
      await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
      expect(await t.deps.store.refreshFile('sources')).toBe(false);
      let health = JSON.stringify((await t.http.get('/api/health').expect(200)).body);
      expect(health).toContain('an aera-v3 feed names the token its units are valued in (token)');

      source.feeds = [{ ...withoutToken, kind: 'erc4626', token: chain.usdc } as never];
      await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
      expect(await t.deps.store.refreshFile('sources')).toBe(false);
      health = JSON.stringify((await t.http.get('/api/health').expect(200)).body);
      expect(health).toContain('only an aera-v3 feed names a token (token)');
    } finally {
      await t.cleanup();
    }
  });
});
