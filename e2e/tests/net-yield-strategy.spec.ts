/**
 * What a deposit keeps after its fees and gas, on the strategy page's earnings calculator and on
 * the compare page, at a phone's, a tablet's and a desktop's width: typed amounts, the net amount
 * and the break-even day of a source whose costs were read, "Unknown" with the reason for one
 * whose were not, and no sideways scrolling of the page.
 *
 * The costs are those an import stores in costs.json (dated, each part known or unknown): the e2e
 * server starts with Gauntlet USD Alpha's (an ERC-4626 vault on Base), fixtures/costs.ts. Every figure the page shows is the API's answer.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import { ComparePage } from '../pages/compare.ts';
import { StrategyDetailPage } from '../pages/strategy.ts';
import { BASE_READ_ON, KNOWN_COSTS } from '../fixtures/costs.ts';

/** Gauntlet USD Alpha: costs read. Liquity's Stability Pool: none read. Both in USD. */
const KNOWN = { id: KNOWN_COSTS.base, slug: 'gauntlet' };
const UNKNOWN = { id: 3, slug: 'liquity' };
const READ_ON = BASE_READ_ON;
const WIDTHS = [375, 800, 1280] as const;

interface NetAnswer {
  netAmount: number | null;
  breakEvenDays: number | null;
  costsAsOf: string | null;
  costs: Record<'entry' | 'exit' | 'gasIn' | 'gasOut', { unknown: string | null }>;
}

async function netYield(request: APIRequestContext, id: number, amount: number, days: number) {
  const response = await request.get(`/api/net-yield?id=${id}&amount=${amount}&days=${days}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as NetAnswer;
}

const usd = (value: number) =>
  `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function breakEven(answer: NetAnswer): RegExp {
  if (answer.breakEvenDays === null) throw new Error('the source should break even');
  return new RegExp(`^Breaks even after ${answer.breakEvenDays} days?`);
}

async function noSidewaysScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  // The e2e server starts with these costs (fixtures/costs.ts).
  expect((await netYield(request, KNOWN.id, 500, 365)).costsAsOf).toBe(READ_ON);
});

for (const width of WIDTHS) {
  test(`the strategy page's calculator at ${width} px: typed amounts, net amount, break-even`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const view = new StrategyDetailPage(page);
    await view.goto(KNOWN.slug);
    const section = page.locator('[data-section="earnings"]');
    const card = section.getByTestId(`net-${KNOWN.id}`);
    for (const amount of [500, 25_000]) {
      await section.getByTestId('earnings-amount').fill(String(amount));
      const answer = await netYield(request, KNOWN.id, amount, 365);
      await expect(card.getByTestId('net-amount')).toHaveText(usd(answer.netAmount!));
      await expect(card.getByTestId('break-even')).toHaveText(breakEven(answer));
    }
    await section.getByLabel('Held for').selectOption('90');
    const ninety = await netYield(request, KNOWN.id, 25_000, 90);
    await expect(card.getByTestId('net-amount')).toHaveText(usd(ninety.netAmount!));
    await expect(card).toContainText('what you keep after 90 days');
    await expect(section.getByText('Every cost is taken out at the deposit')).toBeVisible();

    // Each cost's tip opens on a tap and says where the figure was read.
    await card.getByRole('button', { name: 'About Gas in' }).click();
    await expect(page.getByRole('tooltip')).toContainText('eth_feeHistory');
    await expect(page.getByRole('tooltip')).toContainText('Read on Nov 20, 2026');
    await noSidewaysScroll(page, width);
    await card.screenshot({ path: testInfo.outputPath(`net-calculator-${width}.png`) });
  });

  test(`a source without costs at ${width} px: "Unknown" with the reason, never 0`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await new StrategyDetailPage(page).goto(UNKNOWN.slug);
    const section = page.locator('[data-section="earnings"]');
    await section.getByTestId('earnings-amount').fill('500');
    const answer = await netYield(request, UNKNOWN.id, 500, 365);
    const card = section.getByTestId(`net-${UNKNOWN.id}`);
    await expect(card.getByTestId('net-amount')).toHaveText('Unknown');
    await expect(card.getByTestId('break-even')).toHaveText(
      'Break-even unknown: a cost is unknown',
    );
    const entry = card.getByTestId('cost-entry').locator('dd');
    await expect(entry).toHaveText(`Unknown${answer.costs.entry.unknown}`);
    await noSidewaysScroll(page, width);
  });

  test(`the compare page at ${width} px: each source's net figures side by side`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const view = new ComparePage(page);
    await view.goto(`${KNOWN.id},${UNKNOWN.id}`);
    await view.netYield.getByLabel('Amount in each source\u2019s unit').fill('2500');
    await view.netYield.getByLabel('Held for').selectOption('180');
    const known = await netYield(request, KNOWN.id, 2500, 180);
    const unknown = await netYield(request, UNKNOWN.id, 2500, 180);
    await expect(view.netCells('net-amount')).toHaveText([usd(known.netAmount!), 'Unknown']);
    await expect(view.netCells('break-even').first()).toHaveText(breakEven(known));
    await expect(view.netCells('cost-entry').last()).toHaveText(
      `Unknown${unknown.costs.entry.unknown}`,
    );
    await expect(view.netCells('costs-as-of').first()).toHaveText('Nov 20, 2026, Base');
    await noSidewaysScroll(page, width);
    await view.netYield.screenshot({ path: testInfo.outputPath(`net-compare-${width}.png`) });
  });
}
