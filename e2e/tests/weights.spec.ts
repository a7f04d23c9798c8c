/**
 * "Your weights" in the Pro view of the comparison: moving a charge's weight re-ranks the table at
 * once in the browser, the URL carries the weights, a fresh page opened on that URL shows the same
 * ranking, and one click resets to the published ranking.
 */
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import { LeaderboardPage } from '../pages/leaderboard.ts';

type Charges = Record<
  'volatility' | 'incentives' | 'safety' | 'liquidity' | 'size' | 'outflow',
  number
>;
interface Source {
  id: number;
  name: string;
  type: 'stablecoin' | 'defi';
  isBaseRate: boolean;
}
interface Metrics {
  id: number;
  riskAdjustedYield30d: number;
  status: string;
  charges: Charges;
}

async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.ok()).toBe(true);
  return (await res.json()) as T;
}

/** The crypto table's names, best first by `score`, the benchmark last. */
function ranked(sources: Source[], metrics: Metrics[], score: (m: Metrics) => number): string[] {
  const names = sources
    .filter((s) => s.type === 'defi' && !s.isBaseRate)
    .map((s) => ({ name: s.name, m: metrics.find((m) => m.id === s.id)! }))
    .filter(({ m }) => m.status !== 'insufficient_data')
    .sort((a, b) => score(b.m) - score(a.m))
    .map(({ name }) => name);
  return [...names, 'DeFi Base Rate'];
}

test('reweighting re-ranks the Pro view, rides in the URL, survives a reload and resets', async ({
  page,
  browser,
}) => {
  test.slow();
  const [sources, metrics] = await Promise.all([
    api<Source[]>(page, '/api/sources'),
    api<Metrics[]>(page, '/api/strategies'),
  ]);
  const published = ranked(sources, metrics, (m) => m.riskAdjustedYield30d);
  // Safety at 0%: each source's safety charge is given back.
  const withoutSafety = ranked(sources, metrics, (m) => m.riskAdjustedYield30d + m.charges.safety);
  expect(withoutSafety).not.toEqual(published);

  const board = new LeaderboardPage(page);
  await board.goto();
  await board.waitForTables();
  await board.proToggle.getByRole('button', { name: 'Pro' }).click();
  const crypto = board.cryptoTable;
  // The published ranking: the risk-adjusted column, best first (a second click flips it).
  const raHeader = crypto.header(/^Risk-adjusted 30d APR/);
  await raHeader.click();
  await raHeader.click();
  await expect.poll(() => crypto.rowNames()).toEqual(published);

  const panel = page.getByTestId('weights-panel');
  await expect(panel).toContainText('Published ranking (method ra30-v1).');
  await panel.getByRole('button', { name: 'Your weights' }).click();
  const safety = panel.getByRole('slider', { name: /^Safety/ });
  await safety.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(safety).toHaveAttribute('aria-valuetext', '95% of the published charge');
  await expect(page).toHaveURL(/[?&]w-safety=95(&|$)/);
  await page.keyboard.press('Home');
  await expect(safety).toHaveValue('0');
  await expect(page).toHaveURL(/\/options\?w-safety=0$/);

  await expect.poll(() => crypto.rowNames()).toEqual(withoutSafety);
  await expect(crypto.header(/^Your risk-adjusted 30d APR/)).toBeVisible();
  await expect(panel.getByTestId('own-ranking-note')).toHaveText(
    'Your own ranking, not the published method: the risk-adjusted APR below uses your weights.',
  );
  await expect(panel.getByTestId('weights-live')).toContainText(
    `Re-ranked with your weights: Stablecoins Yield led by`,
  );
  await expect(panel.getByTestId('weights-live')).toContainText(
    `Crypto Yield led by ${withoutSafety[0]}`,
  );

  // The shared URL in a fresh page (no state carried over): same ranking, panel open, Pro view.
  const shared = page.url();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const fresh = await context.newPage();
    const again = new LeaderboardPage(fresh);
    await again.goto(new URL(shared).pathname + new URL(shared).search);
    await again.waitForTables();
    // A fresh page turns the Pro view on once its board has loaded: slower on a busy machine.
    await expect
      .poll(() => again.cryptoTable.rowNames(), { timeout: 30_000 })
      .toEqual(withoutSafety);
    const freshPanel = fresh.getByTestId('weights-panel');
    await expect(freshPanel.getByRole('slider', { name: /^Safety/ })).toHaveValue('0');
    await expect(again.cryptoTable.header(/^Your risk-adjusted 30d APR/)).toBeVisible();
    await expect(again.proToggle.getByRole('button', { name: 'Pro' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  } finally {
    await context.close();
  }

  await panel.getByRole('button', { name: 'Reset to the published ranking' }).click();
  await expect(page).toHaveURL(/\/options$/);
  await expect.poll(() => crypto.rowNames()).toEqual(published);
  await expect(crypto.header(/^Risk-adjusted 30d APR/)).toBeVisible();
  await expect(panel.getByTestId('own-ranking-note')).toHaveCount(0);
  await expect(panel.getByTestId('weights-live')).toContainText('Published ranking restored');
});

test('a link with weights out of range or not numbers: clamped or ignored', async ({ page }) => {
  const board = new LeaderboardPage(page);
  await board.goto('/options?w-volatility=500&w-size=abc&w-outflow=12');
  await board.waitForTables();
  const panel = page.getByTestId('weights-panel');
  await expect(panel.getByRole('slider', { name: /^Volatility/ })).toHaveValue('200');
  await expect(panel.getByRole('slider', { name: /^Size/ })).toHaveValue('100');
  await expect(panel.getByRole('slider', { name: /^Outflows/ })).toHaveValue('10');
});
