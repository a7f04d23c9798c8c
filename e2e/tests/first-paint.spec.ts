/**
 * Pages arrive painted by the server (shell frame + the page's first module), so /, /options,
 * /options/:id, /scanner and /compare show their largest text before any JavaScript runs (the
 * strategy and the compared sources from the API's answers the page carries); the app then takes
 * over in place.
 */
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import { fetchSettings } from '../pages/content.ts';

interface PaintCase {
  path: string;
  module: string;
  /** The page's largest text block (its LCP element). */
  largest: (page: Page) => ReturnType<Page['locator']>;
  /** The text it shows, read from the API. */
  expectText: (page: Page) => Promise<string>;
}

const setting = (key: 'siteHeader' | 'siteDescription') => async (page: Page) =>
  ((await fetchSettings(page)) as unknown as Record<string, string>)[key]!;

async function apiJson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

const cases: PaintCase[] = [
  {
    path: '/',
    module: 'mfe_content/LandingHero',
    largest: (page) => page.locator('#landing-hero-title'),
    expectText: setting('siteHeader'),
  },
  {
    path: '/options',
    module: 'mfe_leaderboard/ComparisonPage',
    largest: (page) => page.getByText(/^Every yield source ranked by its risk-adjusted/),
    expectText: setting('siteDescription'),
  },
  {
    path: '/options/lido',
    module: 'mfe_strategy/StrategyDetailPage',
    largest: (page) => page.getByText(/^Stake ETH with Lido/),
    expectText: async (page) =>
      (await apiJson<{ description: string }>(page, '/api/strategy-content/lido')).description,
  },
  {
    path: '/scanner',
    module: 'mfe_leaderboard/ScannerPage',
    largest: (page) => page.getByText(/^Every pool DeFiLlama tracks/),
    expectText: async () =>
      'Every pool DeFiLlama tracks, ranked by risk-adjusted APR: what the pool can be expected to pay over the next 30 days (not a launch spike), minus a charge for each loss its APY does not show, compared with the DeFi Base Rate of its kind. How the charges work',
  },
  {
    path: '/compare?ids=3,2',
    module: 'mfe_strategy/ComparePage',
    largest: (page) => page.locator('main h1'),
    expectText: async (page) => {
      const sources = await apiJson<{ id: number; name: string }[]>(page, '/api/sources');
      const name = (id: number) => sources.find((source) => source.id === id)!.name;
      return `Compare ${name(3)} and ${name(2)}`;
    },
  },
];

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, module, largest, expectText } of cases) {
    test(`${path} is painted from the HTML: header, its first module and footer`, async ({
      page,
    }) => {
      const text = await expectText(page);
      await page.goto(path);
      const painted = page.locator(`[data-first-paint="${module}"]`);
      await expect(painted).toBeVisible();
      await expect(largest(page)).toHaveText(text);
      // Shown, but not usable before the app runs: hidden from assistive technology and input.
      await expect(painted).toHaveAttribute('inert', '');
      await expect(painted).toHaveAttribute('aria-hidden', 'true');
      await expect(page.locator('header.site-header')).toBeVisible();
      await expect(page.locator('footer.site-footer')).toContainText(
        String(new Date().getFullYear()),
      );
      // Styled by its stylesheets, not raw HTML: the header is laid out as a bar.
      const header = await page.locator('header.site-header').boundingBox();
      expect(header!.height).toBeLessThan(120);
      await expect(page).toHaveTitle(/\| Pigi$/);
    });
  }
});

test.describe('without JavaScript, the comparison', () => {
  test.use({ javaScriptEnabled: false });

  for (const [width, shown, hidden] of [
    [375, 'market-toggle', 'pro-toggle'],
    [1280, 'pro-toggle', 'market-toggle'],
  ] as const) {
    test(`shows the toggle of a ${width} px screen, as the app will`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/options');
      await expect(page.getByTestId(shown)).toBeVisible();
      await expect(page.getByTestId(hidden)).toBeHidden();
    });
  }
});

test.describe('the app takes over the first paint', () => {
  for (const width of [375, 1280]) {
    for (const { path, largest } of cases) {
      test(`${path} at ${width} px: same place, then interactive, nothing left behind`, async ({
        browser,
        consoleErrors,
      }) => {
        const viewport = { width, height: 800 };
        const still = await browser.newContext({ viewport, javaScriptEnabled: false });
        const stillPage = await still.newPage();
        await stillPage.goto(path);
        const before = await largest(stillPage).boundingBox();
        await still.close();

        const live = await browser.newContext({ viewport });
        const page = await live.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
        await page.goto(path);
        // The module itself is on screen: its heading is in the accessibility tree again.
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
        await expect(page.locator('[data-first-paint]')).toHaveCount(0);
        await expect(page.locator('[data-first-paint-head]')).toHaveCount(0);
        await expect(page.locator('head title')).toHaveCount(1);
        const after = await largest(page).boundingBox();
        expect(Math.abs(after!.y - before!.y), 'vertical shift').toBeLessThanOrEqual(1);
        expect(Math.abs(after!.height - before!.height), 'height change').toBeLessThanOrEqual(1);
        await live.close();
      });
    }
  }
});
