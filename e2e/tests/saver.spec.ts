/** The saver tools: the earnings calculator, the Exit column and the compare view. */
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import { LeaderboardPage } from '../pages/leaderboard.ts';

interface Earnings {
  earned: number;
  base: { earned: number };
  difference: number;
  unit: 'USD' | 'ETH';
}

async function earnings(page: Page, id: number, amount: number, range: string) {
  const res = await page.request.get(`/api/earnings?id=${id}&amount=${amount}&range=${range}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Earnings;
}

const usd = (n: number, signed = false) =>
  `${n < 0 ? '-' : signed && n > 0 ? '+' : ''}$${Math.abs(n).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })}`;

test.describe('earnings calculator', () => {
  test('on a strategy page: both figures and the difference, for the typed amount and range', async ({
    page,
  }) => {
    await page.goto('/options/sky-spark');
    const calc = page.locator('[data-section="earnings"]');
    await expect(calc.getByRole('heading', { name: 'What would it have earned?' })).toBeVisible();
    await expect(calc.getByLabel('Amount in USD')).toHaveValue('10000');

    const result = calc.getByTestId('earnings-2');
    let api = await earnings(page, 2, 10_000, '30D');
    await expect(result.getByTestId('earned')).toHaveText(usd(api.earned));
    await expect(result.getByTestId('earned-base')).toHaveText(usd(api.base.earned));
    await expect(result.getByTestId('earned-difference')).toHaveText(usd(api.difference, true));

    await calc.getByLabel('Amount in USD').fill('25000');
    await calc.getByRole('button', { name: '90D', exact: true }).click();
    api = await earnings(page, 2, 25_000, '90D');
    await expect(result.getByTestId('earned')).toHaveText(usd(api.earned));
    await expect(result.getByTestId('earned-base')).toHaveText(usd(api.base.earned));
    await expect(result).toContainText('90 days');

    await calc.getByLabel('Amount in USD').fill('-3');
    await expect(calc.getByRole('alert')).toHaveText(/Enter an amount above 0/);
    await expect(result).toHaveCount(0);
  });

  test('an ETH source counts in ETH', async ({ page }) => {
    await page.goto('/options/lido');
    const calc = page.locator('[data-section="earnings"]');
    await expect(calc.getByLabel('Amount in ETH')).toHaveValue('10');
    const api = await earnings(page, 13, 10, '30D');
    expect(api.unit).toBe('ETH');
    await expect(calc.getByTestId('earnings-13').getByTestId('earned')).toHaveText(
      `${api.earned.toFixed(4)} ETH`,
    );
  });
});

test.describe('exit', () => {
  test('the Pro view has an Exit column that sorts by the days until the money is back', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await board.proToggle.getByRole('button', { name: 'Pro' }).click();
    const table = board.cryptoTable;
    const ethena = table.row('Ethena - sUSDe').locator('td').last();
    await expect(ethena).toHaveText('7-day cooldown');
    await expect(ethena.locator('span')).toHaveAttribute('title', /cooldown/);
    await expect(table.row('Lido - stETH').locator('td').last()).toHaveText('Queue, up to 5 days');

    await table.header('Exit').click();
    const ascending = await table.rowNames();
    expect(ascending.at(-1)).toBe('DeFi Base Rate');
    // Instant sources first, then Ethena's 7 days after Lido's 5, the base rate last.
    expect(ascending.indexOf('Lido - stETH')).toBeLessThan(ascending.indexOf('Ethena - sUSDe'));
    await table.header('Exit').click();
    const descending = await table.rowNames();
    expect(descending[0]).toBe('Ethena - sUSDe');

    await board.proToggle.getByRole('button', { name: 'Standard' }).click();
    expect(await board.stablecoinsTable.headerTexts()).not.toContain('Exit');
  });

  test('the strategy page explains the exit, with its source and date', async ({ page }) => {
    await page.goto('/options/lido');
    const exit = page.locator('[data-section="exit"]');
    await expect(exit.getByRole('heading', { name: 'Exit' })).toBeVisible();
    await expect(exit).toContainText('Queue: up to 5 days');
    await expect(exit).toContainText('withdrawal queue');
    await expect(exit.getByRole('link', { name: /source/ })).toHaveAttribute(
      'href',
      'https://help.lido.fi/en/articles/7858292-faq-ethereum-withdrawals',
    );
  });
});
