/**
 * The lending base-rate components read on chain, on a real local node (anvil, started here on
 * 127.0.0.1): the test kit's TestAavePool (Aave v3's getReserveNormalizedIncome(asset)) holding a
 * liquidity index for USDC and another for USDT, and TestComet (Compound III's totalsBasic() with
 * CometStorage's TotalsBasic struct, baseIndexScale() 1e15), each index moved day by day. The
 * shipped feeds of aave-v3-usdc, aave-v3-usdt and compound-v3-usdc are pointed at them and imported
 * beside their DeFiLlama pools. Checked: each day's APR is exactly 365 × (p_d / p_{d−1} − 1) × 100
 * of the index at the day's last block, each Aave series reads its own reserve, the Comet's supply
 * index is read (not the borrow index beside it), the on-chain rows lead and DeFiLlama's are kept
 * beside them, and the kinds' fields are checked in sources.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAbi, type Address, type Hex } from 'viem';
import { apyToApr } from '../src/engine/ra30.ts';
import { setup, editFile, type TestContext } from './helpers.ts';
import {
  NOW,
  POOL,
  TODAY,
  importWith,
  readHistory,
  readSources,
  replayAllFeeds,
  withoutOnchainFeeds,
} from './import-fixtures.ts';
import type { ReplayServer } from './replay-server.ts';
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
import type { SourcesFile } from '../src/modules/yields/schemas.ts';

const RAY = 10n ** 27n;
const COMET_SCALE = 10n ** 15n;
const GENESIS = nextDay(TODAY, -10);
const YESTERDAY = nextDay(TODAY, -1);
const USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const USDT: Address = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

const POOL_ABI = parseAbi([
  'function setReserveNormalizedIncome(address asset, uint256 index)',
  'function getReserveNormalizedIncome(address asset) view returns (uint256)',
]);
const COMET_ABI = parseAbi([
  'function accrue(uint64 supplyIndex, uint64 borrowIndex, uint40 time)',
  'struct TotalsBasic { uint64 baseSupplyIndex; uint64 baseBorrowIndex; uint64 trackingSupplyIndex; uint64 trackingBorrowIndex; uint104 totalSupplyBase; uint104 totalBorrowBase; uint40 lastAccrualTime; uint8 pauseFlags; }',
  'function totalsBasic() view returns (TotalsBasic)',
]);

const day = (n: number) => nextDay(GENESIS, n);
/** A day's growth of each index: USDC's and USDT's reserves and the Comet's differ. */
const growth = {
  usdc: (n: number) => 0.00012 + 0.00003 * (n % 3),
  usdt: (n: number) => 0.0002 + 0.00001 * (n % 4),
  comet: (n: number) => 0.00015 + 0.00002 * (n % 2),
};
const grow = (v: bigint, g: number) => (v * BigInt(Math.round((1 + g) * 1e12))) / 10n ** 12n;

interface Chain {
  anvil: Anvil;
  c: Clients;
  pool: Address;
  comet: Address;
  /** Each day's index as set: USDC's and USDT's liquidity index, the Comet's supply index. */
  index: { usdc: Map<string, bigint>; usdt: Map<string, bigint>; comet: Map<string, bigint> };
  lastBlock: Map<string, bigint>;
}

async function buildChain(): Promise<Chain> {
  const compiled = await compileContracts();
  const anvil = await startAnvil(dayStart(GENESIS) + 60);
  const c = chainClients(anvil.url);
  const pool = await deployAt(c, compiled.TestAavePool!, [], dayStart(GENESIS) + 600);
  const comet = await deployAt(c, compiled.TestComet!, [], dayStart(GENESIS) + 700);
  const setIncome = (asset: Address, v: bigint) =>
    c.wallet.writeContract({
      address: pool,
      abi: POOL_ABI,
      functionName: 'setReserveNormalizedIncome',
      args: [asset, v],
    } as never) as Promise<Hex>;
  // The borrow index (the struct's next field) grows faster than the supply index, as in a market.
  const accrue = (supply: bigint, borrow: bigint, time: number) =>
    c.wallet.writeContract({
      address: comet,
      abi: COMET_ABI,
      functionName: 'accrue',
      args: [supply, borrow, time],
    } as never) as Promise<Hex>;
  const index = { usdc: new Map(), usdt: new Map(), comet: new Map() } as Chain['index'];
  const lastBlock = new Map<string, bigint>();
  let usdc = (RAY * 1_093_000n) / 1_000_000n;
  let usdt = (RAY * 1_151_000n) / 1_000_000n;
  let cometIndex = (COMET_SCALE * 1_080_000n) / 1_000_000n;
  let borrowIndex = (COMET_SCALE * 1_120_000n) / 1_000_000n;
  const setAll = (time: number) => async () => [
    await setIncome(USDC, usdc),
    await setIncome(USDT, usdt),
    await accrue(cometIndex, borrowIndex, time),
  ];
  index.usdc.set(GENESIS, usdc);
  index.usdt.set(GENESIS, usdt);
  index.comet.set(GENESIS, cometIndex);
  lastBlock.set(GENESIS, await mineAt(c, dayStart(GENESIS) + 900, setAll(dayStart(GENESIS) + 900)));
  for (let n = 1; day(n) < TODAY; n++) {
    usdc = grow(usdc, growth.usdc(n));
    usdt = grow(usdt, growth.usdt(n));
    cometIndex = grow(cometIndex, growth.comet(n));
    borrowIndex = grow(borrowIndex, 3 * growth.comet(n));
    index.usdc.set(day(n), usdc);
    index.usdt.set(day(n), usdt);
    index.comet.set(day(n), cometIndex);
    lastBlock.set(
      day(n),
      await mineAt(c, dayStart(day(n)) + 15 * 3600, setAll(dayStart(day(n)) + 15 * 3600)),
    );
  }
  // Today is not over: not imported.
  usdc = grow(usdc, 0.01);
  usdt = grow(usdt, 0.01);
  cometIndex = grow(cometIndex, 0.01);
  await mineAt(c, dayStart(TODAY) + 3600, setAll(dayStart(TODAY) + 3600));
  return { anvil, c, pool, comet, index, lastBlock };
}

const SERIES = {
  'aave-v3-usdc': 'usdc',
  'aave-v3-usdt': 'usdt',
  'compound-v3-usdc': 'comet',
} as const;

/** Each base-rate venue's feeds, by series. */
function venues(sources: SourcesFile) {
  const out = new Map<string, { feeds?: SourcesFile['sources'][number]['feeds'] }>();
  for (const b of sources.baseRates)
    if (b.components.kind === 'stablecoin')
      for (const coin of b.components.coins) for (const v of coin.venues) out.set(v.series, v);
  return out;
}

/**
 * The shipped lending feeds pointed at the test's Pool and Comet (the assets as shipped); no other
 * on-chain feed.
 */
async function feedFromChain(dir: string, chain: Chain) {
  const sources = await readSources(dir);
  const byVenue = venues(sources);
  const shipped = new Map(
    Object.keys(SERIES).map((s) => [
      s,
      byVenue.get(s)!.feeds!.find((f) => f.provider === 'onchain')!,
    ]),
  );
  withoutOnchainFeeds(sources);
  for (const [series, feed] of shipped) {
    const v = byVenue.get(series)!;
    v.feeds = [...v.feeds!, { ...feed, address: feed.kind === 'comet' ? chain.comet : chain.pool }];
  }
  await editFile(`${dir}/sources.json`, JSON.stringify(sources, null, 2));
}

let chain: Chain;
beforeAll(async () => {
  chain = await buildChain();
}, 120_000);
afterAll(async () => {
  await chain?.anvil.stop();
});

describe('the lending base-rate components shipped in sources.json', () => {
  it('read Aave v3 and SparkLend reserves, and the Compound III Comets, on chain beside DeFiLlama', async () => {
    const t = await setup({ now: () => NOW });
    try {
      const byVenue = venues(await readSources(t.dir));
      const onchain = (series: string) =>
        byVenue.get(series)!.feeds!.find((f) => f.provider === 'onchain');
      const aavePool = '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2';
      expect(onchain('aave-v3-usdc')).toMatchObject({
        chain: 'ethereum',
        kind: 'aave-v3-reserve',
        address: aavePool,
        asset: USDC,
      });
      expect(onchain('aave-v3-usdt')).toMatchObject({
        kind: 'aave-v3-reserve',
        address: aavePool,
        asset: USDT,
      });
      expect(onchain('spark-dai')).toMatchObject({
        kind: 'aave-v3-reserve',
        address: '0xC13e21B648A5Ee794902342038FF3aDAB66BE987',
        asset: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
      });
      expect(onchain('compound-v3-usdc')).toMatchObject({
        kind: 'comet',
        address: '0xc3d688B66703497DAA19211EEdff47f25384cdc3',
      });
      expect(onchain('compound-v3-usdt')).toMatchObject({
        kind: 'comet',
        address: '0x3Afdc9BCA9213A35503b077a6072F3D0d5AB0840',
      });
      for (const series of [
        'aave-v3-usdc',
        'aave-v3-usdt',
        'spark-dai',
        'compound-v3-usdc',
        'compound-v3-usdt',
      ]) {
        const feeds = byVenue.get(series)!.feeds!;
        expect(feeds.map((f) => f.provider).sort(), series).toEqual(['defillama', 'onchain']);
        expect(onchain(series), series).toMatchObject({ verified: '2026-11-26' });
      }
    } finally {
      await t.cleanup();
    }
  });
});

describe('lending markets read on chain: a reserve’s liquidity index and a Comet’s supply index', () => {
  let t: TestContext;
  let server: ReplayServer;
  beforeAll(async () => {
    t = await setup({ now: () => NOW });
    await feedFromChain(t.dir, chain);
    server = await replayAllFeeds(t.dir);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  it('imports each day’s APR from the index at the day’s last block, exactly 365 × (p_d/p_d−1 − 1) × 100', async () => {
    const result = await importWith(t, server, { rpcUrls: { ethereum: chain.anvil.url } });
    const history = await readHistory(t.dir);
    for (const [series, key] of Object.entries(SERIES)) {
      const feed = result.feeds.find((f) => f.provider === 'onchain' && f.series === series)!;
      expect([feed.ok, feed.reason, feed.newestDay], series).toEqual([true, null, YESTERDAY]);
      const rows = history.series[series]!.filter((r) => r.date > GENESIS);
      const set = chain.index[key];
      expect(rows.map((r) => r.date)).toEqual([...set.keys()].filter((d) => d > GENESIS));
      for (const row of rows) {
        const at = async (d: string) => {
          const block = chain.lastBlock.get(d)!;
          if (key === 'comet') {
            const totals = await chain.c.wallet.readContract({
              address: chain.comet,
              abi: COMET_ABI,
              functionName: 'totalsBasic',
              blockNumber: block,
            });
            return totals.baseSupplyIndex;
          }
          return chain.c.wallet.readContract({
            address: chain.pool,
            abi: POOL_ABI,
            functionName: 'getReserveNormalizedIncome',
            args: [key === 'usdc' ? USDC : USDT],
            blockNumber: block,
          });
        };
        const p = await at(row.date);
        const q = await at(nextDay(row.date, -1));
        expect(p, `${series} ${row.date}`).toBe(set.get(row.date));
        const apr = 365 * (Number(p) / Number(q) - 1) * 100;
        expect(Math.abs(apyToApr(row.apy) - apr), `${series} ${row.date}`).toBeLessThan(1e-9);
        expect(row.pricePerShare).toBeCloseTo(
          Number(p) / Number(key === 'comet' ? COMET_SCALE : RAY),
          12,
        );
        // The day's own growth, not another reserve's.
        const n = (Date.parse(row.date) - Date.parse(GENESIS)) / 86_400_000;
        expect(apyToApr(row.apy)).toBeCloseTo(365 * growth[key](n) * 100, 6);
      }
      expect(history.provenance?.[series], series).toMatchObject({
        kind: 'onchain',
        chain: 'ethereum',
        address: key === 'comet' ? chain.comet : chain.pool,
      });
      // DeFiLlama's pool is kept beside the chain's rows.
      const pool = {
        'aave-v3-usdc': POOL.aaveUsdc,
        'aave-v3-usdt': POOL.aaveUsdt,
        'compound-v3-usdc': POOL.compoundUsdc,
      }[series];
      expect(history.secondary?.[series], series).toMatchObject({ kind: 'defillama', pool });
      // A lending market's TVL is DeFiLlama's.
      const llama = new Map(history.secondary![series]!.rows.map((r) => [r.date, r.tvlUsd]));
      for (const row of rows) expect(row.tvlUsd).toBe(llama.get(row.date));
    }
  });
});

describe('the lending kinds in sources.json', () => {
  const refused = async (
    edit: (feed: Record<string, unknown>) => Record<string, unknown>,
    message: string,
  ) => {
    const t = await setup({ now: () => NOW });
    try {
      const sources = await readSources(t.dir);
      const venue = venues(sources).get('aave-v3-usdc')!;
      venue.feeds = venue.feeds!.map((f) =>
        f.provider === 'onchain' ? (edit(f as never) as never) : f,
      );
      await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
      expect(await t.deps.store.refreshFile('sources')).toBe(false);
      const health = JSON.stringify((await t.http.get('/api/health').expect(200)).body);
      expect(health).toContain(message);
    } finally {
      await t.cleanup();
    }
  };

  it('an aave-v3-reserve feed names its reserve (asset)', async () => {
    await refused(
      ({ asset: _asset, ...rest }) => rest,
      'an aave-v3-reserve feed names the reserve it reads (asset)',
    );
  });

  it('only an aave-v3-reserve feed names a reserve', async () => {
    await refused(
      (f) => ({ ...f, kind: 'comet' }),
      'only an aave-v3-reserve feed names a reserve (asset)',
    );
  });
});
