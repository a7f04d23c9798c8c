/**
 * Liquity v1's Stability Pool read from its own state on a real local node (anvil, started here on
 * 127.0.0.1): a contract with the pool's getters and its updates of P, S and G (api/test/chain.ts
 * TestStabilityPool), compiled with solc and driven day by day with liquidations and LQTY
 * issuance. ETH and LQTY prices come from the replay server in the coins API's shape. Checked
 * against hand-computed figures: each day's APR is 365 × (ETH gain × ETH price + LQTY gain ×
 * LQTY price − LUSD lost) × 100 for a 1-LUSD deposit; a day without the price of a token it paid
 * out, and a day beyond what the history holds, are left out and reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAbi, type Address, type Hex } from 'viem';
import { apyToApr } from '../src/engine/ra30.ts';
import { setup, editFile, type TestContext } from './helpers.ts';
import {
  NOW,
  TODAY,
  importWith,
  readHistory,
  readSources,
  replayAllFeeds,
  withoutOnchainFeeds,
} from './import-fixtures.ts';
import { coinsBody, type CoinPricePoint, type ReplayServer } from './replay-server.ts';
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
const GENESIS = nextDay(TODAY, -8);
const LQTY = '0x6DEA81C8171D0bA574754EF6F8b412F2Ed88c54D';
const LQTY_COIN = `ethereum:${LQTY}`;
const ETH_COIN = 'coingecko:ethereum';

const POOL_ABI = parseAbi([
  'function deposit(uint256 amount)',
  'function issueLQTY(uint256 amount)',
  'function liquidate(uint256 debtToOffset, uint256 collToAdd)',
]);

/** Prices by day: ETH at 2000 USD but 1980 on day 5; LQTY at 2 USD, 2.5 on day 6, none on day 4. */
const ethPrice = (day: string) => (day === nextDay(GENESIS, 5) ? 1980 : 2000);
const lqtyPrice = (day: string) =>
  day === nextDay(GENESIS, 4) ? null : day === nextDay(GENESIS, 6) ? 2.5 : 2;

/**
 * The days after GENESIS (a deposit of 1,000,000 LUSD) and what happens on each, with the APR a
 * 1-LUSD deposit made at the previous day's last block earns (null: left out).
 */
const PLAN: {
  day: number;
  what: string;
  apr: number | null;
  tvl?: number;
}[] = [
  // 100 LQTY over 1,000,000 LUSD: 1e-4 LQTY per LUSD × 2 USD.
  { day: 1, what: 'issue 100 LQTY', apr: 365 * 2e-4 * 100, tvl: 1_000_000 },
  // 10,000 LUSD of debt for 5.5 ETH: 5.5e-6 ETH × 2000 − 0.01 LUSD lost; then 99 LQTY over
  // 990,000 LUSD at P = 0.99: 0.99e-4 LQTY × 2.
  { day: 2, what: 'liquidate, then issue 99 LQTY', apr: 365 * 0.001198 * 100, tvl: 990_000 },
  { day: 3, what: 'nothing', apr: 0, tvl: 990_000 },
  // LQTY issued on a day without an LQTY price: left out.
  { day: 4, what: 'issue 99 LQTY', apr: null },
  // 99,000 LUSD of debt for 49.5 ETH: 5e-5 ETH × 1980 − 0.1 LUSD lost.
  { day: 5, what: 'liquidate at a loss', apr: 365 * -0.001 * 100, tvl: 891_000 },
  // 89.1 LQTY over 891,000 LUSD: 1e-4 LQTY × 2.5.
  { day: 6, what: 'issue 89.1 LQTY', apr: 365 * 2.5e-4 * 100, tvl: 891_000 },
  // 89,100 LUSD of debt for 89.1 ETH: 1e-4 ETH × 2000 − 0.1 = 0.1 in a day, beyond the history's
  // bound on a day's APY: left out.
  { day: 7, what: 'liquidate at a large gain', apr: null },
];

interface Chain {
  anvil: Anvil;
  c: Clients;
  pool: Address;
}

async function buildChain(): Promise<Chain> {
  const compiled = await compileContracts();
  const anvil = await startAnvil(dayStart(GENESIS) + 60);
  const c = chainClients(anvil.url);
  const pool = await deployAt(c, compiled.TestStabilityPool!, [], dayStart(GENESIS) + 600);
  const write = (functionName: string, args: unknown[]) =>
    c.wallet.writeContract({
      address: pool,
      abi: POOL_ABI,
      functionName,
      args,
    } as never) as Promise<Hex>;
  await mineAt(c, dayStart(GENESIS) + 700, async () => [
    await write('deposit', [1_000_000n * E18]),
  ]);
  const at = (n: number, hour: number) => dayStart(nextDay(GENESIS, n)) + hour * 3600;
  await mineAt(c, at(1, 12), async () => [await write('issueLQTY', [100n * E18])]);
  await mineAt(c, at(2, 12), async () => [
    await write('liquidate', [10_000n * E18, (55n * E18) / 10n]),
  ]);
  await mineAt(c, at(2, 20), async () => [await write('issueLQTY', [99n * E18])]);
  await mineAt(c, at(3, 12));
  await mineAt(c, at(4, 12), async () => [await write('issueLQTY', [99n * E18])]);
  await mineAt(c, at(5, 12), async () => [
    await write('liquidate', [99_000n * E18, (495n * E18) / 10n]),
  ]);
  await mineAt(c, at(6, 12), async () => [await write('issueLQTY', [(891n * E18) / 10n])]);
  await mineAt(c, at(7, 12), async () => [
    await write('liquidate', [89_100n * E18, (891n * E18) / 10n]),
  ]);
  // Today is not over: not imported.
  await mineAt(c, at(8, 6), async () => [await write('issueLQTY', [1_000n * E18])]);
  return { anvil, c, pool };
}

/** One price a day, an hour after midnight, for the 60 days up to today (the missing left out). */
function pricesBody(coin: string, price: (day: string) => number | null) {
  const points: CoinPricePoint[] = [];
  for (let d = nextDay(TODAY, -59); d <= TODAY; d = nextDay(d)) {
    const p = price(d);
    if (p !== null) points.push({ timestamp: dayStart(d) + 3600, price: p });
  }
  return { kind: 'json' as const, body: coinsBody(coin, points) };
}

export const liquityFeed = (address: string) => ({
  provider: 'onchain',
  chain: 'ethereum',
  kind: 'liquity-stability-pool',
  address,
  lqtyToken: LQTY,
  link: 'https://example.com/docs/contracts',
  verified: '2026-11-20',
});

/** Liquity (source 3) fed from the test's pool; every other on-chain feed removed. */
async function feedLiquity(dir: string, pool: Address) {
  const sources = await readSources(dir);
  withoutOnchainFeeds(sources);
  const liquity = sources.sources.find((s) => s.id === 3)!;
  Object.assign(liquity, { feeds: [liquityFeed(pool)] });
  delete (liquity as { feedNote?: string }).feedNote;
  await editFile(`${dir}/sources.json`, JSON.stringify(sources, null, 2));
}

let chain: Chain;
beforeAll(async () => {
  chain = await buildChain();
}, 120_000);
afterAll(async () => {
  await chain?.anvil.stop();
});

describe("Liquity's Stability Pool read from P, S and G", () => {
  let t: TestContext;
  let server: ReplayServer;
  beforeAll(async () => {
    t = await setup({ now: () => NOW });
    await feedLiquity(t.dir, chain.pool);
    server = await replayAllFeeds(t.dir);
    server.setCoin(ETH_COIN, pricesBody(ETH_COIN, ethPrice));
    server.setCoin(LQTY_COIN, pricesBody(LQTY_COIN, lqtyPrice));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  it('imports each day’s APR from the gains and loss of a 1-LUSD deposit, valued at the day’s prices', async () => {
    const result = await importWith(t, server, { rpcUrls: { ethereum: chain.anvil.url } });
    const feed = result.feeds.find((f) => f.provider === 'onchain' && f.series === 'liquity-sp')!;
    expect([feed.ok, feed.reason, feed.newestDay]).toEqual([true, null, nextDay(GENESIS, 6)]);
    // Both tokens' prices were imported for it.
    for (const coin of [ETH_COIN, LQTY_COIN])
      expect(result.prices.find((p) => p.coin === coin)).toMatchObject({ ok: true });

    const rows = (await readHistory(t.dir)).series['liquity-sp']!;
    const kept = PLAN.filter((p) => p.apr !== null);
    expect(rows.map((r) => r.date)).toEqual(kept.map((p) => nextDay(GENESIS, p.day)));
    for (const [i, p] of kept.entries()) {
      expect(Math.abs(apyToApr(rows[i]!.apy) - p.apr!), `${p.what}`).toBeLessThan(1e-9);
      expect(rows[i]!.tvlUsd).toBeCloseTo(p.tvl!, 6);
      expect(rows[i]!.pricePerShare).toBeUndefined();
    }
    // The days left out are reported, each with why.
    expect(feed.leftOut?.map((d) => d.date)).toEqual([nextDay(GENESIS, 4), nextDay(GENESIS, 7)]);
    expect(feed.leftOut?.[0]?.reason).toMatch(
      new RegExp(`^no LQTY price for the day \\(${LQTY_COIN} in prices.json\\)`),
    );
    expect(feed.leftOut?.[1]?.reason).toMatch(/^implausible APY at /);
    expect(feed.leftOut?.[1]?.value).toBeGreaterThan(1000);
    expect((await readHistory(t.dir)).provenance?.['liquity-sp']).toMatchObject({
      kind: 'onchain',
      chain: 'ethereum',
      address: chain.pool,
    });
  });

  it('serves Liquity as live data read on chain, no longer "No live data"', async () => {
    const history = (await t.http.get('/api/history?id=3&range=30D').expect(200)).body as {
      data: { timestamp: number; apr: number }[];
      provenance: { kind: string; asOf: string | null };
    };
    expect(history.provenance).toMatchObject({ kind: 'onchain', asOf: nextDay(GENESIS, 6) });
    expect(history.data).toHaveLength(PLAN.filter((p) => p.apr !== null).length);
    const sources = (await t.http.get('/api/sources').expect(200)).body as {
      id: number;
      feeds: Record<string, unknown>[];
    }[];
    expect(sources.find((s) => s.id === 3)!.feeds).toEqual([
      {
        provider: 'onchain',
        chain: 'ethereum',
        kind: 'liquity-stability-pool',
        address: chain.pool,
        series: 'liquity-sp',
      },
    ]);
  });

  it('imports only the new days afterwards, reading the newest stored day again as the reference', async () => {
    const before = (await readHistory(t.dir)).series['liquity-sp']!;
    const later = await importWith(t, server, {
      rpcUrls: { ethereum: chain.anvil.url },
      now: () => new Date(`${nextDay(TODAY)}T12:00:00Z`),
    });
    const feed = later.feeds.find((f) => f.provider === 'onchain' && f.series === 'liquity-sp')!;
    expect(feed.ok).toBe(true);
    const rows = (await readHistory(t.dir)).series['liquity-sp']!;
    expect(rows.slice(0, before.length)).toEqual(before);
    // Today's 1,000 LQTY over 801,900 LUSD at P = 0.891 × 0.9 (from yesterday's liquidation),
    // valued at 2 USD, for a deposit snapshotted at yesterday's last block.
    const last = rows.at(-1)!;
    expect(last.date).toBe(TODAY);
    const lqtyPerLusd = 1000 / 801_900;
    expect(Math.abs(apyToApr(last.apy) - 365 * lqtyPerLusd * 2 * 100)).toBeLessThan(1e-6);
  });
});

describe('a Liquity feed in sources.json', () => {
  it('must name the LQTY token, and only a Liquity feed may', async () => {
    const t = await setup({ now: () => NOW });
    try {
      const sources = await readSources(t.dir);
      const liquity = sources.sources.find((s) => s.id === 3)!;
      const { lqtyToken: _lqty, ...withoutToken } = liquityFeed(chain.pool);
      Object.assign(liquity, { feeds: [withoutToken] });
      delete (liquity as { feedNote?: string }).feedNote;
      await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
      expect(await t.deps.store.refreshFile('sources')).toBe(false);
      const health = (await t.http.get('/api/health').expect(200)).body as unknown;
      expect(JSON.stringify(health)).toContain(
        'a liquity-stability-pool feed names the LQTY token (lqtyToken)',
      );
    } finally {
      await t.cleanup();
    }
  });
});

describe('the shipped sources.json', () => {
  it('names each checked contract as an on-chain feed the import accepts (skipped without RPC_URL_<CHAIN>)', async () => {
    const t = await setup({ now: () => NOW });
    const server = await replayAllFeeds(t.dir);
    try {
      const result = await importWith(t, server);
      expect(result.ok).toBe(true);
      const skipped = Object.fromEntries(
        (result.skipped ?? []).map((s) => [s.series, `${s.chain}:${s.address}`]),
      );
      expect(skipped).toEqual({
        'sky-susds': 'ethereum:0xa3931d71877C0E7a3148CB7Eb4463524FEc27fbD',
        'ethena-susde': 'ethereum:0x9D39A5DE30e57443BfF2A8307A4256c8797A3497',
        'fluid-gho': 'ethereum:0x6A29A46E21C730DcA1d8b23d637c101cec605C5B',
        'liquity-sp': 'ethereum:0x66017D22b0f8556afDd19FC67041899Eb65a21bb',
        'lido-steth': 'ethereum:0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84',
        'sky-dsr-dai': 'ethereum:0x83F20F44975D03b1b09e64809B757c47f942BEeA',
        'rocketpool-reth': 'ethereum:0xae78736Cd615f374D3085123A210448E74Fc6393',
        'resolv-stusr': 'ethereum:0x1202F5C7b4B9E47a1A484E8B270be34dbbC75055',
        'morpho-mevcap-weth': 'ethereum:0x9a8bC3B04b7f3D87cfC09ba407dCED575f2d61D8',
        'gauntlet-usd-alpha': 'base:0x000000000001CdB57E58Fa75Fe420a0f4D6640D5',
        'coinbase-cbeth': 'ethereum:0xBe9895146f7AF43049ca1c1AE358B0541Ea49704',
        'etherfi-liquid-eth': 'ethereum:0x9AA79C84b79816ab920bBcE20f8f74557B514734',
        'fluid-steth-vault': 'ethereum:0xA0D3707c569ff8C87FA923d3823eC5D81c98Be78',
        'aave-v3-usdc': 'ethereum:0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2',
        'aave-v3-usdt': 'ethereum:0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2',
        'spark-dai': 'ethereum:0xC13e21B648A5Ee794902342038FF3aDAB66BE987',
        'compound-v3-usdc': 'ethereum:0xc3d688B66703497DAA19211EEdff47f25384cdc3',
        'compound-v3-usdt': 'ethereum:0x3Afdc9BCA9213A35503b077a6072F3D0d5AB0840',
      });
      // Liquity's feed adds ETH and LQTY to the prices imported.
      expect(result.prices.map((p) => p.coin)).toEqual(
        expect.arrayContaining([ETH_COIN, LQTY_COIN]),
      );
    } finally {
      await server.close();
      await t.cleanup();
    }
  });
});
