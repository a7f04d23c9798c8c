/**
 * No live data: the operators' own command imports DeFiLlama answers (fixtures/imported-site.ts,
 * every feed of sources.json replayed), then the comparison is opened at 375, 800 and 1280 px.
 * Each row is checked against the API's own answer, not a fixed list, so the spec stays true as
 * sources get feeds: a row whose series is live shows no tag and its figures; a row without live
 * data (provenance kind `none`) says "No live data", shows no figure and sorts after the live rows;
 * no row and no note says "Sample data" once the site has imported.
 *
 * E2E_SHOTS_DIR (optional): a folder outside the repository where the screenshots of the
 * comparison at each width and of a strategy page without live data are saved for review.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { ImportedSite, readable, today } from '../fixtures/imported-site.ts';

interface ApiSource {
  id: number;
  name: string;
  type: 'stablecoin' | 'defi';
  isBaseRate: boolean;
  detailSlug: string | null;
  provenance: { kind: string; components?: { series: string; kind: string }[] };
}
interface ApiMetrics {
  id: number;
  great: boolean;
  status: string;
  provenance: { kind: string };
}

const WIDTHS = [375, 800, 1280] as const;
const TABLE_OF = { stablecoin: 'stablecoins-table', defi: 'crypto-table' } as const;
const shotsDir = process.env.E2E_SHOTS_DIR;

let site: ImportedSite | undefined;
let baseUrl = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  site = await ImportedSite.start({});
  baseUrl = site.baseUrl;
});

test.afterAll(async () => {
  await site?.stop();
});

async function apiAnswer(page: Page) {
  const get = async <T>(p: string) =>
    (await (await page.request.get(`${baseUrl}${p}`)).json()) as T;
  const [sources, metrics] = await Promise.all([
    get<ApiSource[]>('/api/sources'),
    get<ApiMetrics[]>('/api/strategies'),
  ]);
  return { sources, metrics };
}

async function shot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, name), fullPage: true });
}

test('after an import the API answers every source as live or without live data, never sample', async ({
  page,
}) => {
  const { sources, metrics } = await apiAnswer(page);
  const rows = sources.filter((s) => !s.isBaseRate);
  expect(rows.length).toBeGreaterThan(0);
  // The shipped sources.json has sources without a feed; whichever they are, none is sample.
  for (const s of sources) expect(['defillama', 'none']).toContain(s.provenance.kind);
  for (const m of metrics) {
    if (m.provenance.kind !== 'none') continue;
    expect(m).toMatchObject({ status: 'insufficient_data', great: false });
  }
  const settings = (await (await page.request.get(`${baseUrl}/api/settings`)).json()) as {
    data: { sample: boolean; asOf: string };
  };
  expect(settings.data).toMatchObject({ sample: false, asOf: today });
});

for (const width of WIDTHS) {
  test(`the comparison at ${width} px: live rows without a tag, the others "No live data" and last`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { sources } = await apiAnswer(page);
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
      const ofType = sources.filter((s) => s.type === type && !s.isBaseRate);
      for (const source of ofType) {
        const row = table.locator(`tbody tr[data-row-key="source-${source.id}"]`);
        await expect(row).toBeVisible();
        if (source.provenance.kind === 'none') {
          await expect(row.getByTestId('row-data-tag')).toHaveText('No live data');
          // No figure of any kind: no percentage, no TVL, no GREAT.
          await expect(row).not.toContainText(/\d\.\d\d%|\$\d/);
          await expect(row).not.toContainText(/GREAT|N\/A/);
        } else {
          await expect(row.getByTestId('row-data-tag')).toHaveCount(0);
          await expect(row).toContainText(/\d+\.\d{2}%/);
        }
      }
      // Rows without live data are not ranked: after every live row, before the benchmark.
      const order = await table
        .locator('tbody tr[data-row-key]')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')!));
      const kindOf = new Map(ofType.map((s) => [`source-${s.id}`, s.provenance.kind]));
      const flags = order.filter((k) => kindOf.has(k)).map((k) => kindOf.get(k) === 'none');
      expect(flags).toEqual([...flags].sort((a, b) => Number(a) - Number(b)));
      expect(order.at(-1)).toBe(`base-${type}`);
      // A base rate with a component without live data names what its mean uses.
      const base = sources.find((s) => s.isBaseRate && s.type === type)!;
      const left = (base.provenance.components ?? []).filter((c) => c.kind === 'none');
      const note = table.getByTestId('base-components-note');
      if (left.length > 0)
        await expect(note).toContainText(
          `Left out, without live data: ${left.map((c) => c.series).join(', ')}.`,
        );
      else await expect(note).toHaveCount(0);
      if (left.length > 0 && width >= 1024) {
        // Its breakdown says the same.
        await table
          .locator(`tbody tr[data-row-key="base-${type}"]`)
          .getByRole('button', { name: /explain this number/ })
          .click();
        await expect(page.getByTestId('breakdown-data-source')).toContainText(
          `left out of the mean, without live data: ${left.map((c) => c.series).join(', ')}.`,
        );
        await page.keyboard.press('Escape');
      }
      // Nowhere on the page: the sample label.
      await expect(page.getByText(/Sample data/)).toHaveCount(0);
      if (width < 1024) await shot(page, `comparison-${width}-${type}.png`);
      if (shotsDir)
        await table.screenshot({ path: path.join(shotsDir, `table-${width}-${type}.png`) });
    }
    if (width >= 1024) await shot(page, `comparison-${width}.png`);
  });
}

test('a strategy page without live data says so where the figures would be and keeps its content', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { sources } = await apiAnswer(page);
  const unfed = sources.find((s) => s.provenance.kind === 'none' && s.detailSlug !== null);
  if (!unfed) {
    // Every source with a public page has a feed by now: each page shows live figures.
    for (const s of sources.filter((x) => x.detailSlug !== null)) {
      await page.goto(`${baseUrl}/options/${s.detailSlug}`);
      await expect(page.getByTestId('figure-30d APR')).toContainText(/\d+\.\d{2}%/, {
        timeout: 30_000,
      });
      await expect(page.getByTestId('no-live-data')).toHaveCount(0);
    }
    return;
  }
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/options/${unfed!.detailSlug}`);
    await expect(page.getByTestId('figure-30d APR')).toContainText('No live data', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('figure-TVL')).toContainText('No live data');
    await expect(page.getByTestId('figure-30d Risk-Adjusted APR')).toContainText('No live data');
    await expect(page.getByTestId('no-live-data')).toBeVisible();
    await expect(page.getByTestId('data-source')).toHaveCount(0);
    await expect(page.getByTestId('chart-apr')).toHaveCount(0);
    await expect(page.getByTestId(`earnings-${unfed!.id}`)).toContainText('No live data');
    // Its descriptive content stays: the deposit link, the exit, the risks.
    await expect(page.getByTestId('deposit-link')).toBeVisible();
    await expect(page.locator('[data-section="exit"]')).toBeVisible();
    await expect(page.locator('[data-section="risk-analysis"]')).toBeVisible();
    await expect(page.getByText(/Sample data as of/)).toHaveCount(0);
    await shot(page, `strategy-${unfed!.detailSlug}-${width}.png`);
    if (shotsDir) {
      for (const section of ['fundamentals', 'earnings', 'risk-analysis'])
        await page
          .locator(`[data-section="${section}"]`)
          .screenshot({ path: path.join(shotsDir, `strategy-${section}-${width}.png`) });
    }
  }
});
