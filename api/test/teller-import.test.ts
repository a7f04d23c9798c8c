/**
 * A rate read through a vault's teller (`"via": "accountant"`, as ether.fi Liquid's vaults on
 * Veda's BoringVault are read) on a real local node (anvil, started here on 127.0.0.1): the test
 * kit's TestTeller naming a TestRate as its accountant, the rate moved day by day and the teller
 * moved to a second accountant halfway. The shipped ether.fi Liquid ETH feed is pointed at the
 * teller and imported. Checked: each day's APR is exactly 365 × (r_d / r_{d−1} − 1) × 100 of the
 * getRate() of the accountant the teller named at the day's last block, and `via` is refused on a
 * feed that is not a rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAbi, type Address, type Hex } from 'viem';
import { apyToApr } from '../src/engine/ra30.ts';
import { setup, editFile } from './helpers.ts';
import {
  NOW,
  TODAY,
  importWith,
  readHistory,
  readSources,
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
const GENESIS = nextDay(TODAY, -10);
const YESTERDAY = nextDay(TODAY, -1);
const SERIES = 'etherfi-liquid-eth';
const SOURCE_ID = 4;
const SWITCH_DAY = 5;

const TELLER_ABI = parseAbi([
  'function setAccountant(address accountant_)',
  'function accountant() view returns (address)',
]);
const RATE_ABI = parseAbi([
  'function setRate(uint256 r)',
  'function getRate() view returns (uint256)',
]);

const day = (n: number) => nextDay(GENESIS, n);
const growth = (n: number) => 0.0001 + 0.00002 * (n % 3);

interface Chain {
  anvil: Anvil;
  c: Clients;
  teller: Address;
  first: Address;
  second: Address;
  rate: Map<string, bigint>;
  lastBlock: Map<string, bigint>;
}

async function buildChain(): Promise<Chain> {
  const compiled = await compileContracts();
  const anvil = await startAnvil(dayStart(GENESIS) + 60);
  const c = chainClients(anvil.url);
  const teller = await deployAt(c, compiled.TestTeller!, [], dayStart(GENESIS) + 600);
  const first = await deployAt(c, compiled.TestRate!, [], dayStart(GENESIS) + 700);
  const second = await deployAt(c, compiled.TestRate!, [], dayStart(GENESIS) + 800);
  const write = (
    address: Address,
    abi: typeof TELLER_ABI | typeof RATE_ABI,
    fn: string,
    args: unknown[],
  ) => c.wallet.writeContract({ address, abi, functionName: fn, args } as never) as Promise<Hex>;
  const rate = new Map<string, bigint>();
  const lastBlock = new Map<string, bigint>();
  let r = E18;
  rate.set(GENESIS, r);
  lastBlock.set(
    GENESIS,
    await mineAt(c, dayStart(GENESIS) + 900, async () => [
      await write(teller, TELLER_ABI, 'setAccountant', [first]),
    ]),
  );
  for (let n = 1; day(n) < TODAY; n++) {
    r = (r * BigInt(Math.round((1 + growth(n)) * 1e9))) / 1_000_000_000n;
    rate.set(day(n), r);
    const send =
      n < SWITCH_DAY
        ? async () => [await write(first, RATE_ABI, 'setRate', [r])]
        : n === SWITCH_DAY
          ? async () => [
              await write(second, RATE_ABI, 'setRate', [r]),
              await write(teller, TELLER_ABI, 'setAccountant', [second]),
            ]
          : async () => [await write(second, RATE_ABI, 'setRate', [r])];
    lastBlock.set(day(n), await mineAt(c, dayStart(day(n)) + 15 * 3600, send));
  }
  // Today is not over: not imported.
  await mineAt(c, dayStart(TODAY) + 3600, async () => [
    await write(second, RATE_ABI, 'setRate', [r + r / 100n]),
  ]);
  return { anvil, c, teller, first, second, rate, lastBlock };
}

/** The getRate() of the accountant the teller names at `block`, read straight from the node. */
async function rateAt(chain: Chain, block: bigint): Promise<bigint> {
  const accountant = await chain.c.wallet.readContract({
    address: chain.teller,
    abi: TELLER_ABI,
    functionName: 'accountant',
    blockNumber: block,
  });
  return chain.c.wallet.readContract({
    address: accountant,
    abi: RATE_ABI,
    functionName: 'getRate',
    blockNumber: block,
  });
}

/** The shipped feed of ether.fi Liquid ETH pointed at the test's teller; no other on-chain feed. */
function feedFromChain(dir: string, chain: Chain) {
  return onlyOnchainFeedOf(dir, SOURCE_ID, { address: chain.teller });
}

let chain: Chain;
beforeAll(async () => {
  chain = await buildChain();
}, 120_000);
afterAll(async () => {
  await chain?.anvil.stop();
});

describe("a rate read through a vault's teller and its accountant", () => {
  const site = useImportSite((dir) => feedFromChain(dir, chain));

  it('ships ether.fi Liquid ETH as getRate() of the accountant its Ethereum teller names', async () => {
    const shipped = (await readSources(site.t.dir)).sources.find((s) => s.id === SOURCE_ID)!;
    expect(shipped.series).toBe(SERIES);
    expect(shipped.feeds?.find((f) => f.provider === 'onchain')).toMatchObject({
      chain: 'ethereum',
      kind: 'rate',
      call: 'getRate',
      via: 'accountant',
    });
  });

  it('imports each day’s APR from the accountant the teller named at the day’s last block, exactly 365 × (r_d/r_d−1 − 1) × 100', async () => {
    const result = await importWith(site.t, site.server, {
      rpcUrls: { ethereum: chain.anvil.url },
    });
    const feed = result.feeds.find((f) => f.provider === 'onchain' && f.series === SERIES)!;
    expect([feed.ok, feed.reason, feed.newestDay]).toEqual([true, null, YESTERDAY]);
    const rows = (await readHistory(site.t.dir)).series[SERIES]!;
    expect(rows.map((r) => r.date)).toEqual(
      [...chain.rate.keys()].filter((d) => d > GENESIS && d < TODAY),
    );
    for (const row of rows) {
      const p = await rateAt(chain, chain.lastBlock.get(row.date)!);
      const q = await rateAt(chain, chain.lastBlock.get(nextDay(row.date, -1))!);
      expect(p, row.date).toBe(chain.rate.get(row.date));
      const apr = 365 * (Number(p) / Number(q) - 1) * 100;
      expect(Math.abs(apyToApr(row.apy) - apr), row.date).toBeLessThan(1e-9);
      expect(row.pricePerShare).toBeCloseTo(Number(p) / 1e18, 12);
    }
    // After the move the first accountant's rate stands still; the series follows the second.
    const after = chain.lastBlock.get(day(SWITCH_DAY + 1))!;
    const stale = await chain.c.wallet.readContract({
      address: chain.first,
      abi: RATE_ABI,
      functionName: 'getRate',
      blockNumber: after,
    });
    expect(stale).toBe(chain.rate.get(day(SWITCH_DAY - 1)));
    const moved = rows.find((r) => r.date === day(SWITCH_DAY + 1))!;
    expect(apyToApr(moved.apy)).toBeCloseTo(365 * growth(SWITCH_DAY + 1) * 100, 3);
    expect((await readHistory(site.t.dir)).provenance?.[SERIES]).toMatchObject({
      kind: 'onchain',
      chain: 'ethereum',
      address: chain.teller,
    });
  });
});

describe('a feed read through an accountant in sources.json', () => {
  it('is a rate feed: `via` on another kind is refused', async () => {
    const t = await setup({ now: () => NOW });
    try {
      const sources = await readSources(t.dir);
      const source = sources.sources.find((s) => s.id === SOURCE_ID)!;
      const feed = source.feeds!.find((f) => f.provider === 'onchain')!;
      const { call: _call, ...rest } = feed as typeof feed & { call?: string };
      source.feeds = [{ ...rest, kind: 'erc4626' } as never];
      await editFile(`${t.dir}/sources.json`, JSON.stringify(sources, null, 2));
      expect(await t.deps.store.refreshFile('sources')).toBe(false);
      const health = JSON.stringify((await t.http.get('/api/health').expect(200)).body);
      expect(health).toContain('only a rate feed reads its getter through another contract (via)');
    } finally {
      await t.cleanup();
    }
  });
});
