import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, fetchPremiumToken, storeToken } from '../fixtures/index.ts';
import { outboxMessagesTo as outboxOf } from '../fixtures/outbox.ts';
import { E2E_DATA_DIR, E2E_ROOT } from '../scripts/e2e-env.ts';
import {
  fetchComparisonData,
  LeaderboardPage,
  type MetricsForTests,
  type SourceForTests,
} from '../pages/leaderboard.ts';

const ARTIFACTS = path.join(E2E_ROOT, '.artifacts', 'leaderboard');

/** The e2e server's e-mails to `email`. */
const outboxMessagesTo = (email: string) => outboxOf(E2E_DATA_DIR, email);

/** TVL on the comparison page: B with two decimals, M and K with one. */
function tvlAsShown(value: number): string {
  if (value >= 1e9) return `$${(value / 1e9).toFixed(2)}B`;
  if (value >= 1e6) return `$${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `$${(value / 1e3).toFixed(1)}K`;
  return `$${Math.round(value).toLocaleString('en-US')}`;
}

function expectedOrder(
  sources: SourceForTests[],
  metrics: MetricsForTests[],
  type: 'stablecoin' | 'defi',
  key: 'rating' | 'tvl',
  direction: 1 | -1,
): string[] {
  const byId = new Map(metrics.map((m) => [m.id, m]));
  const value = (s: SourceForTests) => (key === 'rating' ? s.rating : (byId.get(s.id)?.tvl ?? 0));
  const ra = (s: SourceForTests) => byId.get(s.id)?.riskAdjustedYield30d ?? 0;
  return sources
    .filter((s) => s.type === type && !s.isBaseRate)
    .sort(
      (a, b) => (value(a) - value(b)) * direction || ra(b) - ra(a) || a.name.localeCompare(b.name),
    )
    .map((s) => s.name)
    .concat('DeFi Base Rate');
}

test.describe('yield comparison on wide screens (1280 px)', () => {
  test('shows the title block from the settings and both tables with the 11 sources, base row last', async ({
    page,
  }) => {
    const { sources, strategies, settings } = await fetchComparisonData(page);
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(settings.siteTitle);
    await expect(board.root.getByText(settings.siteSlogan, { exact: true })).toBeVisible();
    await expect(board.root.getByText(settings.siteDescription)).toBeVisible();
    if (settings.data.sample) await expect(board.dataNote).toContainText('Sample data as of');
    await expect(page).toHaveTitle(`Yield Comparison | ${settings.siteTitle}`);

    const stable = await board.stablecoinsTable.rowNames();
    const crypto = await board.cryptoTable.rowNames();
    await expect(board.stablecoinsTable.heading).toHaveText('Stablecoins Yield');
    await expect(board.cryptoTable.heading).toHaveText('Crypto Yield');
    expect(stable.at(-1)).toBe('DeFi Base Rate');
    expect(crypto.at(-1)).toBe('DeFi Base Rate');
    const listed = [...stable.slice(0, -1), ...crypto.slice(0, -1)];
    expect(listed).toHaveLength(11);
    expect(new Set(listed)).toEqual(
      new Set(sources.filter((s) => !s.isBaseRate).map((s) => s.name)),
    );

    // Default order: Overall Rating, best first.
    expect(stable).toEqual(expectedOrder(sources, strategies, 'stablecoin', 'rating', -1));
    await expect(board.stablecoinsTable.header(/Overall Rating/)).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(await board.stablecoinsTable.headerTexts()).toEqual([
      'Name',
      'Overall Rating',
      'Risk-adjusted 30d APR',
      'TVL',
    ]);

    // Formats: TVL with two decimals for B, APR with two decimals.
    const lido = sources.find((s) => s.name === 'Lido - stETH')!;
    const lidoMetrics = strategies.find((m) => m.id === lido.id)!;
    const lidoRow = board.cryptoTable.row('Lido - stETH');
    await expect(lidoRow).toContainText(tvlAsShown(lidoMetrics.tvl));
    await expect(lidoRow).toContainText(`${lidoMetrics.riskAdjustedYield30d.toFixed(2)}%`);
  });

  test('sorting: the active header flips, another header starts ascending, base row stays last', async ({
    page,
  }) => {
    const { sources, strategies } = await fetchComparisonData(page);
    const board = new LeaderboardPage(page);
    const table = board.stablecoinsTable;
    await board.goto();
    await board.waitForTables();

    await table.header(/Overall Rating/).click();
    await expect(table.header(/Overall Rating/)).toHaveAttribute('aria-sort', 'ascending');
    expect(await table.rowNames()).toEqual(
      expectedOrder(sources, strategies, 'stablecoin', 'rating', 1),
    );

    await table.header(/Overall Rating/).click();
    await expect(table.header(/Overall Rating/)).toHaveAttribute('aria-sort', 'descending');
    expect(await table.rowNames()).toEqual(
      expectedOrder(sources, strategies, 'stablecoin', 'rating', -1),
    );

    await table.header(/TVL/).click();
    await expect(table.header(/TVL/)).toHaveAttribute('aria-sort', 'ascending');
    expect(await table.rowNames()).toEqual(
      expectedOrder(sources, strategies, 'stablecoin', 'tvl', 1),
    );
    await table.header(/TVL/).click();
    expect(await table.rowNames()).toEqual(
      expectedOrder(sources, strategies, 'stablecoin', 'tvl', -1),
    );

    // The other table keeps its own sort.
    await expect(board.cryptoTable.header(/Overall Rating/)).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  test('Pro adds Token, Yield Token, 30d APR, Safety, Liquidity and Exit; a different yield token is red', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await expect(board.proToggle.getByRole('button', { name: 'Standard' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await board.proToggle.getByRole('button', { name: 'Pro' }).click();
    await expect(board.proToggle.getByRole('button', { name: 'Pro' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    for (const table of [board.stablecoinsTable, board.cryptoTable]) {
      expect(await table.headerTexts()).toEqual([
        'Name',
        'Token',
        'Yield Token',
        'Overall Rating',
        '30d APR',
        'Risk-adjusted 30d APR',
        'TVL',
        'Safety',
        'Liquidity',
        'Exit',
      ]);
    }
    // Sky Spark deposits USDS and pays sUSDS: red. Lido pays stETH for stETH: not red.
    const skyYieldToken = board.stablecoinsTable
      .row('Sky Spark - Savings Account')
      .locator('td')
      .nth(2);
    await expect(skyYieldToken).toContainText('sUSDS');
    await expect(skyYieldToken.locator('span').first()).toHaveCSS('color', 'rgb(220, 38, 38)');
    await expect(skyYieldToken).toContainText('differs from the deposit token');
    const lidoYieldToken = board.cryptoTable.row('Lido - stETH').locator('td').nth(2);
    await expect(lidoYieldToken).not.toHaveCSS('color', 'rgb(220, 38, 38)');
    await expect(
      board.stablecoinsTable
        .row('Sky Spark - Savings Account')
        .getByRole('img', { name: /Safety \d out of 5/ }),
    ).toBeVisible();
    // All ten columns fit a 1280 px screen: the Exit column is not scrolled out of its card.
    for (const table of [board.stablecoinsTable, board.cryptoTable]) {
      const overflow = await table.root
        .locator('table')
        .evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const exit = (await table.header('Exit').boundingBox())!;
      const card = (await table.root.boundingBox())!;
      expect(exit.x + exit.width).toBeLessThanOrEqual(card.x + card.width);
    }

    await board.proToggle.getByRole('button', { name: 'Standard' }).click();
    expect(await board.stablecoinsTable.headerTexts()).toEqual([
      'Name',
      'Overall Rating',
      'Risk-adjusted 30d APR',
      'TVL',
    ]);
  });

  test('a row or name click opens the strategy page, or the premium page for other sources', async ({
    page,
  }) => {
    const token = await fetchPremiumToken(page);
    await storeToken(page, token);
    const board = new LeaderboardPage(page);
    const { sources } = await fetchComparisonData(page);
    await board.goto();
    await board.waitForTables();

    await expect(
      board.stablecoinsTable.root.getByRole('link', { name: 'Liquity v1 - Stability Pool' }),
    ).toHaveAttribute('href', '/options/liquity');
    await expect(
      board.stablecoinsTable.root.getByRole('link', { name: 'Sky Spark - Savings Account' }),
    ).toHaveAttribute('href', '/options/sky-spark');
    await expect(
      board.stablecoinsTable.root.getByRole('link', { name: 'Gauntlet- USD Alpha' }),
    ).toHaveAttribute('href', '/options/gauntlet');
    await expect(
      board.cryptoTable.root.getByRole('link', { name: 'Lido - stETH' }),
    ).toHaveAttribute('href', '/options/lido');
    const ethena = sources.find((s) => s.name === 'Ethena - sUSDe')!;
    await expect(
      board.cryptoTable.root.getByRole('link', { name: 'Ethena - sUSDe' }),
    ).toHaveAttribute('href', `/premium/${ethena.id}`);

    // A click anywhere on the row (here: its TVL cell) navigates.
    await board.stablecoinsTable.row('Liquity v1 - Stability Pool').locator('td').last().click();
    await expect(page).toHaveURL(/\/options\/liquity$/);
    await page.goBack();
    await board.waitForTables();
    await board.cryptoTable.row('Ethena - sUSDe').locator('td').last().click();
    await expect(page).toHaveURL(new RegExp(`/premium/${ethena.id}$`));
    await page.goBack();
    await board.waitForTables();
    await board.cryptoTable.root.getByRole('link', { name: 'Lido - stETH' }).click();
    await expect(page).toHaveURL(/\/options\/lido$/);
  });

  test('each figure explains itself: breakdown of charges, link to /methodology, incident badge', async ({
    page,
  }) => {
    const { sources } = await fetchComparisonData(page);
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();

    const liquity = board.stablecoinsTable.row('Liquity v1 - Stability Pool');
    await liquity.getByRole('button', { name: /explain this number/ }).click();
    const popover = page.locator('.ant-popover').filter({ hasText: 'Liquity v1 - Stability Pool' });
    await expect(popover).toBeVisible();
    await expect(popover).toContainText('30-day APR');
    await expect(popover).toContainText('Volatility');
    await expect(popover).toContainText('Safety');
    await expect(popover).toContainText('= Risk-adjusted 30-day APR');
    // Opening the breakdown does not navigate.
    await expect(page).toHaveURL(/\/options$/);
    await popover.getByRole('link', { name: 'How we calculate this' }).click();
    await expect(page).toHaveURL(/\/methodology$/);
    await page.goBack();
    await board.waitForTables();

    const resolv = sources.find((s) => s.incidents.some((i) => i.active))!;
    const resolvRow = board.stablecoinsTable.row(resolv.name);
    await expect(resolvRow.getByText('Incident')).toBeVisible();
    await expect(resolvRow.getByText('GREAT')).toHaveCount(0);
    await expect(
      board.stablecoinsTable.root.getByRole('list', { name: /Incidents/ }),
    ).toContainText(resolv.incidents[0]!.summary);
  });

  test('antd is not part of the load: its styles appear with the first breakdown a saver opens', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await page.waitForLoadState('networkidle');
    // antd's CSS-in-JS writes a <style data-css-hash> for each component it renders.
    const antdStyles = page.locator('head style[data-css-hash]');
    await expect(antdStyles).toHaveCount(0);
    await board.stablecoinsTable
      .row('Liquity v1 - Stability Pool')
      .getByRole('button', { name: /explain this number/ })
      .click();
    await expect(page.getByRole('dialog', { name: /Liquity v1 - Stability Pool/ })).toBeVisible();
    expect(await antdStyles.count()).toBeGreaterThan(0);
  });

  test('the breakdown works from the keyboard: Enter opens it, Tab reaches its link, Escape returns', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const figure = board.stablecoinsTable
      .row('Liquity v1 - Stability Pool')
      .getByRole('button', { name: /explain this number/ });
    await figure.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: /Liquity v1 - Stability Pool/ });
    await expect(panel).toBeFocused();
    await expect(panel).toContainText('= Risk-adjusted 30-day APR');
    await page.keyboard.press('Tab');
    await expect(panel.getByRole('link', { name: 'How we calculate this' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(figure).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/methodology$/);
  });

  test('charts: hover enlarges a point with a tooltip, click selects it, a background click clears', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const chart = board.stablecoinsChart;
    const points = board.chartPoints(chart);
    await expect(points.first()).toBeVisible();
    await expect(board.chartPoints(board.cryptoChart).first()).toBeVisible();
    // Every stablecoin source with figures plus the base-rate point.
    await expect(points).toHaveCount(7);

    // Pick the GREAT point (green) so the card's verdict can be checked too.
    const greatPoint = chart
      .locator('.highcharts-scatter-series path.highcharts-point[fill="#059669"]')
      .first();
    const before = (await greatPoint.boundingBox())!;
    await greatPoint.hover();
    await expect(board.chartTooltip(chart)).toBeVisible();
    await expect(board.chartTooltip(chart)).toContainText('GREAT');
    const halo = chart.locator('.highcharts-halo');
    await expect(halo).toBeVisible();
    const hovered = (await greatPoint.boundingBox())!;
    expect(hovered.width).toBeGreaterThan(before.width);

    await greatPoint.click();
    const detail = board.chartDetail(chart);
    await expect(detail).toBeVisible();
    await expect(detail).toContainText(
      'GREAT: it pays more per unit of risk than the DeFi Base Rate.',
    );

    // A click on an empty corner of the plot background clears the selection.
    const plot = (await board.chartPlotBackground(chart).boundingBox())!;
    await page.mouse.move(plot.x + plot.width - 6, plot.y + plot.height - 6);
    await page.mouse.click(plot.x + plot.width - 6, plot.y + plot.height - 6);
    await expect(detail).toHaveCount(0);
  });

  test('the carousel: arrows wrap, dots jump, swipes over 50 px move and stop at the ends', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const title = board.activeSlideTitle();
    await board.carousel.scrollIntoViewIfNeeded();
    await expect(title).toHaveText('What is the risk-adjusted APR?');

    await board.carousel.getByRole('button', { name: 'Previous tab' }).click();
    await expect(title).toHaveText('What does GREAT mean?');
    await board.carousel.getByRole('button', { name: 'Next tab' }).click();
    await expect(title).toHaveText('What is the risk-adjusted APR?');
    await board.carousel.getByRole('button', { name: /Show tab 2/ }).click();
    await expect(title).toHaveText('What is the DeFi Base Rate?');

    const box = (await board.carousel.boundingBox())!;
    const y = box.y + 40;
    const swipe = async (fromX: number, toX: number) => {
      await page.mouse.move(fromX, y);
      await page.mouse.down();
      await page.mouse.move(toX, y, { steps: 5 });
      await page.mouse.up();
    };
    await swipe(box.x + 400, box.x + 300); // 100 px left: next
    await expect(title).toHaveText('What does GREAT mean?');
    await swipe(box.x + 400, box.x + 200); // at the end: stays
    await expect(title).toHaveText('What does GREAT mean?');
    await swipe(box.x + 300, box.x + 340); // 40 px: too short
    await expect(title).toHaveText('What does GREAT mean?');
    await swipe(box.x + 200, box.x + 400); // right: previous
    await expect(title).toHaveText('What is the DeFi Base Rate?');
  });

  test('the disclaimer links to the legal pages and stays closed after a reload', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await expect(board.disclaimer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    await expect(board.disclaimer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await board.disclaimer.getByRole('button', { name: 'Close disclaimer' }).click();
    await expect(board.disclaimer).toHaveCount(0);
    await page.reload();
    await board.waitForTables();
    await expect(board.newsletter).toBeVisible();
    await expect(board.disclaimer).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('disclaimerVisible'))).toBe('false');
  });

  test('newsletter: success opens the dialog, Got it! closes it, the field is cleared', async ({
    page,
  }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const email = `e2e-${Date.now()}@example.com`;
    await board.emailInput.fill(email);
    const posted = page.waitForRequest(
      (r) => r.url().endsWith('/api/addToMailList') && r.method() === 'POST',
    );
    await board.subscribeButton.click();
    expect((await posted).postDataJSON()).toEqual({ email, source: 'newsletter' });
    const dialog = page.getByRole('dialog', { name: 'Successfully Subscribed!' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'Please confirm from your inbox: open the link in the e-mail we just sent you.',
    );
    await expect(board.emailInput).toHaveValue('');
    await dialog.getByRole('button', { name: 'Got it!' }).click();
    await expect(dialog).toBeHidden();

    // The confirmation e-mail arrives in the outbox; its link confirms the sign-up.
    let messages: string[] = [];
    await expect.poll(async () => (messages = await outboxMessagesTo(email)).length).toBe(1);
    expect(messages[0]).toMatch(/^Subject: Confirm your subscription to the Pigi newsletter/m);
    const link = /https?:\/\/\S+\/api\/mailing-list\/confirm\?token=[\w.-]+/.exec(messages[0]!)![0];
    const url = new URL(link);
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();
  });

  test('newsletter: the browser checks the address before anything is sent', async ({ page }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    let sent = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/addToMailList')) sent += 1;
    });
    await board.emailInput.fill('not-an-email');
    await board.subscribeButton.click();
    expect(await board.emailInput.evaluate((el) => (el as HTMLInputElement).validity.valid)).toBe(
      false,
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(sent).toBe(0);
  });

  test('newsletter: a server failure shows the error toast', async ({ page }) => {
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await page.route('**/api/addToMailList', (route) => route.abort('failed'));
    await board.emailInput.fill('saver@example.com');
    await board.subscribeButton.click();
    const toast = page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Failed to add to mailing list. Please try again later.' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Error');
    await expect(board.emailInput).toHaveValue('saver@example.com');
  });
});

test.describe('data loading', () => {
  test('a spinner shows until both list calls settle', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/baserate', async (route) => {
      await held;
      await route.continue();
    });
    const board = new LeaderboardPage(page);
    const strategiesCall = page.waitForRequest('**/api/strategies');
    const baseRateCall = page.waitForRequest('**/api/baserate');
    await page.goto('/options');
    await Promise.all([strategiesCall, baseRateCall]);
    await expect(board.loading).toBeVisible();
    await expect(board.stablecoinsTable.root).toHaveCount(0);
    release();
    await expect(board.loading).toHaveCount(0);
    await board.waitForTables();
  });

  test('an unreachable API: the page says it is still trying while the calls are retried', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.route('**/api/strategies', (route) => route.abort('connectionrefused'));
    await page.route('**/api/baserate', (route) => route.abort('connectionrefused'));
    const board = new LeaderboardPage(page);
    await board.goto();
    // The retries (1 + 2 + 4 s) outlast the 1.5 s after which the page says it keeps trying.
    await expect(page.getByTestId('comparison-loading')).toContainText(
      'Still trying to reach the server…',
    );
    await expect(board.stablecoinsTable.bodyRows).toHaveCount(7, { timeout: 20_000 });
    await expect(page.getByText('Still trying to reach the server…')).toHaveCount(0);
  });

  test('the page renders when both list calls fail, and logs both failures', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(60_000);
    await page.route('**/api/strategies', (route) => route.abort('failed'));
    await page.route('**/api/baserate', (route) => route.abort('failed'));
    const board = new LeaderboardPage(page);
    await board.goto();
    // The shared query client retries 3 times with back-off (1 + 2 + 4 s) before giving up.
    await expect(board.stablecoinsTable.bodyRows).toHaveCount(7, { timeout: 20_000 });
    await expect(board.stablecoinsTable.root).toContainText('N/A');
    await expect(board.stablecoinsTable.row('Liquity v1 - Stability Pool')).toContainText('N/A');
    await expect(board.newsletter).toBeVisible();
    expect(consoleErrors.some((line) => line.includes('Failed to fetch strategies'))).toBe(true);
    expect(consoleErrors.some((line) => line.includes('Failed to fetch base rates'))).toBe(true);
  });
});

test.describe('speed', () => {
  test('Highcharts is requested only once the tables are on screen', async ({ page }) => {
    // The real responses pass through untouched; the route only notes what the page shows when
    // the chunk carrying Highcharts' core is requested.
    const rowsWhenHighchartsRequested: number[] = [];
    await page.route('**/remotes/mfe-leaderboard/*.js', async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (body.includes('Highcharts') && body.length > 100_000) {
        rowsWhenHighchartsRequested.push(await page.locator('tbody tr[data-row-key]').count());
      }
      await route.fulfill({ response, body });
    });
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await expect(board.chartPoints(board.stablecoinsChart).first()).toBeVisible();
    expect(rowsWhenHighchartsRequested).toHaveLength(1);
    expect(rowsWhenHighchartsRequested[0]).toBeGreaterThan(0);
  });
});

test.describe('narrow screens', () => {
  test('under 1024 px one table and chart, chosen by the Crypto/Stablecoins toggle (800 px)', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 800, height: 1000 });
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    await expect(board.proToggle).toHaveCount(0);
    await expect(board.marketToggle.getByRole('button', { name: 'Stablecoins' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(board.stablecoinsTable.root).toBeVisible();
    await expect(board.stablecoinsChart).toBeVisible();
    await expect(board.cryptoTable.root).toHaveCount(0);
    await expect(board.cryptoChart).toHaveCount(0);

    await board.marketToggle.getByRole('button', { name: 'Crypto' }).click();
    await expect(board.cryptoTable.root).toBeVisible();
    await expect(board.cryptoChart).toBeVisible();
    await expect(board.stablecoinsTable.root).toHaveCount(0);
    expect(await board.cryptoTable.rowNames()).toContain('Lido - stETH');
    await expect(board.chartPoints(board.cryptoChart).first()).toBeVisible();
  });

  test('a phone draws the chart without Highcharts; the first tap on a point selects it and hands the chart to Highcharts (375 px)', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    let highchartsLoads = 0;
    await page.route('**/remotes/mfe-leaderboard/*.js', async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (body.includes('Highcharts') && body.length > 100_000) highchartsLoads += 1;
      await route.fulfill({ response, body });
    });
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const chart = board.stablecoinsChart;
    const picture = board.staticChartPoints(chart);
    // Every stablecoin source with figures plus the base-rate point, with their shapes.
    await expect(picture).toHaveCount(7);
    await expect(chart.locator('[data-symbol="diamond"]')).toHaveCount(1);
    await expect(chart.locator('[data-symbol="square"]')).toHaveCount(1);
    await expect(chart.getByTestId('chart-static')).toContainText('Reward (30d APR)');
    await page.waitForLoadState('networkidle');
    expect(highchartsLoads).toBe(0);
    await expect(board.chartPoints(chart)).toHaveCount(0);

    // The GREAT point (a green triangle): the tap selects it, and Highcharts draws the chart.
    await chart.locator('[data-symbol="triangle"] path[fill="#059669"]').first().click();
    const detail = board.chartDetail(chart);
    await expect(detail).toContainText(
      'GREAT: it pays more per unit of risk than the DeFi Base Rate.',
    );
    await expect(board.chartPoints(chart)).toHaveCount(7);
    await expect(chart.getByTestId('chart-static')).toHaveCount(0);
    expect(highchartsLoads).toBe(1);
    // The selection survives the hand-over: its card stays until the background is tapped.
    const plot = (await board.chartPlotBackground(chart).boundingBox())!;
    await page.mouse.click(plot.x + plot.width - 6, plot.y + plot.height - 6);
    await expect(detail).toHaveCount(0);
  });

  test('under 600 px names drop the text after " - " (375 px)', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const names = await board.stablecoinsTable.rowNames();
    expect(names).toContain('Liquity v1');
    expect(names).toContain('Sky Spark');
    expect(names).toContain('Gauntlet- USD Alpha');
    expect(names.some((n) => n.includes(' - '))).toBe(false);
    // Two names the rule would make equal keep what tells them apart.
    expect(names).toContain('Resolv USD0++');
    expect(names).toContain('Resolv USR');
    expect(names).not.toContain('Resolv');
    // The table fits: no sideways scrolling of the page.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe('negative risk-adjusted figures', () => {
  test('each carries a note that the charges exceed the yield, reached by keyboard', async ({
    page,
  }) => {
    const { strategies } = await fetchComparisonData(page);
    const negative = strategies.filter((s) => (s.riskAdjustedYield30d ?? 0) < 0);
    expect(negative.length).toBeGreaterThan(0);
    const board = new LeaderboardPage(page);
    await board.goto();
    await board.waitForTables();
    const notes = board.root.getByRole('note', { name: /the risk charges exceed the yield/ });
    await expect(notes).toHaveCount(negative.length);
    await notes.first().focus();
    await expect(page.getByRole('tooltip')).toContainText(
      'Below zero: the risk charges exceed the yield.',
    );
  });
});

test.describe('home page', () => {
  test('/ embeds the comparison with an h2 title under the hero', async ({ page }) => {
    const { settings } = await fetchComparisonData(page);
    const board = new LeaderboardPage(page);
    await board.goto('/');
    await board.waitForTables();
    await expect(
      board.root.getByRole('heading', { level: 2, name: settings.siteTitle }),
    ).toBeVisible();
    await expect(board.root.getByRole('heading', { level: 1 })).toHaveCount(0);
    expect((await board.stablecoinsTable.rowNames()).at(-1)).toBe('DeFi Base Rate');
  });
});

test.describe('screenshots', () => {
  for (const width of [375, 800, 1280]) {
    test(`/options at ${width} px`, async ({ page }) => {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      const board = new LeaderboardPage(page);
      await board.goto();
      await board.waitForTables();
      const chart = width < 1024 ? board.stablecoinsChart : board.cryptoChart;
      // A phone shows the chart's static picture until it is tapped.
      await expect(
        (width < 768 ? board.staticChartPoints(chart) : board.chartPoints(chart)).first(),
      ).toBeVisible();
      const file = path.join(ARTIFACTS, `options-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});
