/**
 * On-chain feeds against a real local Ethereum node (anvil, started here on 127.0.0.1): an
 * OpenZeppelin ERC-4626 vault over a mintable token and a rate contract, compiled with solc and
 * deployed with viem, their share price moved day by day in blocks mined on successive UTC days.
 * The importer reads them over JSON-RPC (nothing below the wire is replaced); DeFiLlama's side is
 * the replay server. Checked: the daily APRs (365 × (p_d / p_{d−1} − 1) × 100), the two feeds
 * kept side by side, the feeds-disagree warning and GREAT, GET /api/sources' feeds, the
 * incremental import, an unreachable RPC and a missing RPC_URL_<CHAIN>.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAbi, type Address, type Hex } from 'viem';
import { apyToApr } from '../src/engine/ra30.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { setup, editFile, type TestContext } from './helpers.ts';
import {
  NOW,
  POOL,
  TODAY,
  importWith,
  readHistory,
  readSources,
  replayAllFeeds,
  strategies,
  withoutOnchainFeeds,
} from './import-fixtures.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';
import { BAD_HEAD_TIMESTAMP, startRpcStandIn, type RpcStandIn } from './rpc-stand-in.ts';
import type { ImportStatusFile } from '../src/modules/import/schemas.ts';
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

const GENESIS_DAY = '2026-10-10';
const YESTERDAY = nextDay(TODAY, -1);
const E18 = 10n ** 18n;

const VAULT_ABI = parseAbi([
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
]);
const TOKEN_ABI = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);
const RATE_ABI = parseAbi([
  'function setRate(uint256 r)',
  'function getExchangeRate() view returns (uint256)',
]);

interface Chain {
  anvil: Anvil;
  c: Clients;
  token: Address;
  agreeing: Address;
  disagreeing: Address;
  rate: Address;
  /** The last block of each day from the genesis day to yesterday. */
  lastBlock: Map<string, bigint>;
}

/** Daily growth of each contract on day i (i = 1 the day after the genesis day). */
const growthAgreeing = (i: number) => 0.0002 + 0.00002 * (i % 3);
const growthDisagreeing = () => 0.0004;
const growthRate = (i: number) => 0.0001 * (1 + (i % 2));
const ppm = (x: number) => BigInt(Math.round(x * 1e9));

async function buildChain(): Promise<Chain> {
  const compiled = await compileContracts();
  const anvil = await startAnvil(dayStart(GENESIS_DAY) + 60);
  const c = chainClients(anvil.url);
  const at = (day: string, seconds: number) => dayStart(day) + seconds;
  const token = await deployAt(c, compiled.TestToken!, [], at(GENESIS_DAY, 600));
  const agreeing = await deployAt(c, compiled.TestVault!, [token], at(GENESIS_DAY, 700));
  const disagreeing = await deployAt(c, compiled.TestVault!, [token], at(GENESIS_DAY, 800));
  const rate = await deployAt(c, compiled.TestRate!, [], at(GENESIS_DAY, 900));
  const deposit = 1_000_000n * E18;
  const me = c.account.address;
  const write = (
    address: Address,
    abi: typeof TOKEN_ABI | typeof VAULT_ABI | typeof RATE_ABI,
    functionName: string,
    args: unknown[],
  ) => c.wallet.writeContract({ address, abi, functionName, args } as never) as Promise<Hex>;
  await mineAt(c, at(GENESIS_DAY, 1000), async () => [
    await write(token, TOKEN_ABI, 'mint', [me, 10n * deposit]),
  ]);
  await mineAt(c, at(GENESIS_DAY, 1100), async () => [
    await write(token, TOKEN_ABI, 'approve', [agreeing, 10n * deposit]),
    await write(token, TOKEN_ABI, 'approve', [disagreeing, 10n * deposit]),
  ]);
  await mineAt(c, at(GENESIS_DAY, 1200), async () => [
    await write(agreeing, VAULT_ABI, 'deposit', [deposit, me]),
    await write(disagreeing, VAULT_ABI, 'deposit', [deposit, me]),
  ]);
  const lastBlock = new Map<string, bigint>();
  lastBlock.set(GENESIS_DAY, await mineAt(c, at(GENESIS_DAY, 1300)));

  let assetsA = deposit;
  let assetsB = deposit;
  let r = E18;
  let i = 1;
  // Yield paid each day: half at noon, half at 20:00 on odd days (the day's last block counts).
  for (let day = nextDay(GENESIS_DAY); day <= TODAY; day = nextDay(day), i++) {
    const mintA = (assetsA * ppm(growthAgreeing(i))) / 1_000_000_000n;
    const mintB = (assetsB * ppm(growthDisagreeing())) / 1_000_000_000n;
    assetsA += mintA;
    assetsB += mintB;
    r = (r * (1_000_000_000n + ppm(growthRate(i)))) / 1_000_000_000n;
    const split = i % 2 === 1;
    const send = (a: bigint, b: bigint, rateNow: bigint | null) => async () => [
      await write(token, TOKEN_ABI, 'mint', [agreeing, a]),
      await write(token, TOKEN_ABI, 'mint', [disagreeing, b]),
      ...(rateNow === null ? [] : [await write(rate, RATE_ABI, 'setRate', [rateNow])]),
    ];
    if (day === TODAY) {
      // Today is not over: whatever happens today is not imported yet.
      lastBlock.set(day, await mineAt(c, at(day, 6 * 3600), send(mintA * 2n, mintB * 2n, r)));
      break;
    }
    let last: bigint;
    if (split) {
      await mineAt(c, at(day, 12 * 3600), send(mintA / 2n, mintB / 2n, null));
      last = await mineAt(c, at(day, 20 * 3600), send(mintA - mintA / 2n, mintB - mintB / 2n, r));
    } else last = await mineAt(c, at(day, 12 * 3600 + i), send(mintA, mintB, r));
    lastBlock.set(day, last);
  }
  return { anvil, c, token, agreeing, disagreeing, rate, lastBlock };
}

/** The share price p_d of each day, read straight from the node at the day's last block. */
async function pricesOf(
  chain: Chain,
  read: (block: bigint) => Promise<bigint>,
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  for (const [day, block] of chain.lastBlock) if (day < TODAY) out.set(day, await read(block));
  return out;
}

function expectedAprs(prices: Map<string, bigint>): Map<string, number> {
  const days = [...prices.keys()].sort();
  const out = new Map<string, number>();
  for (let k = 1; k < days.length; k++) {
    const p = Number(prices.get(days[k]!)!);
    const q = Number(prices.get(days[k - 1]!)!);
    out.set(days[k]!, 365 * (p / q - 1) * 100);
  }
  return out;
}

const onchainFeed = (address: Address, extra: Record<string, unknown> = {}) => ({
  provider: 'onchain',
  chain: 'ethereum',
  kind: 'erc4626',
  address,
  link: 'https://example.com/docs/contracts',
  verified: '2026-11-23',
  ...extra,
});

/**
 * Source 2 (sky-susds) and 5 (ethena-susde) read from the two vaults, rETH from the rate contract;
 * the shipped on-chain feeds of the sources `keep` names stay as they are.
 */
async function feedFromChain(dir: string, chain: Chain, keep: number[] = []): Promise<void> {
  const sources = await readSources(dir);
  const byId = (id: number) => sources.sources.find((s) => s.id === id)!;
  Object.assign(byId(2), {
    feeds: [{ provider: 'defillama', pool: POOL.susds }, onchainFeed(chain.agreeing)],
  });
  Object.assign(byId(5), {
    feeds: [{ provider: 'defillama', pool: POOL.susde }, onchainFeed(chain.disagreeing)],
  });
  const defi = sources.baseRates.find((b) => b.key === 'base-defi')!;
  if (defi.components.kind !== 'crypto') throw new Error('base-defi is not crypto');
  const reth = defi.components.assets.find((a) => 'series' in a && a.series === 'rocketpool-reth')!;
  Object.assign(reth, {
    feeds: [
      { provider: 'defillama', pool: POOL.reth },
      onchainFeed(chain.rate, { kind: 'rate', call: 'getExchangeRate' }),
    ],
  });
  // No feed of these sources elsewhere in the file: every on-chain feed is in the shipped file's
  // place of the test's contracts.
  withoutOnchainFeeds(sources, { ids: [2, 5, ...keep], series: ['rocketpool-reth'] });
  await editFile(`${dir}/sources.json`, JSON.stringify(sources, null, 2));
}

/** DeFiLlama's side: sUSDS near the vault's APR (agreeing), sUSDe far from it. */
function llamaSays(server: ReplayServer) {
  server.set(POOL.susds, {
    kind: 'json',
    body: chartBody(dailyPoints({ lastDay: TODAY, days: 60, apy: 8.3, tvlUsd: 3e9 })),
  });
  server.set(POOL.susde, {
    kind: 'json',
    body: chartBody(dailyPoints({ lastDay: TODAY, days: 60, apy: 5, tvlUsd: 4e9 })),
  });
}

interface SourceRow {
  id: number;
  feeds: Record<string, unknown>[];
  warnings: {
    kind: string;
    closedOn: string | null;
    figures: Record<string, number>;
    text: string;
  }[];
}

let chain: Chain;
beforeAll(async () => {
  chain = await buildChain();
}, 120_000);
afterAll(async () => {
  await chain?.anvil.stop();
});

describe('on-chain feeds read from a local node', () => {
  let t: TestContext;
  let server: ReplayServer;
  beforeAll(async () => {
    t = await setup({ now: () => NOW });
    await feedFromChain(t.dir, chain);
    server = await replayAllFeeds(t.dir);
    llamaSays(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  it('imports each day’s APR from the share price at the day’s last block, exactly 365 × (p_d/p_d−1 − 1) × 100', async () => {
    const result = await importWith(t, server, { rpcUrls: { ethereum: chain.anvil.url } });
    const chainFeeds = result.feeds.filter((f) => f.provider === 'onchain');
    expect(chainFeeds.map((f) => [f.series, f.ok, f.reason])).toEqual([
      ['sky-susds', true, null],
      ['ethena-susde', true, null],
      ['rocketpool-reth', true, null],
    ]);
    const history = await readHistory(t.dir);

    const vaultPrices = (address: Address) =>
      pricesOf(chain, (block) =>
        chain.c.wallet.readContract({
          address,
          abi: VAULT_ABI,
          functionName: 'convertToAssets',
          args: [E18],
          blockNumber: block,
        }),
      );
    const cases: [string, Map<string, bigint>][] = [
      ['sky-susds', await vaultPrices(chain.agreeing)],
      ['ethena-susde', await vaultPrices(chain.disagreeing)],
      [
        'rocketpool-reth',
        await pricesOf(chain, (block) =>
          chain.c.wallet.readContract({
            address: chain.rate,
            abi: RATE_ABI,
            functionName: 'getExchangeRate',
            blockNumber: block,
          }),
        ),
      ],
    ];
    for (const [series, prices] of cases) {
      const expected = expectedAprs(prices);
      const rows = history.series[series]!;
      // From the day after the contracts appeared to yesterday; today is not over.
      expect(rows.map((r) => r.date)).toEqual([...expected.keys()]);
      expect(rows[0]!.date).toBe(nextDay(GENESIS_DAY));
      expect(rows.at(-1)!.date).toBe(YESTERDAY);
      for (const row of rows) {
        expect(Math.abs(apyToApr(row.apy) - expected.get(row.date)!)).toBeLessThan(1e-9);
        expect(row.pricePerShare).toBeCloseTo(Number(prices.get(row.date)!) / 1e18, 12);
      }
      expect(history.provenance?.[series]).toMatchObject({
        kind: 'onchain',
        chain: 'ethereum',
        asOf: YESTERDAY,
      });
    }
    // DeFiLlama's rows are kept beside the chain's, and the chain's rows take DeFiLlama's TVL.
    expect(history.secondary?.['sky-susds']).toMatchObject({ kind: 'defillama', pool: POOL.susds });
    expect(history.secondary?.['sky-susds']?.rows).toHaveLength(60);
    expect(history.secondary?.['sky-susds']?.rows.at(-1)).toMatchObject({ date: TODAY, apy: 8.3 });
    expect(history.series['sky-susds']!.at(-1)!.tvlUsd).toBe(3e9);
  });

  it('serves both feeds of a source in GET /api/sources', async () => {
    const rows = (await t.http.get('/api/sources').expect(200)).body as SourceRow[];
    expect(rows.find((r) => r.id === 2)!.feeds).toEqual([
      {
        provider: 'defillama',
        pool: POOL.susds,
        url: `https://defillama.com/yields/pool/${POOL.susds}`,
        series: 'sky-susds',
      },
      {
        provider: 'onchain',
        chain: 'ethereum',
        kind: 'erc4626',
        address: chain.agreeing,
        series: 'sky-susds',
      },
    ]);
  });

  it('feeds that disagree open a feeds-disagree warning with both figures, and the source is not GREAT', async () => {
    const rows = (await t.http.get('/api/sources').expect(200)).body as SourceRow[];
    const disagreeing = rows.find((r) => r.id === 5)!;
    const open = disagreeing.warnings.filter((w) => w.kind === 'feeds-disagree' && !w.closedOn);
    expect(open).toHaveLength(1);
    const f = open[0]!.figures;
    // 0.04 % a day on chain is an APR of 14.6 %; DeFiLlama's APY of 5 % an APR of 4.88 %.
    expect(f.onchainApr7d).toBeCloseTo(14.6, 1);
    expect(f.defillamaApr7d).toBeCloseTo(apyToApr(5), 3);
    expect(open[0]!.text).toContain(`${Math.round(f.onchainApr7d! * 10) / 10}%`);
    expect(open[0]!.text).toContain(`${Math.round(f.defillamaApr7d! * 10) / 10}%`);
    const agreeing = rows.find((r) => r.id === 2)!;
    expect(agreeing.warnings.filter((w) => w.kind === 'feeds-disagree')).toEqual([]);

    const great = new Map((await strategies(t)).map((s) => [s.id, s.great]));
    expect(great.get(5)).toBe(false);

    // It is the warning that rules GREAT out: once an operator dismisses it, the source is GREAT.
    const sources = await readSources(t.dir);
    sources.sources.find((s) => s.id === 5)!.warningDismissals = [
      {
        kind: 'feeds-disagree',
        openedOn: (open[0] as unknown as { openedOn: string }).openedOn,
        on: TODAY,
        note: 'DeFiLlama lags the vault.',
      },
    ];
    await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
    expect(await t.deps.store.refreshFile('sources')).toBe(true);
    expect((await strategies(t)).find((s) => s.id === 5)!.great).toBe(true);
    // Back to the warning for the next tests.
    sources.sources.find((s) => s.id === 5)!.warningDismissals = [];
    await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
    expect(await t.deps.store.refreshFile('sources')).toBe(true);
  });

  it('imports only the missing days afterwards', async () => {
    const before = await readHistory(t.dir);
    const again = await importWith(t, server, { rpcUrls: { ethereum: chain.anvil.url } });
    for (const f of again.feeds.filter((x) => x.provider === 'onchain'))
      expect([f.series, f.ok, f.days, f.added, f.updated]).toEqual([f.series, true, 0, 0, 0]);
    expect((await readHistory(t.dir)).series['sky-susds']).toEqual(before.series['sky-susds']);

    // A day later, only that day is read and added.
    const later = await importWith(t, server, {
      rpcUrls: { ethereum: chain.anvil.url },
      now: () => new Date(`${nextDay(TODAY)}T12:00:00Z`),
    });
    const feed = later.feeds.find((f) => f.provider === 'onchain' && f.series === 'sky-susds')!;
    expect([feed.ok, feed.days, feed.added, feed.updated, feed.newestDay]).toEqual([
      true,
      1,
      1,
      0,
      TODAY,
    ]);
    const rows = (await readHistory(t.dir)).series['sky-susds']!;
    expect(rows.slice(0, -1)).toEqual(before.series['sky-susds']);
    const read = (block: bigint) =>
      chain.c.wallet.readContract({
        address: chain.agreeing,
        abi: VAULT_ABI,
        functionName: 'convertToAssets',
        args: [E18],
        blockNumber: block,
      });
    const p = Number(await read(chain.lastBlock.get(TODAY)!));
    const q = Number(await read(chain.lastBlock.get(YESTERDAY)!));
    expect(rows.at(-1)!.date).toBe(TODAY);
    expect(Math.abs(apyToApr(rows.at(-1)!.apy) - 365 * (p / q - 1) * 100)).toBeLessThan(1e-9);
  });

  it('an unreachable RPC fails each on-chain feed with a reason, keeps its last good data and shows in /api/health', async () => {
    const before = await readHistory(t.dir);
    const result = await importWith(t, server, { rpcUrls: { ethereum: 'http://127.0.0.1:9' } });
    const chainFeeds = result.feeds.filter((f) => f.provider === 'onchain');
    expect(chainFeeds).toHaveLength(3);
    for (const f of chainFeeds) {
      expect(f.ok).toBe(false);
      expect(f.reason).toMatch(/^RPC unreachable: /);
    }
    expect(result.ok).toBe(false);
    const after = await readHistory(t.dir);
    expect(after.series['sky-susds']).toEqual(before.series['sky-susds']);
    const health = (await t.http.get('/api/health').expect(200)).body as {
      status: string;
      import: {
        lastRun: {
          feeds: { series: string; provider?: string; ok: boolean; reason: string | null }[];
        };
      };
    };
    expect(health.status).toBe('degraded');
    const row = health.import.lastRun.feeds.find(
      (f) => f.series === 'sky-susds' && f.provider === 'onchain',
    )!;
    expect(row.ok).toBe(false);
    expect(row.reason).toMatch(/^RPC unreachable: /);
  });
});

describe('without RPC_URL_<CHAIN>', () => {
  it('skips the on-chain feeds with a clear line and imports the DeFiLlama feeds', async () => {
    const t = await setup({ now: () => NOW });
    const server = await replayAllFeeds(t.dir);
    try {
      await feedFromChain(t.dir, chain);
      const before = await readHistory(t.dir);
      const { exitCode, output } = await runImportCli(
        ['--data-dir', t.dir, '--api-url', server.url, '--coins-api-url', server.url],
        {},
        () => NOW,
      );
      expect(output).toMatch(
        new RegExp(
          `skip {2}sky-susds +onchain ethereum:${chain.agreeing} {2}RPC_URL_ETHEREUM is not set: on-chain feed not read`,
        ),
      );
      expect(exitCode).toBe(0);
      const after = await readHistory(t.dir);
      // DeFiLlama still leads a series the chain has not fed yet.
      expect(after.provenance?.['sky-susds']).toMatchObject({
        kind: 'defillama',
        pool: POOL.susds,
      });
      expect(after.series['sky-susds']).not.toEqual(before.series['sky-susds']);
      expect(after.secondary).toBeUndefined();
      // GET /api/health names the skipped feeds; they do not make the import fail.
      await t.deps.store.refreshFile('importStatus');
      const health = (await t.http.get('/api/health').expect(200)).body as {
        import: { lastRun: { ok: boolean; skipped?: { series: string; reason: string }[] } };
      };
      expect(health.import.lastRun.skipped).toContainEqual({
        series: 'sky-susds',
        chain: 'ethereum',
        address: chain.agreeing,
        reason: 'RPC_URL_ETHEREUM is not set: on-chain feed not read',
      });
    } finally {
      await server.close();
      await t.cleanup();
    }
  });
});

describe('a node that keeps only recent state', () => {
  it('backfills as far as the node allows and says nothing failed', async () => {
    const compiled = await compileContracts();
    const genesis = nextDay(TODAY, -21);
    // Only the newest 30 blocks' state is kept: about the last ten days here.
    const anvil = await startAnvil(dayStart(genesis) + 60, ['--prune-history', '30']);
    const t = await setup({ now: () => NOW });
    const server = await replayAllFeeds(t.dir);
    try {
      const c = chainClients(anvil.url);
      const me = c.account.address;
      const write = (
        address: Address,
        abi: typeof TOKEN_ABI | typeof VAULT_ABI,
        fn: string,
        args: unknown[],
      ) =>
        c.wallet.writeContract({ address, abi, functionName: fn, args } as never) as Promise<Hex>;
      const token = await deployAt(c, compiled.TestToken!, [], dayStart(genesis) + 100);
      const vault = await deployAt(c, compiled.TestVault!, [token], dayStart(genesis) + 200);
      await mineAt(c, dayStart(genesis) + 300, async () => [
        await write(token, TOKEN_ABI, 'mint', [me, 10n ** 30n]),
      ]);
      await mineAt(c, dayStart(genesis) + 400, async () => [
        await write(token, TOKEN_ABI, 'approve', [vault, 10n ** 30n]),
      ]);
      await mineAt(c, dayStart(genesis) + 500, async () => [
        await write(vault, VAULT_ABI, 'deposit', [10n ** 24n, me]),
      ]);
      const last = new Map<string, bigint>();
      for (let day = nextDay(genesis); day < TODAY; day = nextDay(day)) {
        await c.test.setNextBlockTimestamp({ timestamp: BigInt(dayStart(day) + 100) });
        await c.test.mine({ blocks: 2, interval: 600 });
        last.set(
          day,
          await mineAt(c, dayStart(day) + 80_000, async () => [
            await write(token, TOKEN_ABI, 'mint', [vault, 3n * 10n ** 20n]),
          ]),
        );
      }
      const sources = await readSources(t.dir);
      withoutOnchainFeeds(sources);
      Object.assign(
        sources.sources.find((s) => s.id === 2)!,
        {
          feeds: [{ provider: 'defillama', pool: POOL.susds }, onchainFeed(vault)],
        },
      );
      await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));

      const result = await importWith(t, server, { rpcUrls: { ethereum: anvil.url } });
      const feed = result.feeds.find((f) => f.provider === 'onchain')!;
      expect([feed.ok, feed.reason, feed.newestDay]).toEqual([true, null, YESTERDAY]);
      const rows = (await readHistory(t.dir)).series['sky-susds']!;
      // Fewer days than the 20 since the vault appeared: the node no longer has the early ones.
      expect(rows.length).toBeGreaterThan(3);
      expect(rows.length).toBeLessThan(20);
      expect(rows[0]!.date > nextDay(genesis)).toBe(true);
      for (const row of rows) {
        const read = (day: string) =>
          c.wallet.readContract({
            address: vault,
            abi: VAULT_ABI,
            functionName: 'convertToAssets',
            args: [E18],
            blockNumber: last.get(day)!,
          });
        const p = Number(await read(row.date));
        const q = Number(await read(nextDay(row.date, -1)));
        expect(Math.abs(apyToApr(row.apy) - 365 * (p / q - 1) * 100)).toBeLessThan(1e-9);
      }
    } finally {
      await server.close();
      await t.cleanup();
      await anvil.stop();
    }
  }, 60_000);
});

describe('a chain whose node fails', () => {
  const AERA_ID = 12;
  const AERA_SERIES = 'gauntlet-usd-alpha';
  let t: TestContext;
  let server: ReplayServer;
  let node: RpcStandIn | undefined;
  beforeEach(async () => {
    t = await setup({ now: () => NOW });
    // The test's contracts on ethereum, and the shipped Gauntlet feed on base.
    await feedFromChain(t.dir, chain, [AERA_ID]);
    server = await replayAllFeeds(t.dir);
  }, 60_000);
  afterEach(async () => {
    await node?.close();
    node = undefined;
    await server?.close();
    await t?.cleanup();
  });

  const importCli = (env: Record<string, string>) =>
    runImportCli(
      ['--data-dir', t.dir, '--api-url', server.url, '--coins-api-url', server.url],
      env,
      () => NOW,
    );
  const aeraAddress = async () =>
    (await readSources(t.dir)).sources
      .find((s) => s.id === AERA_ID)!
      .feeds!.find((f) => f.provider === 'onchain')!.address;
  const readStatus = async () =>
    JSON.parse(await readFile(path.join(t.dir, 'import-status.json'), 'utf8')) as ImportStatusFile;

  /** Everything but the failed chain's feeds imported, and the run's status written. */
  async function expectTheRestImported(failedChain: string, reason: RegExp) {
    const { lastRun } = await readStatus();
    expect(lastRun!.startedAt).toBe(NOW.toISOString());
    expect(lastRun!.ok).toBe(false);
    const failed = lastRun!.feeds.filter((f) => !f.ok);
    expect(failed.map((f) => [f.series, f.provider, f.chain])).toEqual([
      [AERA_SERIES, 'onchain', failedChain],
    ]);
    expect(failed[0]!.reason).toMatch(reason);
    const defillama = lastRun!.feeds.filter((f) => f.provider === 'defillama');
    expect(defillama.length).toBeGreaterThan(5);
    expect(lastRun!.prices!.length).toBeGreaterThan(0);
    expect(lastRun!.prices!.every((p) => p.ok)).toBe(true);
    expect(lastRun!.pools).toMatchObject({ ok: true });
    const pools = JSON.parse(await readFile(path.join(t.dir, 'pools.json'), 'utf8')) as {
      asOf: string;
      sample: boolean;
    };
    expect([pools.asOf, pools.sample]).toEqual([NOW.toISOString(), false]);
    // The failed feed keeps its series as it was; GET /api/health names it.
    await t.deps.store.refreshFile('importStatus');
    const health = (await t.http.get('/api/health').expect(200)).body as {
      status: string;
      import: {
        lastRun: { feeds: { series: string; provider?: string; reason: string | null }[] };
      };
    };
    expect(health.status).toBe('degraded');
    const row = health.import.lastRun.feeds.find(
      (f) => f.series === AERA_SERIES && f.provider === 'onchain',
    )!;
    expect(row.reason).toMatch(reason);
  }

  it('a head block whose timestamp no date holds fails that chain’s feeds only; the other chain, DeFiLlama, the prices and /pools import and the status is written', async () => {
    node = await startRpcStandIn('bad-head');
    const before = await readHistory(t.dir);
    const { exitCode, output } = await importCli({
      RPC_URL_ETHEREUM: chain.anvil.url,
      RPC_URL_BASE: node.url,
    });
    expect(node.methods).toContain('eth_getBlockByNumber');
    const reason = `bad head block: block 100 has the timestamp ${BAD_HEAD_TIMESTAMP}, not a time`;
    expect(output).toMatch(
      new RegExp(`FAIL {2}${AERA_SERIES} +onchain base:${await aeraAddress()} {2}${reason}`),
    );
    // A failed feed makes the run exit 1, as it always has; the rest is imported.
    expect(exitCode).toBe(1);
    for (const series of ['sky-susds', 'ethena-susde', 'rocketpool-reth'])
      expect(output).toMatch(new RegExp(`ok {4}${series} +onchain ethereum:`));
    expect(output).toMatch(/history\.json written\./);
    const after = await readHistory(t.dir);
    expect(after.provenance?.['sky-susds']).toMatchObject({
      kind: 'onchain',
      chain: 'ethereum',
      asOf: YESTERDAY,
    });
    expect(after.series[AERA_SERIES]).not.toEqual(before.series[AERA_SERIES]);
    expect(after.provenance?.[AERA_SERIES]).toMatchObject({ kind: 'defillama' });
    await expectTheRestImported('base', new RegExp(`^${reason}$`));
  });

  it('a node that never answers fails its chain’s feeds at RPC_CHAIN_DEADLINE_MS with "deadline", stops its requests, and the import writes and exits 1', async () => {
    node = await startRpcStandIn('hang');
    const { exitCode, output } = await importCli({
      RPC_URL_BASE: node.url,
      RPC_CHAIN_DEADLINE_MS: '1500',
    });
    const reason =
      "deadline: the chain's reads did not finish within 1500 ms \\(RPC_CHAIN_DEADLINE_MS\\)";
    expect(output).toMatch(
      new RegExp(`FAIL {2}${AERA_SERIES} +onchain base:${await aeraAddress()} {2}${reason}`),
    );
    expect(exitCode).toBe(1);
    // It was asked, and nothing is left waiting on it: the requests were aborted.
    expect(node.methods).toContain('eth_getBlockByNumber');
    await node.drained();
    expect(node.open()).toBe(0);
    // The chain without RPC_URL_ETHEREUM is skipped, as before; DeFiLlama's feeds are written.
    expect(output).toMatch(/skip {2}sky-susds +onchain ethereum:/);
    expect(output).toMatch(/history\.json written\./);
    await expectTheRestImported('base', new RegExp(`^${reason}$`));
  }, 60_000);
});
