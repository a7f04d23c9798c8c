/**
 * "Net yield for your deposit" in the comparison: the saver types an amount, the table ranks by
 * net APR exactly as GET /api/net-yield/ranking answers (unknown costs last, with the reason), the
 * amount rides in the URL and survives a reload; on a phone, a tablet and a desktop.
 */
import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/index.ts';
import { LeaderboardPage } from '../pages/leaderboard.ts';

interface Source {
  id: number;
  type: 'stablecoin' | 'defi';
  isBaseRate: boolean;
}
interface RankingItem {
  id: number;
  netApr: number | null;
}

async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.ok()).toBe(true);
  return (await res.json()) as T;
}

test.describe('net yield in the comparison', () => {
  test.describe.configure({ mode: 'serial' });
  // The e2e server starts with three stablecoin sources' costs known (fixtures/costs.ts), the
  // others unknown.
  test.beforeAll(async ({ request }) => {
    const answer = (await (
      await request.get('/api/net-yield/ranking?amount=500&days=365')
    ).json()) as { items: RankingItem[] };
    expect(answer.items.filter((i) => i.netApr !== null)).toHaveLength(3);
  });

  for (const width of [375, 800, 1280]) {
    test(`ranks by net APR for a typed amount, kept in the URL (${width} px)`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      const [sources, ranking] = await Promise.all([
        api<Source[]>(page, '/api/sources'),
        api<{ items: RankingItem[] }>(page, '/api/net-yield/ranking?amount=500&days=365'),
      ]);
      const stable = new Set(
        sources.filter((s) => s.type === 'stablecoin' && !s.isBaseRate).map((s) => s.id),
      );
      // The API's order, the stablecoin table's share of it, the benchmark last.
      const expected = [
        ...ranking.items.filter((i) => stable.has(i.id)).map((i) => `source-${i.id}`),
        'base-stablecoin',
      ];

      const board = new LeaderboardPage(page);
      await board.goto();
      await board.waitForTables();
      if (width >= 1024) await board.proToggle.getByRole('button', { name: 'Pro' }).click();
      const panel = page.getByTestId('net-panel');
      await expect(panel).toContainText("In each source's own unit");
      await panel.getByLabel('Amount deposited').fill('500');
      await expect(page).toHaveURL(/\/options\?net=500&days=365$/);

      const table = board.stablecoinsTable;
      const rowKeys = () =>
        table.bodyRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key')));
      await expect(table.header(/Net APR/)).toHaveAttribute('aria-sort', 'descending');
      await expect.poll(rowKeys).toEqual(expected);
      // Known figures with their break-even day; the unknown say why.
      await expect(table.root.getByTestId('net-cell')).toHaveCount(3);
      await expect(table.root.getByTestId('net-cell').first()).toContainText(/%\s*Even on day \d+/);
      await expect(table.root.getByTestId('net-unknown').first()).toHaveAttribute(
        'title',
        /^(Unknown: .+ cannot be read from the chain|This source has no net figure)/,
      );
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: testInfo.outputPath(`net-yield-${width}.png`),
        fullPage: false,
      });

      await page.reload();
      await board.waitForTables();
      await expect(page.getByTestId('net-panel').getByLabel('Amount deposited')).toHaveValue('500');
      await expect.poll(rowKeys).toEqual(expected);
      // The panel and the table's card stay within the screen (a wide table scrolls in its card).
      for (const part of [page.getByTestId('net-panel'), table.root]) {
        const box = await part.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      }
      await table.root.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`net-table-${width}.png`) });
    });
  }
});
