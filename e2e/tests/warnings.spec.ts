/**
 * Warnings detected from data, end to end (fixtures/imported-site.ts): a saver subscribes to
 * warning alerts on Sky Spark, then an import replays a 60% fall in its deposits and USDS at
 * $0.97. Both warnings show on the comparison (the standard and the Pro view, and at 375 px) and
 * on its strategy page, labelled as detected from data; Sky Spark loses GREAT; the saver gets one
 * e-mail per warning, and none more after the same import again.
 */
import { test, expect, type Page } from '@playwright/test';
import {
  ImportedSite,
  PRICE_DAYS,
  readable,
  shiftDay,
  today,
  type Replay,
} from '../fixtures/imported-site.ts';
import { outboxMessagesTo } from '../fixtures/outbox.ts';
import { LeaderboardPage } from '../pages/leaderboard.ts';

const SKY = 2;
const SKY_NAME = 'Sky Spark - Savings Account';
const USDS_COIN = 'ethereum:0xdC035D45d973E3EC169d2276DDab16f1e407384F';
/** Sky's deposits fall by 60% from this day; USDS trades at $0.97 from DEPEG_FROM. */
const OUTFLOW_FROM = shiftDay(today, -4);
const DEPEG_FROM = shiftDay(today, -1);
const WARNED: Replay = {
  tvl: (series, row) =>
    series === 'sky-susds' && row.date >= OUTFLOW_FROM ? row.tvlUsd * 0.4 : row.tvlUsd,
  price: (coin, i) => (coin === USDS_COIN && i >= PRICE_DAYS - 2 ? 0.97 : 1),
};
const EMAIL = `e2e-warnings-${Date.now()}@example.com`;

let site: ImportedSite | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // First every feed replays the sample unchanged: no warning yet.
  site = await ImportedSite.start({});
});

test.afterAll(async () => {
  await site?.stop();
});

interface MetricsRow {
  id: number;
  great: boolean;
  warnings: { kind: string; openedOn: string; closedOn: string | null }[];
}
async function skyMetrics(page: Page): Promise<MetricsRow> {
  const rows = (await (
    await page.request.get(`${site!.baseUrl}/api/strategies`)
  ).json()) as MetricsRow[];
  return rows.find((r) => r.id === SKY)!;
}
const openWarnings = (row: MetricsRow) =>
  row.warnings.filter((w) => w.closedOn === null).map((w) => [w.kind, w.openedOn]);
const warningMails = async () =>
  (await outboxMessagesTo(site!.servedDir, EMAIL)).filter((m) => !/^Subject: Confirm/m.test(m));

test('a confirmed subscriber gets one e-mail per warning that opens, none after the same import again', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const before = await skyMetrics(page);
  expect(before.great).toBe(true);
  expect(openWarnings(before)).toEqual([]);

  // Subscribe on the strategy page and confirm by the e-mailed link.
  await page.goto(`${site!.baseUrl}/options/sky-spark`);
  const form = page.locator('[data-section="alerts"]');
  await form
    .getByLabel(
      'A warning is detected from its data (deposits leaving, off its peg, APR spike, feeds disagree)',
    )
    .check();
  await form.getByLabel('Email address').fill(EMAIL);
  await form.getByRole('button', { name: 'Send me alerts' }).click();
  await expect(form.getByRole('status')).toHaveText(/^Check your inbox/);
  let messages: string[] = [];
  await expect
    .poll(async () => (messages = await outboxMessagesTo(site!.servedDir, EMAIL)).length)
    .toBe(1);
  expect(messages[0]).toMatch(/when a warning is detected from its data/);
  const link = new URL(
    /https?:\/\/\S+\/api\/alerts\/confirm\?token=[\w.-]+/.exec(messages[0]!)![0],
  );
  await page.goto(`${site!.baseUrl}${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Alert confirmed' })).toBeVisible();

  // The import that replays the fall in deposits and the slip of USDS.
  site!.replay(WARNED);
  site!.import();
  await expect
    .poll(async () => openWarnings(await skyMetrics(page)), { timeout: 20_000 })
    .toEqual([
      ['outflow', OUTFLOW_FROM],
      ['depeg', DEPEG_FROM],
    ]);
  await expect.poll(async () => (await warningMails()).length, { timeout: 20_000 }).toBe(2);
  const mails = await warningMails();
  const outflow = mails.find((m) => m.includes('Deposits leaving fast ('))!;
  const depeg = mails.find((m) => m.includes('Off its peg ('))!;
  expect(outflow).toMatch(
    /^Subject: Sky Spark - Savings Account: Deposits leaving fast \(detected from data\)$/m,
  );
  expect(outflow).toContain(`A warning opened on ${SKY_NAME} on ${OUTFLOW_FROM}`);
  expect(outflow).toMatch(/the value locked fell \d+(\.\d)?% over 7 days/);
  expect(outflow).toMatch(/down \d+(\.\d)?% over 7 days/);
  expect(depeg).toMatch(
    /^Subject: Sky Spark - Savings Account: Off its peg \(detected from data\)$/m,
  );
  expect(depeg).toContain('The token traded at $0.97, 3% below its $1 peg.');
  expect(depeg).toContain(`Figures on ${DEPEG_FROM}: price $0.97, 3% below $1.`);
  expect(depeg).toMatch(/\/strategy\/2\b/);
  expect(depeg).toMatch(/\/api\/alerts\/unsubscribe\?token=/);

  // The same import again: the server reloads the data and evaluates, and sends nothing new.
  const importedAt = async () =>
    (
      (await (await page.request.get(`${site!.baseUrl}/api/health`)).json()) as {
        import?: { lastRun?: { finishedAt?: string } };
      }
    ).import?.lastRun?.finishedAt;
  const first = await importedAt();
  site!.import();
  await expect.poll(importedAt, { timeout: 20_000 }).not.toBe(first);
  await page.waitForTimeout(2_000);
  expect(await warningMails()).toHaveLength(2);
});

test('both warnings show on the comparison, labelled as detected from data, and Sky Spark is not GREAT', async ({
  page,
}) => {
  expect((await skyMetrics(page)).great).toBe(false);
  const board = new LeaderboardPage(page);
  await page.goto(`${site!.baseUrl}/options`);
  await board.waitForTables();
  const table = page.getByTestId('stablecoins-table');
  const sky = table.getByRole('row', { name: new RegExp(SKY_NAME) });
  const check = async () => {
    await expect(sky.getByTestId('warning-badge')).toHaveText('◆ 2 warnings, detected from data');
    await expect(sky).not.toContainText('GREAT');
    const notes = table.getByTestId('warning-note');
    await expect(notes).toHaveCount(2);
    await expect(notes.nth(0)).toContainText(
      `${SKY_NAME}: Deposits leaving fast since ${readable(OUTFLOW_FROM)}. Detected from data`,
    );
    await expect(notes.nth(1)).toContainText(
      `${SKY_NAME}: Off its peg since ${readable(DEPEG_FROM)}. Detected from data The token traded at $0.97, 3% below its $1 peg.`,
    );
    await expect(notes.nth(1)).toContainText(
      'It is never marked GREAT while this warning is open.',
    );
    // Apart from the operators' incidents.
    await expect(table.getByRole('list', { name: /^Incidents in/ })).not.toContainText(SKY_NAME);
  };
  await check();
  await expect(
    page.getByTestId('stablecoins-chart').getByRole('list', { name: 'Chart legend' }),
  ).toContainText('Warning detected from data');
  await board.proToggle.getByRole('button', { name: 'Pro' }).click();
  await expect(table.getByRole('columnheader', { name: /Exit/ })).toBeVisible();
  await check();

  // The risk breakdown names them too.
  await sky.getByRole('button', { name: /explain this number/ }).click();
  await expect(
    page.getByText(`Off its peg (detected from data) since ${readable(DEPEG_FROM)}:`),
  ).toBeVisible();

  // On a phone: the badge and the notes fit the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await board.waitForTables();
  await expect(sky.getByTestId('warning-badge')).toBeVisible();
  const note = table.getByTestId('warning-note').first();
  await expect(note).toBeVisible();
  const box = (await note.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
});

test('the strategy page shows both warnings as detected from data', async ({ page }) => {
  await page.goto(`${site!.baseUrl}/options/sky-spark`);
  const notes = page.getByTestId('detected-warnings').getByRole('note');
  await expect(notes).toHaveCount(2);
  await expect(notes.nth(0)).toContainText(
    `Deposits leaving fast Detected from data since ${readable(OUTFLOW_FROM)}`,
  );
  await expect(notes.nth(1)).toContainText(
    `Off its peg Detected from data since ${readable(DEPEG_FROM)}`,
  );
  await expect(notes.nth(1)).toContainText('The token traded at $0.97, 3% below its $1 peg.');
});
