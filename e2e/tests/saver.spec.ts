/** The saver tools: the earnings calculator, the Exit column and the compare view. */
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';

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
