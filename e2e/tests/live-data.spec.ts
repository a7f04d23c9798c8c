/**
 * The site on imported data: a second site server (the production one, real API) on a data
 * directory into which the operators' own command, `data:import --from DIR`, imported DeFiLlama
 * chart responses saved in DeFiLlama's shape. Two series stop three days ago (stale): Sky sUSDS (a
 * source with a public page) and rETH (a component of the crypto base rate). The other specs keep
 * the shipped sample data.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { E2E_ROOT, WORKSPACE_ROOT } from '../scripts/e2e-env.ts';

interface DailyRow {
  date: string;
  apy: number;
  apyReward?: number;
  tvlUsd: number;
}
interface HistoryFile {
  asOf: string;
  series: Record<string, DailyRow[]>;
  [key: string]: unknown;
}
interface Feed {
  provider: string;
  pool: string;
}

const DAY_MS = 86_400_000;
const STALE_SERIES = ['sky-susds', 'rocketpool-reth'];
const LIDO_POOL = '747c1d2a-c668-4682-b9f9-296708a3dd90';
const STETH_COIN = 'ethereum:0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84';

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const shiftDay = (day: string, days: number) =>
  dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
/** The site's one date format ("Nov 23, 2026"). */
const readable = (day: string) =>
  new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(Date.parse(`${day}T00:00:00Z`));

/** Every series (sources.json) with the DeFiLlama pool that feeds it. */
function feedsOf(sources: unknown): Map<string, string> {
  const feeds = new Map<string, string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const record = node as { series?: unknown; feeds?: Feed[] };
    if (typeof record.series === 'string' && record.feeds?.[0])
      feeds.set(record.series, record.feeds[0].pool);
    Object.values(node).forEach(visit);
  };
  visit(sources);
  return feeds;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const today = dayOf(Date.now());
const staleDay = shiftDay(today, -3);
/** First day of Lido's replayed 60% fall in deposits. */
const OUTFLOW_FROM = shiftDay(today, -4);
let server: ChildProcess | undefined;
let baseUrl = '';
/** This spec's own folders under e2e/.tmp, removed afterwards. */
const folders: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const work = path.join(E2E_ROOT, '.tmp', `live-${port}`);
  const dataDir = path.join(work, 'data');
  const saved = path.join(work, 'saved', 'chart');
  // serve.ts copies the data to .tmp/data-<port> (scripts/e2e-env.ts).
  folders.push(work, path.join(E2E_ROOT, '.tmp', `data-${port}`));
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(saved, { recursive: true });
  fs.cpSync(path.join(WORKSPACE_ROOT, 'api', 'data'), dataDir, {
    recursive: true,
    filter: (source) => !source.includes('.jwt-secret'),
  });

  // The shipped sample ends on a fixed day: move it to end today, so the series without a feed
  // (still sample) and the imported ones share their days, as they do on a live site.
  const historyFile = path.join(dataDir, 'history.json');
  const history = JSON.parse(fs.readFileSync(historyFile, 'utf8')) as HistoryFile;
  const shift = Math.round(
    (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${history.asOf}T00:00:00Z`)) / DAY_MS,
  );
  for (const rows of Object.values(history.series))
    for (const row of rows) row.date = shiftDay(row.date, shift);
  history.asOf = today;
  fs.writeFileSync(historyFile, `${JSON.stringify(history, null, 2)}\n`);

  // DeFiLlama's GET /chart/<pool> answer for every feed: one snapshot a day, in its shape.
  const sources = JSON.parse(fs.readFileSync(path.join(dataDir, 'sources.json'), 'utf8'));
  const feeds = feedsOf(sources);
  expect(feeds.get('lido-steth')).toBe(LIDO_POOL);
  for (const [series, pool] of feeds) {
    const rows = history.series[series]!.filter(
      (row) => !STALE_SERIES.includes(series) || row.date <= staleDay,
    );
    const data = rows.map((row) => ({
      timestamp: `${row.date}T00:00:00.000Z`,
      // Lido's deposits fall by 60% over its last 5 days: an outflow warning.
      tvlUsd: series === 'lido-steth' && row.date >= OUTFLOW_FROM ? row.tvlUsd * 0.4 : row.tvlUsd,
      apy: row.apy,
      apyBase: row.apy - (row.apyReward ?? 0),
      apyReward: row.apyReward ?? null,
      il7d: null,
      apyBase7d: null,
    }));
    fs.writeFileSync(path.join(saved, `${pool}.json`), JSON.stringify({ status: 'success', data }));
  }
  // And its GET /pools answer, the scanner's snapshot: the shipped sample's pools, in its shape.
  const shippedPools = JSON.parse(fs.readFileSync(path.join(dataDir, 'pools.json'), 'utf8')) as {
    data: unknown[];
  };
  fs.writeFileSync(
    path.join(path.dirname(saved), 'pools.json'),
    JSON.stringify({ status: 'success', data: shippedPools.data }),
  );

  // And the coins API's GET /chart/<coin> answer for every priced token (and ETH, the reference
  // of the ETH tokens): a steady price of 1 a day, in its shape.
  const coinsDir = path.join(path.dirname(saved), 'coins');
  fs.mkdirSync(coinsDir);
  const coins = new Set<string>();
  for (const s of sources.sources as {
    unit: string;
    priceToken?: { chain: string; address: string };
  }[]) {
    if (!s.priceToken) continue;
    coins.add(`${s.priceToken.chain}:${s.priceToken.address}`);
    if (s.unit === 'ETH') coins.add('coingecko:ethereum');
  }
  for (const coin of coins) {
    // stETH at 0.97 ETH on the last two days: a depeg warning.
    const prices = Array.from({ length: 90 }, (_, i) => ({
      timestamp: Date.parse(`${shiftDay(today, i - 89)}T00:00:00Z`) / 1000,
      price: coin === STETH_COIN && i >= 88 ? 0.97 : 1,
    }));
    fs.writeFileSync(
      path.join(coinsDir, `${coin}.json`),
      JSON.stringify({ coins: { [coin]: { symbol: 'TOKEN', confidence: 0.99, prices } } }),
    );
  }

  // The operators' command imports them (exit code 0: every feed, token price and the snapshot
  // imported).
  execFileSync(
    'pnpm',
    [
      '--filter',
      '@yield/api',
      'run',
      'data:import',
      '--',
      '--from',
      path.dirname(saved),
      '--data-dir',
      dataDir,
    ],
    { cwd: WORKSPACE_ROOT, stdio: 'pipe' },
  );

  server = spawn('node', ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: E2E_ROOT,
    env: { ...process.env, E2E_PORT: String(port), E2E_DATA_FROM: dataDir, NODE_ENV: 'production' },
    stdio: 'ignore',
  });
  baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.status < 600,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the live-data site server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill();
    await exited;
  }
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

test('the comparison names DeFiLlama and its date, tags the sample rows and shows stale ones', async ({
  page,
}) => {
  const settings = await (await page.request.get(`${baseUrl}/api/settings`)).json();
  // Some rows are still sample (no DeFiLlama pool for them), some are stale.
  expect(settings.data).toEqual({ sample: true, asOf: today, stale: true });

  test.setTimeout(90_000);
  await page.goto(`${baseUrl}/options`);
  const note = page.getByTestId('data-note');
  // The note names DeFiLlama once the rows have loaded (a cold server takes a while).
  await expect(note).toContainText(`Data: DeFiLlama, as of ${readable(today)}.`, {
    timeout: 30_000,
  });
  await expect(note).toContainText('Rows marked Sample data are realistic examples');
  await expect(note).toContainText('Rows marked Stale have had no new data for more than 48 hours');
  await expect(note).not.toContainText('Sample data as of');

  const stable = page.getByTestId('stablecoins-table');
  const sky = stable.getByRole('row', { name: /Sky Spark - Savings Account/ });
  await expect(sky.getByTestId('stale-badge')).toHaveText(
    `Stale, no new data since ${readable(staleDay)}`,
  );
  // Its figures are shown (not N/A), never GREAT.
  await expect(sky).toContainText(/\d+\.\d{2}%/);
  await expect(sky).not.toContainText('GREAT');
  await expect(stable.getByTestId('stale-note')).toContainText(
    `Sky Spark - Savings Account: no new data since ${readable(staleDay)}.`,
  );
  // Liquity has no DeFiLlama pool: still sample, and tagged so.
  const liquity = stable.getByRole('row', { name: /Liquity v1 - Stability Pool/ });
  await expect(liquity.getByTestId('row-data-tag')).toHaveText('Sample data');
  // Resolv USR is imported: no tag, the note speaks for it.
  const resolv = stable.getByRole('row', { name: /Resolv - USR Staking/ });
  await expect(resolv.getByTestId('row-data-tag')).toHaveCount(0);

  // The crypto base rate stands on rETH, which stopped: it says so.
  const crypto = page.getByTestId('crypto-table');
  await expect(crypto.getByTestId('stale-note')).toContainText(
    `DeFi Base Rate: built on a component with no new data since ${readable(staleDay)} (rocketpool-reth).`,
  );

  // The breakdown of an imported row says where its figures come from.
  const lido = crypto.getByRole('row', { name: /Lido - stETH/ });
  await lido.getByRole('button', { name: /explain this number/ }).click();
  await expect(page.getByTestId('breakdown-data-source')).toHaveText(
    `Data: DeFiLlama, as of ${readable(today)}.`,
  );
});

test('a strategy page labels its data, links to its DeFiLlama pool, and shows a stale source', async ({
  page,
}) => {
  await page.goto(`${baseUrl}/options/lido`);
  const source = page.getByTestId('data-source');
  await expect(source).toContainText(`Data: DeFiLlama, as of ${readable(today)}.`);
  await expect(page.getByText(/Sample data as of/)).toHaveCount(0);
  const feed = source.getByRole('link', { name: /Its pool on DeFiLlama/ });
  await expect(feed).toHaveAttribute('href', `https://defillama.com/yields/pool/${LIDO_POOL}`);
  await expect(feed).toHaveAttribute('target', '_blank');
  await expect(feed).toHaveAttribute('rel', 'noopener noreferrer');

  await page.goto(`${baseUrl}/options/sky-spark`);
  await expect(page.getByTestId('stale-flag')).toContainText(
    `Stale: no new data since ${readable(staleDay)}`,
  );
  await expect(page.getByTestId('data-source')).toContainText(
    `Data: DeFiLlama, as of ${readable(staleDay)}.`,
  );
  await expect(page.getByTestId('figure-30d APR')).toContainText(/\d+\.\d{2}%/);

  // A source without a pool keeps the sample label, in the same date format.
  await page.goto(`${baseUrl}/options/liquity`);
  await expect(page.getByTestId('data-source')).toContainText(
    `Sample data as of ${readable(today)}.`,
  );
  await expect(page.getByTestId('feed-link')).toHaveCount(0);
});

test('a 60% fall in deposits and a token off its peg show as warnings detected from data, and the source is not GREAT', async ({
  page,
}) => {
  const rows = (await (await page.request.get(`${baseUrl}/api/strategies`)).json()) as {
    id: number;
    great: boolean;
    warnings: { kind: string; openedOn: string; closedOn: string | null; detected: boolean }[];
  }[];
  const lidoRow = rows.find((r) => r.id === 13)!;
  expect(lidoRow.great).toBe(false);
  expect(
    lidoRow.warnings.filter((w) => w.closedOn === null).map((w) => [w.kind, w.openedOn]),
  ).toEqual([
    ['outflow', OUTFLOW_FROM],
    ['depeg', shiftDay(today, -1)],
  ]);

  await page.goto(`${baseUrl}/options/lido`);
  const box = page.getByTestId('detected-warnings');
  const notes = box.getByRole('note');
  await expect(notes).toHaveCount(2);
  await expect(notes.nth(0)).toContainText(
    `Deposits leaving fast Detected from data since ${readable(OUTFLOW_FROM)}`,
  );
  await expect(notes.nth(0)).toContainText(
    /the value locked fell (5[5-9]|6[0-5])(\.\d)?% over 7 days/,
  );
  await expect(notes.nth(1)).toContainText(
    `Off its peg Detected from data since ${readable(shiftDay(today, -1))}`,
  );
  await expect(notes.nth(1)).toContainText(
    'The token traded at 0.97 ETH, 3% below the price of ETH.',
  );
  await expect(page.getByTestId('warning-marks')).toContainText(
    `Deposits leaving fast: opened ${readable(OUTFLOW_FROM)}`,
  );

  // The comparison does not mark it GREAT.
  await page.goto(`${baseUrl}/options`);
  const lido = page.getByTestId('crypto-table').getByRole('row', { name: /Lido - stETH/ });
  await expect(lido).toContainText(/\d+\.\d{2}%/, { timeout: 30_000 });
  await expect(lido).not.toContainText('GREAT');
});
