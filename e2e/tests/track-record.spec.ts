/**
 * The track record (/track-record) against the real API and the shipped sample data: reached from
 * the comparison and from /methodology, labelled as sample data, a chart and a table per type,
 * readable at 375, 800 and 1280 px without sideways scrolling, and its CSV downloads.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { test, expect } from '../fixtures/index.ts';
import { TrackRecordPage } from '../pages/track-record.ts';

/** Screenshots for a person to look at, outside the repository (SHOTS_DIR to move them). */
const SHOTS_DIR = process.env.SHOTS_DIR;

test.describe('track record without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the title and how it is computed are painted from the HTML', async ({ page }) => {
    await page.goto('/track-record');
    await expect(
      page.locator('[data-first-paint="mfe_leaderboard/TrackRecordPage"]'),
    ).toBeVisible();
    // Shown but hidden from assistive technology until the app runs, so found by text.
    await expect(page.locator('main h1')).toHaveText('Track record');
    await expect(page.getByText('How it is computed')).toBeVisible();
    await expect(page.getByText(/^What following our ranking would have paid/)).toBeVisible();
  });
});

test.describe('track record', () => {
  test.describe.configure({ timeout: 120_000 });

  test('reached from the comparison and from /methodology, labelled sample data, with its months', async ({
    page,
  }) => {
    const record = new TrackRecordPage(page);
    await page.goto('/options');
    await page.getByRole('link', { name: 'Our track record' }).click();
    await expect(page).toHaveURL(/\/track-record$/);
    await expect(record.heading).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveTitle(/^Track record \| /);
    await expect(record.dataNote).toContainText('Sample data as of');
    await expect(record.dataNote).toContainText('computed from the sample data the site runs on');
    await expect(record.stableTable).toBeVisible();
    await expect(record.defiTable).toBeVisible();
    expect(await record.stableTable.getByTestId('track-row').count()).toBeGreaterThan(6);
    // The exploit of 2026-03-22 falls in March's holding of the top pick.
    await expect(record.stableTable).toContainText('Incident Mar 22, 2026');
    // The sample has no pool histories: the scanner's section says so, with no figures.
    const scanner = page.getByTestId('track-scanner');
    await expect(scanner.getByTestId('scanner-track-empty')).toContainText(
      'No month yet: no pool has a daily history here yet (the sample data has none).',
    );
    await expect(scanner.getByTestId('scanner-track-table')).toHaveCount(0);

    await page.goto('/methodology');
    const section = page.getByRole('region', { name: 'Track record' });
    await section.getByRole('link', { name: 'track record' }).click();
    await expect(page).toHaveURL(/\/track-record$/);
    await expect(record.stableTable).toBeVisible();
  });

  for (const width of [375, 800, 1280]) {
    test(`at ${width} px: charts drawn, no sideways scrolling, the CSV downloads`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const record = new TrackRecordPage(page);
      await page.goto('/track-record');
      await expect(record.stableTable).toBeVisible({ timeout: 30_000 });
      // Each type's chart (Highcharts, drawn when near the viewport).
      for (const type of ['stablecoin', 'defi']) {
        const chart = page.getByTestId(`track-chart-${type}`);
        await chart.scrollIntoViewIfNeeded();
        await expect(chart.locator('.highcharts-root')).toBeVisible({ timeout: 30_000 });
      }
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      if (SHOTS_DIR) {
        await mkdir(SHOTS_DIR, { recursive: true });
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `${SHOTS_DIR}/track-record-${width}.png`, fullPage: true });
      }

      const download = page.waitForEvent('download');
      await record.csv.click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^pigi-track-record-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await readFile((await file.path())!, 'utf8');
      const lines = text.trimEnd().split('\r\n');
      expect(lines[0]).toMatch(/^type,decidedOn,until,days,riskAdjustedPick,/);
      expect(lines.length).toBe(1 + (await record.rows.count()));
      expect(lines.some((l) => l.startsWith('stablecoin,'))).toBe(true);
      expect(lines.some((l) => l.startsWith('defi,'))).toBe(true);
    });
  }
});
