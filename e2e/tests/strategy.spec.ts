import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import {
  DETAIL_HEADINGS,
  DETAIL_SECTIONS,
  NumericStrategyPage,
  StrategyDetailPage,
} from '../pages/strategy.ts';

interface Content {
  id: number;
  name: string;
  pageTitle: string;
  pageDescription: string;
  investUrl: string;
  marketCap: string;
  marketCapUrl: string;
  rank: string;
  rankUrl: string;
  riskRatingBars: number;
  holdings: { name: string }[];
  thirdPartyRatings: { provider: string; value: string }[];
  diagram: { title: string };
}

async function content(page: Page, slug: string): Promise<Content> {
  const response = await page.request.get(`/api/strategy-content/${slug}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Content;
}

const present = (value: string) => value.trim() !== '' && value.trim().toUpperCase() !== 'N/A';

for (const slug of ['liquity', 'sky-spark', 'gauntlet', 'lido']) {
  test.describe(`/options/${slug}`, () => {
    test('shows the API content with its sections in order, meta and deposit link', async ({
      page,
    }) => {
      const data = await content(page, slug);
      const detail = new StrategyDetailPage(page);
      await detail.goto(slug);

      await expect(detail.heading).toHaveText(data.name);
      await expect(page).toHaveTitle(
        new RegExp(`^${data.pageTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| .+`),
      );
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        data.pageDescription,
      );
      // The sections below the fold render in a deferred pass (useDeferredValue): wait for it.
      await expect.poll(() => detail.sectionOrder()).toEqual([...DETAIL_SECTIONS]);
      expect(await detail.sectionHeadings()).toEqual(DETAIL_HEADINGS);

      await expect(detail.depositLink).toHaveAttribute('href', data.investUrl);
      await expect(detail.depositLink).toHaveAttribute('target', '_blank');
      await expect(detail.depositLink).toHaveAttribute('rel', 'noopener noreferrer');

      const facts = page.locator('[data-section="header"] dl');
      if (present(data.marketCap)) {
        await expect(facts).toContainText(`Market Cap${data.marketCap}`);
        if (data.marketCapUrl)
          await expect(facts.getByRole('link', { name: data.marketCap })).toHaveAttribute(
            'href',
            data.marketCapUrl,
          );
      } else {
        await expect(page.getByText('Market Cap', { exact: true })).toHaveCount(0);
      }
      if (present(data.rank)) {
        await expect(facts).toContainText(`Rank${data.rank}`);
        if (data.rankUrl)
          await expect(facts.getByRole('link', { name: data.rank })).toHaveAttribute(
            'href',
            data.rankUrl,
          );
      } else {
        await expect(page.getByText('Rank', { exact: true })).toHaveCount(0);
      }

      // Risk Analysis: seven ratings, the green bars, nine third-party providers, texts, method link.
      const risk = page.locator('[data-section="risk-analysis"]');
      await expect(risk.getByTestId('risk-rating')).toHaveCount(7);
      await expect(risk.getByTestId('risk-bar-on')).toHaveCount(data.riskRatingBars);
      await expect(risk.getByRole('heading', { name: '3rd Party Risk Ratings' })).toBeVisible();
      await expect(risk.getByTestId('third-party-rating')).toHaveCount(
        data.thirdPartyRatings.length,
      );
      expect(data.thirdPartyRatings).toHaveLength(9);
      for (const link of await risk.getByTestId('third-party-rating').getByRole('link').all()) {
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      }
      await expect(risk.getByRole('heading', { name: 'Potential Losses' })).toBeVisible();
      await expect(risk.getByRole('heading', { name: 'Short Resume' })).toBeVisible();
      await expect(risk.getByRole('link', { name: 'Read the methodology' })).toHaveAttribute(
        'href',
        '/methodology',
      );
      await expect(risk.getByRole('table')).toContainText('Risk-adjusted APR');
      // Each charge in percentage points a year ("0.09 pp"), written as everywhere on the site.
      const charges = risk.getByRole('table').locator('tbody tr').filter({ hasText: '−' });
      await expect(charges).toHaveCount(6);
      for (const row of await charges.all()) {
        await expect(row.locator('td').last()).toHaveText(/^\d+\.\d\d pp$/);
      }

      // Allocation pie (Highcharts) with a legend entry per holding; drawn once scrolled near.
      await detail.allocationChart.scrollIntoViewIfNeeded();
      await expect(detail.allocationChart.locator('.highcharts-legend-item')).toHaveCount(
        data.holdings.length,
      );
      const slice = await detail.allocationChart
        .locator('.highcharts-series-0 .highcharts-point')
        .first()
        .boundingBox();
      expect(slice).not.toBeNull();
      await page.mouse.move(slice!.x + 2, slice!.y + 2);
      await page.mouse.move(slice!.x + slice!.width / 2, slice!.y + slice!.height / 2, {
        steps: 5,
      });
      await expect(detail.allocationChart.locator('.highcharts-tooltip')).toContainText(
        /\d+\.\d{2}%/,
      );
      // Liquidity panel labelled as sample, with its hint.
      const liquidity = page.locator('[data-section="liquidity"]');
      await expect(liquidity.getByText('Sample data', { exact: true })).toBeVisible();
      await expect(liquidity).toContainText('above 1-2% is healthy');
      await detail.liquidityChart.scrollIntoViewIfNeeded();
      await expect(detail.liquidityChart.locator('.highcharts-container')).toBeVisible();
    });

    test('range switching changes the charts and survives a reload', async ({ page }) => {
      const data = await content(page, slug);
      const detail = new StrategyDetailPage(page);
      await detail.goto(slug);

      await expect(detail.rangeButton('30D')).toHaveAttribute('aria-pressed', 'true');
      await expect(detail.aprChart).toHaveAttribute('data-point-count', '30');
      await expect(detail.drawnPoints(detail.aprChart)).toHaveCount(30);
      await expect(detail.figure('30d APR')).toContainText(/\d+\.\d{2}%/);
      await expect(detail.figure('TVL')).toContainText(/\$\d/);

      await detail.rangeButton('7D').click();
      await expect(detail.rangeButton('7D')).toHaveAttribute('aria-pressed', 'true');
      await expect(detail.aprChart).toHaveAttribute('data-point-count', '7');
      await expect(detail.tvlChart).toHaveAttribute('data-point-count', '7');
      await expect(detail.drawnPoints(detail.aprChart)).toHaveCount(7);
      await expect(detail.drawnPoints(detail.tvlChart)).toHaveCount(7);
      expect(
        await page.evaluate(
          (key) => localStorage.getItem(key),
          `${data.name.toLowerCase()}TimeRange`,
        ),
      ).toBe('7D');

      await page.reload();
      await expect(detail.rangeButton('7D')).toHaveAttribute('aria-pressed', 'true');
      await expect(detail.drawnPoints(detail.aprChart)).toHaveCount(7);

      await detail.rangeButton('90D').click();
      await expect(detail.aprChart).toHaveAttribute('data-point-count', '90');
      await detail.rangeButton('180D').click();
      await expect(detail.aprChart).toHaveAttribute('data-point-count', '180');
    });

    test('the strategy diagram opens a modal that closes on Escape and on backdrop click', async ({
      page,
    }) => {
      const data = await content(page, slug);
      const detail = new StrategyDetailPage(page);
      await detail.goto(slug);

      await detail.diagramButton.click();
      await expect(detail.diagramModal).toBeVisible();
      await expect(page.getByRole('dialog', { name: data.diagram.title })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(detail.diagramModal).toBeHidden();
      await expect(detail.diagramButton).toBeFocused();

      await detail.diagramButton.click();
      await expect(detail.diagramModal).toBeVisible();
      // A point outside the centred panel is the backdrop.
      await page.mouse.click(6, 6);
      await expect(detail.diagramModal).toBeHidden();
    });
  });
}

test('Highcharts loads once per page and every chart uses that one instance', async ({
  page,
  consoleErrors,
}) => {
  let highchartsCores = 0;
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const body = await response.text().catch(() => '');
    if (body.includes('product="Highcharts"')) highchartsCores += 1;
  });
  const detail = new StrategyDetailPage(page);
  await detail.goto('lido');
  // Charts below the fold are drawn when scrolled near: bring each into view.
  for (const chart of [
    detail.aprChart,
    detail.tvlChart,
    detail.allocationChart,
    detail.liquidityChart,
  ]) {
    await chart.scrollIntoViewIfNeeded();
    await expect(chart.locator('.highcharts-container')).toBeVisible();
  }
  const containers = page.locator('[data-highcharts-chart]');
  await expect(containers).toHaveCount(4);
  const indices = await containers.evaluateAll((els) =>
    els.map((el) => el.getAttribute('data-highcharts-chart')),
  );
  // One Highcharts instance numbers its charts 0..n-1; a second copy would restart at 0.
  expect(new Set(indices).size).toBe(4);
  expect(highchartsCores).toBe(1);
  expect(consoleErrors.filter((e) => e.includes('#16'))).toEqual([]);
});

test('an unknown strategy id is replaced by /options', async ({ page }) => {
  await page.goto('/options');
  const before = await page.evaluate(() => history.length);
  await page.goto('/options/not-a-strategy');
  await expect(page).toHaveURL(/\/options$/);
  // The goto adds one entry; a push redirect would have added a second.
  expect(await page.evaluate(() => history.length)).toBe(before + 1);
});

test('an unreachable API: the page says it is still trying, then shows the error and Try again', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.route('**/api/strategy-content/**', (route) => route.abort('connectionrefused'));
  // A page load of /options/lido carries the strategy in its HTML: the content is fetched when
  // the page is reached from another one, in the app.
  await page.goto('/risks');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    window.history.pushState({}, '', '/options/lido');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  // Shown after 1.5 s, long before the retries (1 + 2 + 4 s) end in the error.
  const stillTrying = page.getByText('Still trying to reach the server…');
  await expect(stillTrying).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(
    'This strategy could not be loaded just now',
    {
      timeout: 20_000,
    },
  );
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(stillTrying).toHaveCount(0);
  // The API is back: Try again loads the page.
  await page.unroute('**/api/strategy-content/**');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lido Finance');
});

test('history failure shows N/A figures and empty charts with an N/A overlay, and logs it', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  await page.route('**/api/history**', (route) => route.abort());
  const detail = new StrategyDetailPage(page);
  await detail.goto('lido');
  await expect(detail.heading).toHaveText('Lido Finance');
  // Three retries with 1 s, 2 s, 4 s back-off come first.
  await expect(detail.figure('TVL')).toContainText('N/A', { timeout: 20_000 });
  await expect(detail.figure('30d APR')).toContainText('N/A');
  await expect(detail.figure('30d Risk-Adjusted APR')).toContainText('N/A');
  await expect(detail.aprChart.getByTestId('chart-na')).toHaveText('N/A');
  await expect(detail.tvlChart.getByTestId('chart-na')).toHaveText('N/A');
  await expect(detail.aprChart).toHaveAttribute('data-point-count', '0');
  await expect(detail.aprChart.locator('.highcharts-container')).toBeVisible();
  expect(consoleErrors.some((line) => line.includes('Failed to fetch history'))).toBe(true);
});

test.describe('numeric strategy page', () => {
  for (const prefix of ['strategy', 'strategy-detail'] as const) {
    test(`/${prefix}/3 shows the active strategy with cards and history charts`, async ({
      page,
    }) => {
      const numeric = new NumericStrategyPage(page);
      await numeric.goto(3, prefix);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'Liquity v1 - Stability Pool',
      );
      // Data dates read as on every page: "Nov 21, 2026".
      await expect(page.getByText(/Sample data as of [A-Z][a-z]{2} \d{1,2}, \d{4}:/)).toBeVisible();
      await expect(numeric.card('card-apr')).toContainText(/30d APR\s*\d+\.\d{2}%/);
      await expect(numeric.card('card-ra-apr')).toContainText(
        /30d Risk Adjusted APR\s*-?\d+\.\d{2}%/,
      );
      await expect(numeric.card('card-tvl')).toContainText(/TVL\s*\$\d+(\.\d)?[KMB]?/);
      // The sample data carries a holder count, labelled as sample.
      await expect(numeric.card('card-tvl')).toContainText(/\d[\d,]* holders \(sample\)/);
      await expect(page.getByRole('heading', { name: 'APR History' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'TVL History' })).toBeVisible();
      await expect(page.getByTestId('chart-apr').locator('.highcharts-container')).toBeVisible();
      await expect(page.getByTestId('chart-tvl').locator('.highcharts-container')).toBeVisible();
      expect(
        Number(await page.getByTestId('chart-apr').getAttribute('data-point-count')),
      ).toBeGreaterThan(20);
      await expect(numeric.backLink).toHaveAttribute('href', '/');

      const plot = await page
        .getByTestId('chart-apr')
        .locator('.highcharts-plot-background')
        .boundingBox();
      expect(plot).not.toBeNull();
      await page.mouse.move(plot!.x + 5, plot!.y + 5);
      await page.mouse.move(plot!.x + plot!.width / 2, plot!.y + plot!.height / 2, { steps: 5 });
      await expect(page.getByTestId('chart-apr').locator('.highcharts-tooltip')).toContainText(
        /APR: \d+\.\d{2}%/,
      );

      const tvlPlot = await page
        .getByTestId('chart-tvl')
        .locator('.highcharts-plot-background')
        .boundingBox();
      expect(tvlPlot).not.toBeNull();
      await page.mouse.move(tvlPlot!.x + 5, tvlPlot!.y + 5);
      await page.mouse.move(tvlPlot!.x + tvlPlot!.width / 2, tvlPlot!.y + tvlPlot!.height / 2, {
        steps: 5,
      });
      await expect(page.getByTestId('chart-tvl').locator('.highcharts-tooltip')).toContainText(
        /TVL: \$\d+\.\d[KMB]/,
      );
    });
  }

  test('/strategy/2 shows the red Strategy Not Available panel with a Back link home', async ({
    page,
  }) => {
    const numeric = new NumericStrategyPage(page);
    await numeric.goto(2);
    await expect(
      numeric.notAvailable.getByRole('heading', { name: 'Strategy Not Available' }),
    ).toBeVisible();
    await expect(numeric.notAvailable).toContainText(
      'This strategy is currently disabled. Please select an active strategy.',
    );
    await expect(numeric.notAvailable).toHaveCSS('background-color', 'rgb(254, 242, 242)');
    await numeric.notAvailable.getByRole('link', { name: /Back/ }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown numeric id redirects to /options', async ({ page }) => {
    const numeric = new NumericStrategyPage(page);
    await numeric.goto(999);
    await expect(page).toHaveURL(/\/options$/);
    await numeric.goto('abc', 'strategy-detail');
    await expect(page).toHaveURL(/\/options$/);
  });
});

test('charts far below the fold are not drawn until scrolled near', async ({ page }) => {
  const detail = new StrategyDetailPage(page);
  await detail.goto('lido');
  await expect(detail.aprChart.locator('.highcharts-container')).toBeVisible();
  await expect(detail.liquidityChart.locator('[data-chart-ready]')).toHaveAttribute(
    'data-chart-ready',
    'false',
  );
  await detail.liquidityChart.scrollIntoViewIfNeeded();
  await expect(detail.liquidityChart.locator('.highcharts-container')).toBeVisible();
});

test('on a phone a chart below the first screen is drawn only once scrolled into view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 823 });
  const detail = new StrategyDetailPage(page);
  await detail.goto('lido');
  // Just below the first screen (a wide screen draws it from 200 px ahead): nothing drawn, even
  // after the page has settled. The page is scrolled so that the chart starts 100 px below the
  // screen, whatever the text above it takes.
  const plot = detail.aprChart.locator('[data-chart-ready]');
  const top = (await plot.boundingBox())!.y;
  expect(top).toBeGreaterThan(823);
  if (top > 823 + 100) await page.evaluate((y) => window.scrollTo(0, y), top - 823 - 100);
  const below = (await plot.boundingBox())!.y;
  expect(below).toBeGreaterThan(823);
  expect(below).toBeLessThan(823 + 200);
  await page.waitForTimeout(1500);
  await expect(plot).toHaveAttribute('data-chart-ready', 'false');
  await detail.aprChart.scrollIntoViewIfNeeded();
  await expect(detail.aprChart.locator('.highcharts-container')).toBeVisible();
});

/** The figures each strategy page must show. */
const SPEC_FIGURES: Record<
  string,
  { cap?: string; rank?: string; bars: number; holdings: string[]; texts: string[] }
> = {
  liquity: {
    cap: '$41M',
    rank: '#62',
    bars: 5,
    holdings: ['ETH · 100%'],
    texts: ['2 million LQTY', '31 liquidations in 2023 and 16 in 2024', '10%'],
  },
  'sky-spark': {
    cap: '$3.95B',
    rank: '#3',
    bars: 4,
    holdings: [
      'USDC · 37.4%',
      'Treasury Bills · 20.19%',
      'ETH · 15.34%',
      'wstETH · 6.42%',
      'cbBTC · 6.32%',
      'BTC · 4.02%',
      'Other · 10.31%',
    ],
    texts: [],
  },
  gauntlet: {
    bars: 4,
    holdings: ['55%', '16%', '10%', '7%', '5%', '4%', 'Other · 3%'],
    texts: ['capped at 40%'],
  },
  lido: {
    cap: '$15.2B',
    rank: '#7',
    bars: 5,
    holdings: ['ETH · 100%'],
    texts: ['over 25% share', 'over 9 million ETH'],
  },
};

for (const [slug, spec] of Object.entries(SPEC_FIGURES)) {
  test(`/options/${slug} shows its figures`, async ({ page }) => {
    const detail = new StrategyDetailPage(page);
    await detail.goto(slug);
    const facts = page.locator('[data-section="header"] dl');
    if (spec.cap) await expect(facts).toContainText(`Market Cap${spec.cap}`);
    else await expect(page.getByText('Market Cap', { exact: true })).toHaveCount(0);
    if (spec.rank) await expect(facts).toContainText(`Rank${spec.rank}`);
    else await expect(page.getByText('Rank', { exact: true })).toHaveCount(0);
    await expect(page.getByTestId('risk-bar-on')).toHaveCount(spec.bars);
    await expect(
      page.getByRole('img', { name: `Risk rating: ${spec.bars} of 5 bars` }),
    ).toBeVisible();
    const holdings = page.getByRole('list', { name: 'Holdings' });
    for (const holding of spec.holdings) await expect(holdings).toContainText(holding);
    for (const text of spec.texts) await expect(detail.main).toContainText(text);
    if (slug === 'sky-spark') {
      await expect(
        page.getByTestId('risk-rating').filter({ hasText: 'Dependencies' }),
      ).toContainText('Bad');
    }
  });
}
