import type { Locator, Page } from '@playwright/test';

/** The track record, /track-record (mfe-leaderboard/src/features/track-record). */
export class TrackRecordPage {
  readonly heading: Locator;
  readonly dataNote: Locator;
  readonly csv: Locator;
  readonly stableTable: Locator;
  readonly defiTable: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Track record' });
    this.dataNote = page.getByTestId('track-data-note');
    this.csv = page.getByRole('link', { name: 'Download CSV' });
    this.stableTable = page.getByTestId('track-table-stablecoin');
    this.defiTable = page.getByTestId('track-table-defi');
    this.rows = page.getByTestId('track-row');
  }
}
