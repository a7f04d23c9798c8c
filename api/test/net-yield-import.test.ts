/**
 * Net yield end to end: an import against a local node (anvil, a known base fee) holding
 * OpenZeppelin's fee-charging ERC-4626 (entry 50 bp, exit 100 bp), DeFiLlama's and the coins
 * API's side replayed; then GET /api/net-yield. Checked: entry and exit equal the vault's previews
 * for the amount asked, gas equals eth_feeHistory's price × the measured gas units × the coins
 * API's ETH price, the net amount and break-even day follow the documented rule, a source whose
 * contract has no previews says which cost is unknown and why, the ranking's order, and a failed
 * read keeps the last good costs with their day.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAbi, type Address } from 'viem';
import type { NetYieldAnswer, NetYieldRankingAnswer, HistoryResponse } from '@yield/contract';
import { GAS_UNITS } from '../src/modules/import/costs.ts';
import type { CostsFile } from '../src/modules/net-yield/index.ts';
import type { PricesFile } from '../src/modules/yields/index.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { editFile, setup, tempDataDir, type TestContext } from './helpers.ts';
import { freshDatabase } from './pg-cluster.ts';
import {
  closeAll,
  importWith,
  NOW,
  readSources,
  replayAllFeeds,
  TODAY,
  withoutOnchainFeeds,
} from './import-fixtures.ts';
import { coinsBody, dailyPrices, type ReplayServer } from './replay-server.ts';
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
  feeHistoryPrice,
} from './chain.ts';

const E18 = 10n ** 18n;
const BASE_FEE = 7_000_000_000n;
const TIP = 2_000_000_000n;
const ETH = 'coingecko:ethereum';
/** The coins API's ETH price, a different one each day (i = 0 is 89 days before today). */
const ethPrice = (i: number) => 3000 + i * 1.25;
const ABI = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function convertToShares(uint256 assets) view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function previewDeposit(uint256 assets) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
]);

let anvil: Anvil;
let c: Clients;
let feeVault: Address;
let rate: Address;
let t: TestContext;
let server: ReplayServer;

async function buildChain() {
  const compiled = await compileContracts();
  const start = nextDay(TODAY, -2);
  anvil = await startAnvil(dayStart(start), ['--base-fee', String(BASE_FEE)]);
  c = chainClients(anvil.url);
  let at = dayStart(start) + 100;
  const send = (to: Address, functionName: string, args: unknown[], tip = 1n) =>
    c.wallet.writeContract({
      address: to,
      abi: ABI,
      functionName,
      args,
      maxPriorityFeePerGas: tip,
      maxFeePerGas: 100n * BASE_FEE,
    } as never);
  const token = await deployAt(c, compiled.TestToken!, [], at++);
  const recipient = '0x000000000000000000000000000000000000fee1';
  feeVault = await deployAt(c, compiled.TestFeeVault!, [token, 50n, 100n, recipient], at++);
  rate = await deployAt(c, compiled.TestRate!, [], at++);
  const me = c.account.address;
  await mineAt(c, at++, async () => [await send(token, 'mint', [me, 10_000_000n * E18])]);
  await mineAt(c, at++, async () => [await send(token, 'approve', [feeVault, 10_000_000n * E18])]);
  await mineAt(c, at, async () => [await send(feeVault, 'deposit', [1_000_000n * E18, me])]);
  await mineAt(c, dayStart(nextDay(start)) + 600, async () => [
    await send(token, 'mint', [feeVault, 12_345n * E18]),
  ]);
  // Today's last block pays a known tip: the median priority fee eth_feeHistory reports.
  await mineAt(c, dayStart(TODAY) + 6 * 3600, async () => [
    await send(token, 'mint', [feeVault, 1_000n * E18], TIP),
  ]);
}

/** Source 2 reads the fee vault; source 7 "reads" a contract without previews as an erc4626. */
async function feedSources(dir: string) {
  const sources = withoutOnchainFeeds(await readSources(dir), { ids: [2, 7] });
  for (const [id, address] of [
    [2, feeVault],
    [7, rate],
  ] as const) {
    const s = sources.sources.find((x) => x.id === id)!;
    s.feeds = s.feeds!.map((f) =>
      f.provider === 'onchain' ? { ...f, kind: 'erc4626' as const, address } : f,
    );
  }
  await editFile(path.join(dir, 'sources.json'), JSON.stringify(sources, null, 2));
}

beforeAll(async () => {
  await buildChain();
  t = await setup({ now: () => NOW });
  await feedSources(t.dir);
  server = await replayAllFeeds(t.dir);
  server.setCoin(ETH, {
    kind: 'json',
    body: coinsBody(ETH, dailyPrices({ lastDay: TODAY, days: 90, price: ethPrice })),
  });
  await importWith(t, server, { rpcUrls: { ethereum: anvil.url } });
}, 180_000);
afterAll(async () => {
  await closeAll(t, server);
  await anvil?.stop();
});

const read = (fn: string, arg: bigint) =>
  c.wallet.readContract({
    address: feeVault,
    abi: ABI,
    functionName: fn,
    args: [arg],
  } as never) as Promise<bigint>;

/** The entry and exit fee of `amount` (whole tokens) as the vault's previews say. */
async function previewFees(amount: bigint) {
  const A = amount * E18;
  const shares = await read('convertToShares', A);
  const entry = await read('convertToAssets', shares - (await read('previewDeposit', A)));
  const exit = (await read('convertToAssets', shares)) - (await read('previewRedeem', shares));
  return { entry: Number(entry) / 1e18, exit: Number(exit) / 1e18 };
}

/** The ETH price prices.json holds for the newest day on or before `day` (imported, not sample). */
async function ethUsdOn(day: string): Promise<{ date: string; price: number }> {
  const prices = JSON.parse(await readFile(path.join(t.dir, 'prices.json'), 'utf8')) as PricesFile;
  expect(prices.provenance?.[ETH]).toBeDefined();
  return prices.coins[ETH]!.filter((p) => p.date <= day).at(-1)!;
}

const netYield = async (query: string) =>
  (await t.http.get(`/api/net-yield?${query}`).expect(200)).body as NetYieldAnswer;

describe('net yield of a deposit, costs read at import', () => {
  it("entry and exit are the vault's previews for the amount; gas is fee history × gas units × ETH price", async () => {
    const body = await netYield('id=2&amount=500&days=365');
    const fees = await previewFees(500n);
    expect(fees.entry).toBeGreaterThan(0);
    expect(body.costs.entry.amount).toBeCloseTo(fees.entry, 9);
    expect(body.costs.exit.amount).toBeCloseTo(fees.exit, 9);
    const wei = await feeHistoryPrice(anvil.url);
    expect(wei).toBeGreaterThan(TIP);
    const eth = await ethUsdOn(TODAY);
    const gas = (units: number) => (Number(BigInt(units) * wei) / 1e18) * eth.price;
    expect(body.costs.gasIn.usd).toBeCloseTo(gas(GAS_UNITS.erc4626!.deposit), 12);
    expect(body.costs.gasOut.usd).toBeCloseTo(gas(GAS_UNITS.erc4626!.withdraw), 12);
    expect(body).toMatchObject({
      unit: 'USD',
      unitPriceUsd: 1,
      chain: 'ethereum',
      costsAsOf: eth.date,
    });

    const total = fees.entry + fees.exit + gas(60_095) + gas(55_517);
    expect(body.totalCost).toBeCloseTo(total, 9);
    const apr = (
      (await t.http.get('/api/history?id=2&range=7D').expect(200)).body as HistoryResponse
    ).lastApr;
    expect(body.apr).toBe(apr);
    const grow = (d: number) => (500 - total) * (1 + apr / 100 / 365) ** d;
    expect(body.netAmount).toBeCloseTo(grow(365), 8);
    expect(body.netApr).toBeCloseTo((grow(365) / 500 - 1) * 100, 8);
    let day = 0;
    while (grow(day) < 500) day++;
    expect(body.breakEvenDays).toBe(day);
  });

  it('stores the costs dated, each part with its day', async () => {
    const costs = JSON.parse(await readFile(path.join(t.dir, 'costs.json'), 'utf8')) as CostsFile;
    const two = costs.sources['2']!;
    expect(two).toMatchObject({ chain: 'ethereum', kind: 'erc4626', readAt: NOW.toISOString() });
    expect(two.entry).toMatchObject({ date: TODAY });
    expect(two.gasPrice).toEqual({
      wei: (await feeHistoryPrice(anvil.url)).toString(),
      date: TODAY,
    });
    expect(two.gasUnits).toEqual({ ...GAS_UNITS.erc4626, date: TODAY });
  });

  it('a contract without previews: which costs are unknown and why, no net figure', async () => {
    const body = await netYield('id=7&amount=1000&days=90');
    expect(body.costs.entry).toEqual({
      amount: null,
      usd: null,
      unknown: expect.stringMatching(/^previews not readable: /),
    });
    expect(body.costs.exit.unknown).toMatch(/^previews not readable: /);
    expect(body.costs.gasIn.unknown).toBeNull();
    expect(body).toMatchObject({
      netAmount: null,
      netApr: null,
      breakEvenDays: null,
      totalCost: null,
    });
    const plain = await netYield('id=6&amount=1000&days=90');
    expect(plain.costs.gasIn.unknown).toBe(
      'Not read from the chain: this source has no contract we read',
    );
    expect(plain.costsAsOf).toBeNull();
  });

  it('ranks the source with known costs first, the others by gross APR', async () => {
    const body = (await t.http.get('/api/net-yield/ranking?amount=500&days=365').expect(200))
      .body as NetYieldRankingAnswer;
    expect(body.items[0]).toMatchObject({ id: 2, unknownCosts: [] });
    expect(body.items[0]!.netApr).toBeCloseTo(
      (await netYield('id=2&amount=500&days=365')).netApr!,
      12,
    );
    const rest = body.items.slice(1);
    expect(rest.every((i) => i.netApr === null)).toBe(true);
    expect(rest.map((i) => i.apr)).toEqual([...rest.map((i) => i.apr)].sort((a, b) => b - a));
    expect(rest.find((i) => i.id === 7)!.unknownCosts).toEqual(['entry', 'exit']);
  });

  it('a failed read keeps the last good costs with their day', async () => {
    const before = await readFile(path.join(t.dir, 'costs.json'), 'utf8');
    const answer = await netYield('id=2&amount=500&days=365');
    const result = await importWith(t, server, {
      rpcUrls: { ethereum: 'http://127.0.0.1:1' },
      now: () => new Date(NOW.getTime() + 86_400_000),
    });
    expect(result.costs!.find((o) => o.id === 2)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not read'),
    });
    const after = JSON.parse(await readFile(path.join(t.dir, 'costs.json'), 'utf8')) as CostsFile;
    const old = (JSON.parse(before) as CostsFile).sources['2']!;
    expect(after.sources['2']).toMatchObject({
      entry: old.entry,
      exit: old.exit,
      gasUnits: old.gasUnits,
      gasPrice: old.gasPrice,
      nativeUsd: old.nativeUsd,
    });
    const again = await netYield('id=2&amount=500&days=365');
    expect(again.costs).toEqual(answer.costs);
    expect(again.costsAsOf).toBe(answer.costsAsOf);
  });
});

describe('with DATABASE_URL: the costs are published with the import', () => {
  const others: TestContext[] = [];
  afterAll(async () => {
    for (const o of others.reverse()) await o.cleanup();
  });

  it("an import run anywhere reaches every machine's GET /api/net-yield", async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const dirA = await tempDataDir();
    await feedSources(dirA);
    // The first process publishes its files (the sources naming the local chain's contracts).
    others.push(await setup({ dir: dirA, databaseUrl, now: () => NOW }));
    await runImportCli(
      ['--data-dir', await tempDataDir(), '--api-url', server.url, '--coins-api-url', server.url],
      { DATABASE_URL: databaseUrl, RPC_URL_ETHEREUM: anvil.url },
      () => NOW,
    );
    // A machine started afterwards, its own directory without costs.json, serves the published ones.
    const b = await setup({ dir: await tempDataDir(), databaseUrl, now: () => NOW });
    others.push(b);
    const body = (await b.http.get('/api/net-yield?id=2&amount=500&days=365').expect(200))
      .body as NetYieldAnswer;
    const fees = await previewFees(500n);
    expect(body.costs.entry.amount).toBeCloseTo(fees.entry, 9);
    expect(body.costs.gasIn.unknown).toBeNull();
    expect(body.netAmount).not.toBeNull();
    expect(body.costsAsOf).toBe((await netYield('id=2&amount=500&days=365')).costsAsOf);
  });
});
