/**
 * A pool's page on the yield scanner (/scanner/pool/:pool) against the real API and the shipped
 * sample snapshot: a saver opens a pool from the ranking, sees its history chart (a generated
 * history, marked as sample) and its current figures, and goes back; an unknown pool says so.
 */
import { test, expect } from '../fixtures/index.ts';
import { ScannerPage } from '../pages/scanner.ts';

test.describe('scanner pool page', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a saver opens a pool from the scanner and sees its daily history and figures', async ({
    page,
  }) => {
    const scanner = new ScannerPage(page);
    await page.goto('/scanner');
    await expect(scanner.heading).toBeVisible({ timeout: 30_000 });
    await expect(scanner.rows).toHaveCount(10);
    const first = scanner.rows.first();
    const link = first.getByTestId('scanner-pool-link');
    const symbol = (await link.textContent())!.trim();
    const historyAnswer = page.waitForResponse((r) =>
      /\/api\/scanner\/pools\/[^/]+\/history$/.test(new URL(r.url()).pathname),
    );
    await link.click();
    await expect(page).toHaveURL(/\/scanner\/pool\/[0-9a-f-]{36}$/);
    const pool = new URL(page.url()).pathname.split('/').at(-1)!;
    const answer = (await (await historyAnswer).json()) as {
      pool: string;
      sample: boolean;
      days: { date: string; apy: number; tvlUsd: number }[];
    };
    expect(answer.pool).toBe(pool);
    expect(answer.sample).toBe(true);

    await expect(page.getByRole('heading', { level: 1 })).toContainText(symbol, {
      timeout: 30_000,
    });
    await expect(page).toHaveTitle(
      new RegExp(`^${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on `),
    );
    await expect(page.getByTestId('pool-figures')).toContainText('Risk-adjusted APR');
    await expect(page.getByTestId('pool-data-note')).toContainText('Sample data');
    const chart = page.getByTestId('pool-history-chart');
    await expect(chart).toHaveAttribute('data-days', String(answer.days.length));
    expect(answer.days.length).toBeGreaterThanOrEqual(30);
    // Highcharts drew both lines (APY and TVL).
    for (const series of [0, 1])
      await expect(
        chart.locator(`g.highcharts-series-${series} path.highcharts-graph`).first(),
      ).toBeVisible({ timeout: 30_000 });
    await expect(chart.locator('.highcharts-legend')).toContainText('APY');
    await expect(chart.locator('.highcharts-legend')).toContainText('TVL');

    await page.getByTestId('pool-back').click();
    await expect(page).toHaveURL(/\/scanner$/);
    await expect(scanner.heading).toBeVisible();
  });

  test('an unknown pool says so and links back', async ({ page }) => {
    await page.goto('/scanner/pool/00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('pool-not-found')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('pool-back')).toHaveAttribute('href', '/scanner');
  });
});
