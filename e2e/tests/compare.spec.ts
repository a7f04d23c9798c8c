/**
 * /compare?ids=…: reached by ticking rows on the comparison, two or three sources side by side
 * with the API's figures, the ra30-v1 charges, exit, incidents, earnings and one APR history chart
 * with incidents marked on their date; shareable; bad links explained; readable on a phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import { ComparePage } from '../pages/compare.ts';
import { LeaderboardPage } from '../pages/leaderboard.ts';
import { StrategyDetailPage } from '../pages/strategy.ts';
import { E2E_DATA_DIR } from '../scripts/e2e-env.ts';

interface Source {
  id: number;
  name: string;
  isBaseRate: boolean;
  type: 'stablecoin' | 'defi';
  exit: { note: string } | null;
  depositUrl: string | null;
  depositsPaused?: { since: string; note: string };
  incidents: { date: string; kind: string; summary: string; active: boolean }[];
}
interface Metrics {
  id: number;
  yield30d: number;
  riskAdjustedYield30d: number;
  great: boolean;
}

async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.ok()).toBe(true);
  return (await res.json()) as T;
}

const apr = (n: number) => `${n.toFixed(2)}%`;
const points = (n: number) => `${n > 0 ? '+' : n < 0 ? '\u2212' : ''}${Math.abs(n).toFixed(2)} pp`;
const usd = (n: number, signed = false) =>
  `${n < 0 ? '-' : signed && n > 0 ? '+' : ''}$${Math.abs(n).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })}`;

test('ticking rows on the comparison leads to /compare with those sources', async ({ page }) => {
  // Two data pages in one test: on a loaded machine the comparison alone takes half a minute.
  test.slow();
  const board = new LeaderboardPage(page);
  await board.goto();
  await board.waitForTables();
  const bar = page.getByTestId('compare-bar');
  const compare = (n: number) => bar.getByRole('button', { name: `Compare (${n})` });
  await expect(compare(0)).toBeDisabled();
  await expect(bar).toContainText('Tick 2 or 3 sources to compare them side by side.');

  const stable = board.stablecoinsTable.root;
  await stable.getByRole('checkbox', { name: 'Compare Liquity v1 - Stability Pool' }).check();
  await expect(page).toHaveURL(/\/options$/);
  await expect(compare(1)).toBeDisabled();
  await expect(bar).toContainText('1 selected: tick one or two more to compare.');
  // From the keyboard: focus the box, Space ticks it.
  await stable.getByRole('checkbox', { name: 'Compare Resolv - USR Staking' }).focus();
  await page.keyboard.press('Space');
  await board.cryptoTable.root.getByRole('checkbox', { name: 'Compare Lido - stETH' }).check();
  // No fourth.
  await expect(
    stable.getByRole('checkbox', { name: 'Compare Sky Spark - Savings Account' }),
  ).toBeDisabled();
  await expect(bar).toContainText('3 selected, the most that fit side by side.');

  await bar.getByRole('link', { name: 'Compare (3)' }).click();
  await expect(page).toHaveURL(/\/compare\?ids=3,8,13$/);
  const view = new ComparePage(page);
  await expect(view.heading).toHaveText(
    'Compare Liquity v1 - Stability Pool, Resolv - USR Staking and Lido - stETH',
  );
  await expect(page).toHaveTitle(
    /^Compare Liquity v1 - Stability Pool vs Resolv - USR Staking vs Lido - stETH \| /,
  );
});

test('a row click still opens the source page when boxes are ticked', async ({ page }) => {
  const board = new LeaderboardPage(page);
  await board.goto();
  await board.waitForTables();
  const table = board.stablecoinsTable;
  await table.root.getByRole('checkbox', { name: 'Compare Resolv - USR Staking' }).check();
  await table.row('Liquity v1 - Stability Pool').locator('td').last().click();
  await expect(page).toHaveURL(/\/options\/liquity$/);
});

test('every section shows the API figures; one amount drives the earnings of all', async ({
  page,
}) => {
  const view = new ComparePage(page);
  await view.goto('3,8,13');
  const sources = await api<Source[]>(page, '/api/sources');
  const metrics = await api<Metrics[]>(page, '/api/strategies');
  const rates = await api<Record<string, number>>(page, '/api/baserate');
  const ids = [3, 8, 13];
  const rows = ids.map((id) => metrics.find((m) => m.id === id)!);
  const typed = ids.map((id) => sources.find((s) => s.id === id && !s.isBaseRate)!);

  // A figure below zero carries its note marker (ⓘ) after it.
  await expect(view.figureCells('row-ra')).toHaveText(
    rows.map((m) => new RegExp(`^${apr(m.riskAdjustedYield30d).replace('.', '\\.')}ⓘ?$`)),
  );
  await expect(view.figureCells('row-apr')).toHaveText(rows.map((m) => apr(m.yield30d)));
  const base = typed.map((s) =>
    s.type === 'stablecoin' ? rates.baserateRiskAdjustedStable! : rates.baserateRiskAdjustedDefi!,
  );
  await expect(view.figureCells('row-vs-base')).toHaveText(
    rows.map((m, i) => points(m.riskAdjustedYield30d - base[i]!)),
  );
  await expect(view.figureCells('row-great')).toHaveText(
    rows.map((m) => (m.great ? 'GREAT' : 'Not GREAT')),
  );
  await expect(view.figureCells('row-data').first()).toContainText('Sample data as of');

  for (const [i, id] of ids.entries()) {
    const b = await api<{ charges: Record<string, number> }>(
      page,
      `/api/strategies/${id}/breakdown`,
    );
    await expect(view.charges.getByTestId('charge-safety').locator('td').nth(i)).toHaveText(
      `${b.charges.safety!.toFixed(2)} pp`,
    );
    await expect(view.exit.locator(`[data-source-id="${id}"]`)).toContainText(typed[i]!.exit!.note);
  }
  const resolv = typed[1]!.incidents[0]!;
  await expect(view.incidents.locator('[data-source-id="8"]')).toContainText(resolv.summary);
  await expect(
    view.incidents.locator('[data-source-id="8"]').getByRole('link', { name: /incident report/ }),
  ).toHaveAttribute('target', '_blank');
  await expect(view.incidents.locator('[data-source-id="3"]')).toHaveText(/No incident recorded\./);

  // Each head sends the saver to the provider's own page, except where deposits are paused.
  const heads = page.getByRole('list', { name: 'Compared sources' });
  await expect(heads.getByRole('link', { name: /Deposit on the provider/ })).toHaveCount(2);
  expect(typed[1]!.depositUrl).toBeNull();
  await expect(heads.getByTestId('deposits-paused')).toContainText(
    `Deposits paused since Mar 22, 2026. ${typed[1]!.depositsPaused!.note}`,
  );

  // Earnings: one amount, each source in its own unit, against its own base rate.
  const amount = view.earnings.getByTestId('earnings-amount');
  await expect(view.earnings).toContainText('Amount in each source\u2019s unit (USD or ETH)');
  await amount.fill('25000');
  for (const id of [3, 8]) {
    const e = await api<{ earned: number; base: { earned: number } }>(
      page,
      `/api/earnings?id=${id}&amount=25000&range=30D`,
    );
    const result = view.earnings.getByTestId(`earnings-${id}`);
    await expect(result.getByTestId('earned')).toHaveText(usd(e.earned));
    await expect(result.getByTestId('earned-base')).toHaveText(usd(e.base.earned));
  }
  const lido = await api<{ earned: number }>(page, '/api/earnings?id=13&amount=25000&range=30D');
  await expect(view.earnings.getByTestId('earnings-13').getByTestId('earned')).toHaveText(
    `${lido.earned.toLocaleString('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 })} ETH`,
  );
});

test('the link is the state: a reload and a fresh visitor see the same comparison', async ({
  page,
  browser,
}) => {
  const view = new ComparePage(page);
  await view.goto('13,2');
  await expect(view.heading).toHaveText('Compare Lido - stETH and Sky Spark - Savings Account');
  await page.reload();
  await expect(view.heading).toHaveText('Compare Lido - stETH and Sky Spark - Savings Account');
  const other = await browser.newPage();
  await other.goto(page.url());
  await expect(other.getByRole('heading', { level: 1 })).toHaveText(
    'Compare Lido - stETH and Sky Spark - Savings Account',
  );
  await other.close();
});

test('a link it cannot show says why and leads back to the comparison', async ({ page }) => {
  const view = new ComparePage(page);
  await view.goto('3,999');
  await expect(view.problem).toContainText('No yield source has the id 999.');
  await view.goto('3,2,13,8');
  await expect(view.problem).toContainText('this link names 4');
  await expect(
    view.problem.getByRole('link', {
      name: 'Compare Liquity v1 - Stability Pool, Sky Spark - Savings Account and Lido - stETH',
    }),
  ).toHaveAttribute('href', '/compare?ids=3,2,13');
  await view.goto('3');
  await expect(view.problem).toContainText('needs two or three sources');
  await view.problem.getByRole('link', { name: 'Pick sources to compare' }).click();
  await expect(page).toHaveURL(/\/options$/);
});

test('on a phone the columns stay readable: sticky labels, sideways table, texts stacked', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const view = new ComparePage(page);
  await view.goto('3,8,13');
  await expect(view.figureCells('row-ra').first()).toHaveText(/%$/);
  // The page itself never scrolls sideways; the table does, inside its section.
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(375);
  const label = view.figures.getByTestId('row-ra').locator('th');
  await expect(label).toHaveCSS('position', 'sticky');
  const scroller = page.getByRole('region', { name: /Figures of each source/ });
  const overflow = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeGreaterThan(0);
  // Exit blocks stack: one under the other, same left edge.
  const boxes = await view.exit
    .locator('[data-source-id]')
    .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()));
  expect(new Set(boxes.map((b) => Math.round(b.left))).size).toBe(1);
  expect(boxes[1]!.top).toBeGreaterThan(boxes[0]!.bottom - 1);
  await page.screenshot({ path: testInfo.outputPath('compare-375.png'), fullPage: true });
});

test.describe('incidents on history charts', () => {
  test.describe.configure({ mode: 'serial' });
  const file = path.join(E2E_DATA_DIR, 'sources.json');
  let original = '';
  // A past incident an operator records on Liquity, ten days before the data's newest day, so
  // it falls within every chart's range. Past (not active): nothing else on the site changes.
  const INCIDENT = {
    date: '2026-11-11',
    kind: 'oracle outage',
    summary: 'A price feed stopped for two hours; liquidations were delayed.',
    link: 'https://example.org/liquity-oracle-outage-report',
    linkVerified: '2026-11-23',
    active: false,
  };

  test.beforeAll(async ({ request }) => {
    original = fs.readFileSync(file, 'utf8');
    const data = JSON.parse(original) as { sources: { id: number; incidents: unknown[] }[] };
    data.sources.find((s) => s.id === 3)!.incidents.push(INCIDENT);
    fs.writeFileSync(`${file}.edit`, `${JSON.stringify(data, null, 2)}\n`);
    fs.renameSync(`${file}.edit`, file);
    await expect
      .poll(async () => {
        const list = (await (await request.get('/api/sources')).json()) as Source[];
        return list.find((s) => s.id === 3)?.incidents.length;
      })
      .toBe(1);
  });

  test.afterAll(async ({ request }) => {
    fs.writeFileSync(`${file}.edit`, original);
    fs.renameSync(`${file}.edit`, file);
    await expect
      .poll(async () => {
        const list = (await (await request.get('/api/sources')).json()) as Source[];
        return list.find((s) => s.id === 3)?.incidents.length;
      })
      .toBe(0);
  });

  test('the compare chart draws each source and base rate, with the incident on its date', async ({
    page,
  }, testInfo) => {
    const view = new ComparePage(page);
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 900 });
      await view.goto('3,8,13');
      await view.chart.scrollIntoViewIfNeeded();
      await expect(view.chart.locator('[data-chart-ready="true"]')).toBeVisible();
      await expect(view.chart.locator('.highcharts-series.highcharts-line-series')).toHaveCount(5);
      const line = view.incidentLines(view.chart);
      await expect(line).toHaveCount(1);
      await expect(view.chart.locator('.highcharts-plot-line-label')).toHaveText(
        /^⚠ oracle\W*outage$/,
      );
      await expect(view.history.getByTestId('incident-legend')).toContainText(
        'The dashed red line marks Liquity v1 - Stability Pool: oracle outage on Nov 11, 2026.',
      );
      // On its date: the line sits where Nov 11 falls between the chart's first and last day.
      const history = await api<{ data: { timestamp: number }[] }>(
        page,
        '/api/history?id=3&range=90D',
      );
      const first = history.data[0]!.timestamp;
      const last = history.data.at(-1)!.timestamp;
      const expected = (Date.UTC(2026, 10, 11) - first) / (last - first);
      const plot = await view.chart.locator('.highcharts-plot-background').evaluate((el) => {
        const box = (el as SVGGraphicsElement).getBBox();
        return { x: box.x, width: box.width };
      });
      const x = await line.evaluate((el) => (el as SVGGraphicsElement).getBBox().x);
      expect(Math.abs((x - plot.x) / plot.width - expected)).toBeLessThan(0.01);
      await view.history.screenshot({ path: testInfo.outputPath(`compare-chart-${width}.png`) });
      await page.screenshot({ path: testInfo.outputPath(`compare-${width}.png`), fullPage: true });
    }
  });

  test('a strategy page marks the incident on its history charts', async ({ page }, testInfo) => {
    await new StrategyDetailPage(page).goto('liquity');
    const apr = page.getByTestId('chart-apr');
    await apr.scrollIntoViewIfNeeded();
    await expect(apr.locator('[data-chart-ready="true"]')).toBeVisible();
    await expect(apr.locator('path.incident-line')).toHaveCount(1);
    // The chart also marks the detected warnings of the sample (a closed APR spike): pick the
    // incident's label among them.
    await expect(apr.locator('.highcharts-plot-line-label', { hasText: /oracle/ })).toHaveText(
      /^⚠ oracle\W*outage$/,
    );
    await expect(page.getByTestId('chart-tvl').locator('path.incident-line')).toHaveCount(1);
    await expect(page.getByTestId('incident-legend')).toHaveText(
      '⚠ The dashed red line marks an incident: oracle outage on Nov 11, 2026.',
    );
    await page
      .locator('[data-section="fundamentals"]')
      .screenshot({ path: testInfo.outputPath('strategy-incident.png') });
  });
});
