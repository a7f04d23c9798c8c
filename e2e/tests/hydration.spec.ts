/**
 * The strategy page is hydrated: the browser adopts the server's markup (the same DOM nodes stay
 * on screen and become the app) instead of rendering the page a second time, without one of
 * React's recoverable hydration errors (a mismatch would make React render that part again).
 * What only the browser knows (a stored time range, a premium token) is applied right after.
 */
import type { Page } from '@playwright/test';
import { test, expect, fetchPremiumToken, storeToken } from '../fixtures/index.ts';
import { StrategyDetailPage } from '../pages/strategy.ts';

/** Marks the server's `<h1>` as the HTML arrives, before any of the page's scripts runs. */
async function markPaintedHeading(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const heading = document.querySelector('main h1');
      if (heading) (heading as HTMLElement & { painted?: boolean }).painted = true;
    });
  });
}

const adoptedHeading = (page: Page) =>
  page.evaluate(
    () =>
      (document.querySelector('main h1') as (HTMLElement & { painted?: boolean }) | null)
        ?.painted === true,
  );

for (const width of [375, 1280]) {
  test(`/options/lido at ${width} px: the server's markup is adopted, no hydration error`, async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await markPaintedHeading(page);
    const detail = new StrategyDetailPage(page);
    await detail.goto('lido');
    // Usable: the range switch works, the sections below the first screen are there.
    await expect(detail.rangeButton('30D')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('[data-section="liquidity"]')).toBeAttached();
    await expect(page.locator('[data-hydrating]')).toHaveCount(0);
    expect(consoleErrors, 'no recoverable hydration error').toEqual([]);
    expect(await adoptedHeading(page), 'the painted <h1> is the app’s').toBe(true);
  });
}

test('/options/lido with a stored 7D and a premium token: both applied after hydration', async ({
  page,
  consoleErrors,
}) => {
  await storeToken(page, await fetchPremiumToken(page));
  const name = (
    (await (await page.request.get('/api/strategy-content/lido')).json()) as { name: string }
  ).name;
  await page.addInitScript(
    (key) => window.localStorage.setItem(key, '7D'),
    `${name.toLowerCase()}TimeRange`,
  );
  await markPaintedHeading(page);
  const detail = new StrategyDetailPage(page);
  await detail.goto('lido');
  await expect(detail.rangeButton('7D')).toHaveAttribute('aria-pressed', 'true');
  await expect(detail.aprChart).toHaveAttribute('data-point-count', '7');
  await expect(
    page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('button', {
      name: 'Log Out',
    }),
  ).toBeVisible();
  expect(consoleErrors, 'no recoverable hydration error').toEqual([]);
  expect(await adoptedHeading(page), 'the painted <h1> is the app’s').toBe(true);
});
