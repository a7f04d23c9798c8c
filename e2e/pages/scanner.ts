import type { Locator, Page } from '@playwright/test';

/** The yield scanner, /scanner (mfe-leaderboard/src/features/scanner). */
export class ScannerPage {
  readonly heading: Locator;
  readonly asset: Locator;
  readonly chain: Locator;
  readonly project: Locator;
  readonly kind: Locator;
  readonly minTvl: Locator;
  readonly sort: Locator;
  readonly outliers: Locator;
  readonly apply: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly status: Locator;
  readonly cta: Locator;
  readonly csvButton: Locator;
  readonly dataNote: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Yield Scanner' });
    const form = page.getByRole('search', { name: 'Filter pools' });
    this.asset = form.getByLabel('Asset');
    this.chain = form.getByLabel('Chain');
    this.project = form.getByLabel('Project');
    this.kind = form.getByLabel('Kind');
    this.minTvl = form.getByLabel('Minimum TVL');
    this.sort = form.getByLabel('Sort by');
    this.outliers = form.getByLabel('Include outliers');
    this.apply = form.getByRole('button', { name: 'Apply' });
    this.table = page.getByTestId('scanner-table');
    this.rows = page.getByTestId('scanner-row');
    this.status = page.getByRole('status').filter({ hasText: /pools|match/ });
    this.cta = page.getByTestId('scanner-cta');
    this.csvButton = page.getByRole('button', { name: /^Download CSV/ });
    this.dataNote = page.getByTestId('scanner-data-note');
  }

  /**
   * Each rendered row's cells as shown: [rank, pool, APY, risk-adjusted, vs base, TVL], the pool
   * cell as "SYMBOL\nproject · chain".
   */
  async rowTexts(): Promise<string[][]> {
    return this.rows.evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll<HTMLElement>('[role="cell"]')]
          .slice(0, 6)
          .map((c) => c.innerText.trim()),
      ),
    );
  }

  /** The APY of each rendered row, in percent. */
  async apys(): Promise<number[]> {
    return (await this.rowTexts()).map((cells) =>
      Number.parseFloat(cells[2]!.replace(/^APY\s*/, '')),
    );
  }
}
