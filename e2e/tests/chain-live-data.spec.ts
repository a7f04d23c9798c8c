/**
 * Every source live from one import: the DeFiLlama answers replayed in their published shapes
 * (fixtures/imported-site.ts, `data:import --from`) AND a local chain (fixtures/local-chain.ts:
 * anvil on 127.0.0.1, a contract of its kind for every on-chain feed of sources.json, 40 UTC days
 * of blocks moving the share prices). The site's temp copy of the data names the deployed
 * contracts; the import runs with RPC_URL_<CHAIN> pointing at anvil.
 *
 * Then, from the API's own answer (so it stays true as feeds are added): every row has a feed and
 * is live (`defillama` or `onchain`), a series with an on-chain feed is led by the chain (Liquity's
 * Stability Pool too, read from P, S and G and valued with the saved ETH and LQTY prices, its
 * daily APY a few % a year), both base rates are live with every component, no row says "No live
 * data" or "Sample data" at 375, 800 or 1280 px (a row read from the chain is tagged "On chain",
 * the note speaking for DeFiLlama), and a source led by the chain says "share price on chain" in
 * its strategy page's data line and names its contract.
 *
 * E2E_SHOTS_DIR (optional): a folder outside the repository for the screenshots of the comparison
 * at each width and of the strategy pages read from the chain.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { ImportedSite, readable, shiftDay, today } from '../fixtures/imported-site.ts';
import { chainTest as test, pointFeedsAt } from '../fixtures/local-chain.ts';

interface ComponentProvenance {
  series: string;
  kind: string;
  asOf: string | null;
  address?: string;
}
interface ApiSource {
  id: number;
  name: string;
  type: 'stablecoin' | 'defi';
  isBaseRate: boolean;
  detailSlug: string | null;
  feeds: { provider: string; series: string; kind?: string; address?: string }[];
  provenance: ComponentProvenance & { components?: ComponentProvenance[] };
}
interface ApiMetrics {
  id: number;
  status: string;
  provenance: { kind: string; asOf: string | null };
}
interface ApiBaseRates {
  baserateStable: number | null;
  baserateDefi: number | null;
  status: { stablecoin: string; defi: string };
  provenance: Record<'stablecoin' | 'defi', { kind: string; components?: ComponentProvenance[] }>;
}
interface ApiHealth {
  import: {
    lastRun: {
      ok: boolean;
      feeds: { series: string; provider?: string; ok: boolean; address?: string }[];
      skipped?: unknown[];
    } | null;
  };
}

const WIDTHS = [375, 800, 1280] as const;
const TABLE_OF = { stablecoin: 'stablecoins-table', defi: 'crypto-table' } as const;
const LIVE = ['defillama', 'onchain'];
const shotsDir = process.env.E2E_SHOTS_DIR;

let site: ImportedSite | undefined;
let baseUrl = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ localChain }) => {
  test.setTimeout(180_000);
  site = await ImportedSite.start(
    {},
    {
      prepare: (dataDir) => pointFeedsAt(dataDir, localChain),
      importEnv: localChain.rpcEnv,
    },
  );
  baseUrl = site.baseUrl;
});

test.afterAll(async () => {
  await site?.stop();
});

async function get<T>(page: Page, p: string): Promise<T> {
  const res = await page.request.get(`${baseUrl}${p}`);
  expect(res.status(), p).toBe(200);
  return (await res.json()) as T;
}

async function apiAnswer(page: Page) {
  const [sources, metrics] = await Promise.all([
    get<ApiSource[]>(page, '/api/sources'),
    get<ApiMetrics[]>(page, '/api/strategies'),
  ]);
  const metricsOf = new Map(metrics.map((m) => [m.id, m]));
  return { sources, metricsOf };
}

const sameAddress = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

async function shot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, name), fullPage: true });
}

test('one import read every feed: DeFiLlama for each pool, the local chain for each contract', async ({
  page,
  localChain,
}) => {
  const health = await get<ApiHealth>(page, '/api/health');
  const run = health.import.lastRun!;
  expect(run.ok).toBe(true);
  expect(run.skipped ?? []).toEqual([]);
  expect(run.feeds.filter((f) => !f.ok)).toEqual([]);
  // Each on-chain feed was read from its contract on anvil.
  for (const [series, deployed] of localChain.feeds) {
    const read = run.feeds.filter((f) => f.provider === 'onchain' && f.series === series);
    expect(read, series).toHaveLength(1);
    expect(sameAddress(read[0]!.address, deployed.address), series).toBe(true);
  }

  const { sources, metricsOf } = await apiAnswer(page);
  const settings = await get<{ data: { sample: boolean; asOf: string } }>(page, '/api/settings');
  expect(settings.data).toMatchObject({ sample: false, asOf: today });

  const rows = sources.filter((s) => !s.isBaseRate);
  expect(rows.length).toBeGreaterThan(0);
  for (const s of rows) {
    const metrics = metricsOf.get(s.id)!;
    const chainFeed = s.feeds.find((f) => f.provider === 'onchain');
    // Every row of the shipped sources.json has a feed: none is left without live data.
    expect(s.feeds.length, s.name).toBeGreaterThan(0);
    expect(LIVE, s.name).toContain(metrics.provenance.kind);
    expect(metrics.status, s.name).toBe('ok');
    expect(metrics.provenance.asOf, s.name).not.toBeNull();
    if (chainFeed) {
      // The share price leads: read at the last block of each day up to yesterday.
      const deployed = localChain.feeds.get(chainFeed.series)!;
      expect(sameAddress(chainFeed.address, deployed.address), s.name).toBe(true);
      expect(s.provenance).toMatchObject({ kind: 'onchain', chain: deployed.chain });
      expect(sameAddress(s.provenance.address, deployed.address), s.name).toBe(true);
      expect(metrics.provenance.kind, s.name).toBe('onchain');
    } else expect(metrics.provenance.kind, s.name).toBe('defillama');
  }
  // The shipped sources.json reads some sources from the chain, Liquity's Stability Pool among them.
  expect(rows.filter((s) => s.provenance.kind === 'onchain').length).toBeGreaterThan(0);
  const liquity = rows.filter((s) =>
    s.feeds.some((f) => f.provider === 'onchain' && f.kind === 'liquity-stability-pool'),
  );
  expect(liquity.length).toBeGreaterThan(0);
  for (const s of liquity) {
    expect(metricsOf.get(s.id)!.provenance.kind, s.name).toBe('onchain');
    // Every day up to yesterday read from the pool, each a plausible yield (a few % a year).
    const history = await get<{ data: { timestamp: number; apr: number }[] }>(
      page,
      `/api/history?id=${s.id}&range=30D`,
    );
    expect(history.data.length, s.name).toBeGreaterThan(20);
    expect(new Date(history.data.at(-1)!.timestamp).toISOString().slice(0, 10), s.name).toBe(
      shiftDay(today, -1),
    );
    for (const r of history.data) {
      const day = new Date(r.timestamp).toISOString().slice(0, 10);
      expect(r.apr, `${s.name} ${day}`).toBeGreaterThan(1);
      expect(r.apr, `${s.name} ${day}`).toBeLessThan(10);
    }
  }

  // Both base rates are live, every component with them; a component with a contract is read
  // from the chain.
  const base = await get<ApiBaseRates>(page, '/api/baserate');
  for (const type of ['stablecoin', 'defi'] as const) {
    expect(base.status[type], type).toBe('ok');
    expect(LIVE, type).toContain(base.provenance[type].kind);
    const components = base.provenance[type].components ?? [];
    expect(components.length, type).toBeGreaterThan(0);
    for (const c of components) {
      expect(LIVE, c.series).toContain(c.kind);
      const deployed = localChain.feeds.get(c.series);
      if (deployed) {
        expect(c.kind, c.series).toBe('onchain');
        expect(sameAddress(c.address, deployed.address), c.series).toBe(true);
      } else expect(c.kind, c.series).toBe('defillama');
    }
  }
  expect(base.baserateStable).toEqual(expect.any(Number));
  expect(base.baserateDefi).toEqual(expect.any(Number));
});

for (const width of WIDTHS) {
  test(`the comparison at ${width} px: every row and both base rates live, no "No live data" or "Sample data"`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { sources, metricsOf } = await apiAnswer(page);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/options`);
    await expect(page.getByTestId('data-note')).toContainText(
      `Data: DeFiLlama, as of ${readable(today)}.`,
      { timeout: 30_000 },
    );

    for (const type of ['stablecoin', 'defi'] as const) {
      // Under 1024 px one market at a time, chosen by the Stablecoins/Crypto toggle.
      if (width < 1024)
        await page
          .getByTestId('market-toggle')
          .getByRole('button', { name: type === 'stablecoin' ? 'Stablecoins' : 'Crypto' })
          .click();
      const table = page.getByTestId(TABLE_OF[type]);
      for (const source of sources.filter((s) => s.type === type && !s.isBaseRate)) {
        const row = table.locator(`tbody tr[data-row-key="source-${source.id}"]`);
        await expect(row, source.name).toBeVisible();
        const kind = metricsOf.get(source.id)!.provenance.kind;
        expect(source.feeds.length, source.name).toBeGreaterThan(0);
        await expect(row, source.name).not.toContainText('No live data');
        if (kind === 'onchain') {
          // The note speaks for DeFiLlama: a row read from the chain says so.
          await expect(row.getByTestId('row-data-tag'), source.name).toHaveText('On chain');
          await expect(row, source.name).toContainText(/\d+\.\d{2}%/);
        } else {
          expect(kind, source.name).toBe('defillama');
          await expect(row.getByTestId('row-data-tag'), source.name).toHaveCount(0);
          await expect(row, source.name).toContainText(/\d+\.\d{2}%/);
        }
      }
      // The base rate: live, its figure shown, no component left out of its mean; tagged "On chain"
      // when every component is read from the chain (the note speaks for DeFiLlama).
      const baseRow = table.locator(`tbody tr[data-row-key="base-${type}"]`);
      await expect(baseRow).toBeVisible();
      const baseKind = sources.find((s) => s.isBaseRate && s.type === type)!.provenance.kind;
      expect(LIVE, `base-${type}`).toContain(baseKind);
      if (baseKind === 'onchain')
        await expect(baseRow.getByTestId('row-data-tag')).toHaveText('On chain');
      else await expect(baseRow.getByTestId('row-data-tag')).toHaveCount(0);
      await expect(baseRow).toContainText(/\d+\.\d{2}%/);
      await expect(table.getByTestId('base-components-note')).toHaveCount(0);
      // Nowhere on the page: the sample label, or a row without live data.
      await expect(page.getByText(/Sample data/)).toHaveCount(0);
      await expect(page.getByText(/No live data/)).toHaveCount(0);
      if (width < 1024) await shot(page, `comparison-${width}-${type}.png`);
    }
    if (width >= 1024) await shot(page, `comparison-${width}.png`);
  });
}

test('a source led by the chain says "share price on chain" in its strategy page', async ({
  page,
  localChain,
}) => {
  test.setTimeout(90_000);
  const { sources } = await apiAnswer(page);
  const chainLed = sources.filter(
    (s) => !s.isBaseRate && s.provenance.kind === 'onchain' && s.detailSlug !== null,
  );
  expect(chainLed.length).toBeGreaterThan(0);
  for (const s of chainLed) {
    const deployed = [...localChain.feeds.values()].find((f) =>
      sameAddress(s.provenance.address, f.address),
    )!;
    expect(deployed, s.name).toBeDefined();
    await page.goto(`${baseUrl}/options/${s.detailSlug}`);
    const line = page.getByTestId('data-source');
    await expect(line).toContainText(
      `Data: share price on chain, as of ${readable(s.provenance.asOf!)}.`,
      { timeout: 30_000 },
    );
    // A Stability Pool has no share price: the page names what is read from it.
    const pool = s.feeds.some((f) => f.kind === 'liquity-stability-pool');
    await expect(line.getByTestId('chain-feed')).toContainText(
      new RegExp(
        pool
          ? `A deposit's gains and losses read on ${deployed.chain} from the Stability Pool ${deployed.address}`
          : `Share price read on ${deployed.chain} from ${deployed.address}`,
        'i',
      ),
    );
    await expect(page.getByTestId('figure-30d APR')).toContainText(/\d+\.\d{2}%/);
    await expect(page.getByTestId('chart-apr')).toBeVisible();
    // No figure of the page is labelled sample (the editorial liquidity notes have their own).
    await expect(page.getByText(/Sample data as of/)).toHaveCount(0);
    await shot(page, `strategy-${s.detailSlug}.png`);
  }
});
