/**
 * The site on imported data (fixtures/imported-site.ts): the operators' own command imported
 * DeFiLlama answers saved in their shapes. Two series stop three days ago (stale): Sky sUSDS (a
 * source with a public page) and rETH (a component of the crypto base rate); Lido's deposits fall
 * by 60% and stETH trades at 0.97 ETH (warnings detected from data).
 */
import { test, expect } from '@playwright/test';
import {
  feedsOf,
  ImportedSite,
  PRICE_DAYS,
  readable,
  shiftDay,
  today,
} from '../fixtures/imported-site.ts';

const STALE_SERIES = ['sky-susds', 'rocketpool-reth'];
const LIDO_POOL = '747c1d2a-c668-4682-b9f9-296708a3dd90';
const STETH_COIN = 'ethereum:0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84';

const staleDay = shiftDay(today, -3);
/** First day of Lido's replayed 60% fall in deposits. */
const OUTFLOW_FROM = shiftDay(today, -4);
let site: ImportedSite | undefined;
let baseUrl = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  site = await ImportedSite.start({
    stopped: { series: STALE_SERIES, after: staleDay },
    // Lido's deposits fall by 60% over its last 5 days: an outflow warning.
    tvl: (series, row) =>
      series === 'lido-steth' && row.date >= OUTFLOW_FROM ? row.tvlUsd * 0.4 : row.tvlUsd,
    // stETH at 0.97 ETH on the last two days: a depeg warning.
    price: (coin, i) => (coin === STETH_COIN && i >= PRICE_DAYS - 2 ? 0.97 : 1),
  });
  expect(feedsOf(site.sources).get('lido-steth')).toBe(LIDO_POOL);
  baseUrl = site.baseUrl;
});

test.afterAll(async () => {
  await site?.stop();
});

test('the comparison names DeFiLlama and its date, tags the rows without live data and shows stale ones', async ({
  page,
}) => {
  const settings = await (await page.request.get(`${baseUrl}/api/settings`)).json();
  // Rows without a DeFiLlama pool have no live data (no sample figures), some are stale.
  expect(settings.data).toEqual({ sample: false, asOf: today, stale: true });

  test.setTimeout(90_000);
  await page.goto(`${baseUrl}/options`);
  const note = page.getByTestId('data-note');
  // The note names DeFiLlama once the rows have loaded (a cold server takes a while).
  await expect(note).toContainText(`Data: DeFiLlama, as of ${readable(today)}.`, {
    timeout: 30_000,
  });
  await expect(note).toContainText('Rows marked No live data have no feed the site imports yet');
  await expect(note).not.toContainText('Sample data');
  await expect(note).toContainText('Rows marked Stale have had no new data for more than 48 hours');
  await expect(note).not.toContainText('Sample data as of');

  const stable = page.getByTestId('stablecoins-table');
  const sky = stable.getByRole('row', { name: /Sky Spark - Savings Account/ });
  await expect(sky.getByTestId('stale-badge')).toHaveText(
    `Stale, no new data since ${readable(staleDay)}`,
  );
  // Its figures are shown (not N/A), never GREAT.
  await expect(sky).toContainText(/\d+\.\d{2}%/);
  await expect(sky).not.toContainText('GREAT');
  await expect(stable.getByTestId('stale-note')).toContainText(
    `Sky Spark - Savings Account: no new data since ${readable(staleDay)}.`,
  );
  // Liquity has no DeFiLlama pool: no live data, tagged so, without figures.
  const liquity = stable.getByRole('row', { name: /Liquity v1 - Stability Pool/ });
  await expect(liquity.getByTestId('row-data-tag')).toHaveText('No live data');
  await expect(liquity).not.toContainText(/\d+\.\d{2}%/);
  // Resolv USR is imported: no tag, the note speaks for it.
  const resolv = stable.getByRole('row', { name: /Resolv - USR Staking/ });
  await expect(resolv.getByTestId('row-data-tag')).toHaveCount(0);

  // The crypto base rate stands on rETH, which stopped: it says so.
  const crypto = page.getByTestId('crypto-table');
  await expect(crypto.getByTestId('stale-note')).toContainText(
    `DeFi Base Rate: built on a component with no new data since ${readable(staleDay)} (rocketpool-reth).`,
  );

  // The breakdown of an imported row says where its figures come from.
  const lido = crypto.getByRole('row', { name: /Lido - stETH/ });
  await lido.getByRole('button', { name: /explain this number/ }).click();
  await expect(page.getByTestId('breakdown-data-source')).toHaveText(
    `Data: DeFiLlama, as of ${readable(today)}.`,
  );
});

test('a strategy page labels its data, links to its DeFiLlama pool, and shows a stale source', async ({
  page,
}) => {
  await page.goto(`${baseUrl}/options/lido`);
  const source = page.getByTestId('data-source');
  await expect(source).toContainText(`Data: DeFiLlama, as of ${readable(today)}.`);
  await expect(page.getByText(/Sample data as of/)).toHaveCount(0);
  const feed = source.getByRole('link', { name: /Its pool on DeFiLlama/ });
  await expect(feed).toHaveAttribute('href', `https://defillama.com/yields/pool/${LIDO_POOL}`);
  await expect(feed).toHaveAttribute('target', '_blank');
  await expect(feed).toHaveAttribute('rel', 'noopener noreferrer');

  await page.goto(`${baseUrl}/options/sky-spark`);
  await expect(page.getByTestId('stale-flag')).toContainText(
    `Stale: no new data since ${readable(staleDay)}`,
  );
  await expect(page.getByTestId('data-source')).toContainText(
    `Data: DeFiLlama, as of ${readable(staleDay)}.`,
  );
  await expect(page.getByTestId('figure-30d APR')).toContainText(/\d+\.\d{2}%/);

  // A source without a pool has no live data: said where its figures would be, no sample label.
  await page.goto(`${baseUrl}/options/liquity`);
  await expect(page.getByTestId('figure-30d APR')).toContainText('No live data');
  await expect(page.getByTestId('no-live-data')).toBeVisible();
  await expect(page.getByText(/Sample data as of/)).toHaveCount(0);
  await expect(page.getByTestId('feed-link')).toHaveCount(0);
});

test('a 60% fall in deposits and a token off its peg show as warnings detected from data, and the source is not GREAT', async ({
  page,
}) => {
  const rows = (await (await page.request.get(`${baseUrl}/api/strategies`)).json()) as {
    id: number;
    great: boolean;
    warnings: { kind: string; openedOn: string; closedOn: string | null; detected: boolean }[];
  }[];
  const lidoRow = rows.find((r) => r.id === 13)!;
  expect(lidoRow.great).toBe(false);
  expect(
    lidoRow.warnings.filter((w) => w.closedOn === null).map((w) => [w.kind, w.openedOn]),
  ).toEqual([
    ['outflow', OUTFLOW_FROM],
    ['depeg', shiftDay(today, -1)],
  ]);

  await page.goto(`${baseUrl}/options/lido`);
  const box = page.getByTestId('detected-warnings');
  const notes = box.getByRole('note');
  await expect(notes).toHaveCount(2);
  await expect(notes.nth(0)).toContainText(
    `Deposits leaving fast Detected from data since ${readable(OUTFLOW_FROM)}`,
  );
  await expect(notes.nth(0)).toContainText(
    /the value locked fell (5[5-9]|6[0-5])(\.\d)?% over 7 days/,
  );
  await expect(notes.nth(1)).toContainText(
    `Off its peg Detected from data since ${readable(shiftDay(today, -1))}`,
  );
  await expect(notes.nth(1)).toContainText(
    'The token traded at 0.97 ETH, 3% below the price of ETH.',
  );
  await expect(page.getByTestId('warning-marks')).toContainText(
    `Deposits leaving fast: opened ${readable(OUTFLOW_FROM)}`,
  );

  // The comparison does not mark it GREAT.
  await page.goto(`${baseUrl}/options`);
  const lido = page.getByTestId('crypto-table').getByRole('row', { name: /Lido - stETH/ });
  await expect(lido).toContainText(/\d+\.\d{2}%/, { timeout: 30_000 });
  await expect(lido).not.toContainText('GREAT');
});
