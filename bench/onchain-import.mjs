/**
 * On-chain import benchmark: every series of sources.json fed from a contract on a local anvil
 * node (api/test/chain.ts: OpenZeppelin ERC-4626 vaults and a rate contract, compiled with solc
 * and deployed with viem), 180 days of blocks (BENCH_BLOCKS_PER_DAY a day, the yield paid in the
 * day's last one), and the real importer (runImport, as `data:import` runs it) backfilling 180
 * days (ONCHAIN_MAX_DAYS=180). Between the importer and anvil sits a small counting proxy
 * (node:http on 127.0.0.1): it counts the HTTP requests and the JSON-RPC calls in them (a batch
 * is one request of many calls). Printed: wall time of the import, requests and calls, for the
 * first import (the backfill) and the next one (nothing new: the incremental path).
 *
 *   node bench/onchain-import.mjs            # or: pnpm --filter @yield/bench bench:onchain-import
 *   BENCH_DAYS=180 BENCH_BLOCKS_PER_DAY=10 node bench/onchain-import.mjs
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const here = path.dirname(fileURLToPath(import.meta.url));
const apiDir = path.resolve(here, '../api');
const DAYS = Number(process.env.BENCH_DAYS ?? 180);
const BLOCKS_PER_DAY = Number(process.env.BENCH_BLOCKS_PER_DAY ?? 10);
const TODAY = '2026-11-23';
const NOW = new Date(`${TODAY}T18:00:00Z`);
const DAY = 86_400;
const dayStart = (day) => Date.parse(`${day}T00:00:00Z`) / 1000;
const shift = (day, n) => new Date((dayStart(day) + n * DAY) * 1000).toISOString().slice(0, 10);

const chain = await import(path.join(apiDir, 'test/chain.ts'));
const { runImport } = await import(path.join(apiDir, 'src/modules/import/run-import.ts'));
const { openStore } = await import(path.join(apiDir, 'src/composition/data-files.ts'));
const { silentLogger } = await import(path.join(apiDir, 'src/platform/logger.ts'));
const fn = (name, inputs, outputs = []) => ({
  type: 'function',
  name,
  stateMutability: 'nonpayable',
  inputs: inputs.map((type, i) => ({ name: `a${i}`, type })),
  outputs: outputs.map((type) => ({ name: '', type })),
});
const TOKEN_ABI = [
  fn('mint', ['address', 'uint256']),
  fn('approve', ['address', 'uint256'], ['bool']),
];
const VAULT_ABI = [fn('deposit', ['uint256', 'address'], ['uint256'])];
const RATE_ABI = [fn('setRate', ['uint256'])];

/** A node with 2 vaults and a rate contract, DAYS days of blocks ending yesterday. */
async function buildChain() {
  const compiled = await chain.compileContracts();
  const genesis = shift(TODAY, -(DAYS + 1));
  // Every block's state kept: the backfill reads the past (an archive node's job on mainnet).
  const anvil = await chain.startAnvil(dayStart(genesis) + 60, [
    '--max-persisted-states',
    '100000',
  ]);
  const c = chain.chainClients(anvil.url);
  const me = c.account.address;
  const write = (address, abi, functionName, args) =>
    c.wallet.writeContract({ address, abi, functionName, args });
  const t = (s) => dayStart(genesis) + s;
  const token = await chain.deployAt(c, compiled.TestToken, [], t(100));
  const vaults = [
    await chain.deployAt(c, compiled.TestVault, [token], t(200)),
    await chain.deployAt(c, compiled.TestVault, [token], t(300)),
  ];
  const rate = await chain.deployAt(c, compiled.TestRate, [], t(400));
  const E18 = 10n ** 18n;
  await chain.mineAt(c, t(500), async () => [
    await write(token, TOKEN_ABI, 'mint', [me, 10n ** 30n]),
  ]);
  await chain.mineAt(c, t(600), async () => [
    await write(token, TOKEN_ABI, 'approve', [vaults[0], 10n ** 30n]),
    await write(token, TOKEN_ABI, 'approve', [vaults[1], 10n ** 30n]),
  ]);
  await chain.mineAt(c, t(700), async () => [
    await write(vaults[0], VAULT_ABI, 'deposit', [10n ** 24n, me]),
    await write(vaults[1], VAULT_ABI, 'deposit', [10n ** 24n, me]),
  ]);
  let r = E18;
  const interval = Math.floor(DAY / BLOCKS_PER_DAY);
  for (let i = 1; i <= DAYS; i++) {
    const day = shift(genesis, i);
    // Empty blocks through the day, then the day's yield in its last block.
    if (BLOCKS_PER_DAY > 1) {
      await c.test.setNextBlockTimestamp({ timestamp: BigInt(dayStart(day) + 1) });
      await c.test.mine({ blocks: BLOCKS_PER_DAY - 1, interval });
    }
    r = (r * 1_000_250n) / 1_000_000n;
    await chain.mineAt(c, dayStart(day) + DAY - 30, async () => [
      await write(token, TOKEN_ABI, 'mint', [vaults[0], 2n * 10n ** 20n]),
      await write(token, TOKEN_ABI, 'mint', [vaults[1], 3n * 10n ** 20n]),
      await write(rate, RATE_ABI, 'setRate', [r]),
    ]);
  }
  return { anvil, vaults, rate };
}

/** A proxy to `target` counting HTTP requests and the JSON-RPC calls in them. */
async function countingProxy(target) {
  const counts = { requests: 0, calls: 0, methods: {} };
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    counts.requests++;
    const parsed = JSON.parse(body.toString('utf8'));
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
      counts.calls++;
      counts.methods[call.method] = (counts.methods[call.method] ?? 0) + 1;
    }
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts,
    reset() {
      counts.requests = 0;
      counts.calls = 0;
      counts.methods = {};
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Every series fed from one of the contracts (only on-chain feeds: DeFiLlama is not measured). */
async function prepareDataDir(contracts) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yield-bench-onchain-'));
  await cp(path.join(apiDir, 'data'), dir, {
    recursive: true,
    filter: (src) => !path.basename(src).startsWith('.') || src === path.join(apiDir, 'data'),
  });
  const sources = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8'));
  const feedOf = new Map();
  let n = 0;
  const feed = (holder) => {
    if (!('series' in holder)) return;
    if (!feedOf.has(holder.series)) {
      const k = n++ % 3;
      feedOf.set(holder.series, {
        provider: 'onchain',
        chain: 'ethereum',
        ...(k < 2
          ? { kind: 'erc4626', address: contracts.vaults[k] }
          : { kind: 'rate', address: contracts.rate, call: 'getExchangeRate' }),
        link: 'https://example.com/bench',
        verified: TODAY,
      });
    }
    holder.feeds = [feedOf.get(holder.series)];
    delete holder.feedNote;
  };
  sources.sources.forEach(feed);
  for (const b of sources.baseRates) {
    if (b.components.kind === 'stablecoin')
      b.components.coins.forEach((c) => c.venues.forEach(feed));
    else b.components.assets.forEach(feed);
  }
  await writeFile(path.join(dir, 'sources.json'), JSON.stringify(sources, null, 2));
  return { dir, series: feedOf.size };
}

const contracts = await buildChain();
const proxy = await countingProxy(contracts.anvil.url);
const { dir, series } = await prepareDataDir(contracts);
const empty = await mkdtemp(path.join(os.tmpdir(), 'yield-bench-onchain-saved-'));
try {
  const store = openStore(dir, silentLogger);
  await store.loadAll();
  const run = async (label) => {
    proxy.reset();
    const started = performance.now();
    const result = await runImport({
      store,
      fromDir: empty,
      now: () => NOW,
      rpcUrls: { ethereum: proxy.url },
      onchainMaxDays: DAYS,
      logger: silentLogger,
    });
    const ms = performance.now() - started;
    const feeds = result.feeds.filter((f) => f.provider === 'onchain');
    const failed = feeds.filter((f) => !f.ok);
    if (failed.length) throw new Error(`${label}: ${failed[0].series}: ${failed[0].reason}`);
    const days = feeds.reduce((a, f) => a + f.added, 0);
    console.log(
      `${label}: ${series} series, ${days} series-days added, ${Math.round(ms)} ms wall, ` +
        `${proxy.counts.requests} HTTP requests carrying ${proxy.counts.calls} JSON-RPC calls ` +
        `(${Object.entries(proxy.counts.methods)
          .map(([m, k]) => `${m} ${k}`)
          .join(', ')})`,
    );
  };
  console.log(
    `anvil: ${DAYS} days of blocks, ${BLOCKS_PER_DAY} a day; node ${process.version}, ${os.cpus().length} cores`,
  );
  await run('first import (backfill)');
  await run('next import (nothing new)');
} finally {
  await proxy.close();
  await contracts.anvil.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
}
