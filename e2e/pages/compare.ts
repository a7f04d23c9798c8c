import type { Locator, Page } from '@playwright/test';
import { appTookOver } from './chrome.ts';

/** The side-by-side page of mfe-strategy, /compare?ids=… */
export class ComparePage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly figures: Locator;
  readonly charges: Locator;
  readonly exit: Locator;
  readonly incidents: Locator;
  readonly history: Locator;
  readonly chart: Locator;
  readonly earnings: Locator;
  readonly netYield: Locator;
  readonly problem: Locator;

  constructor(readonly page: Page) {
    this.main = page.getByTestId('compare-page');
    this.heading = this.main.getByRole('heading', { level: 1 });
    this.figures = page.getByTestId('figures-table');
    this.charges = page.getByTestId('charges-table');
    this.exit = page.locator('[data-section="exit"]');
    this.incidents = page.locator('[data-section="incidents"]');
    this.history = page.locator('[data-section="history"]');
    this.chart = page.getByTestId('compare-chart');
    this.earnings = page.locator('[data-section="earnings"]');
    this.netYield = page.locator('[data-section="net-yield"]');
    this.problem = page.getByTestId('compare-problem');
  }

  async goto(ids: string): Promise<void> {
    await this.page.goto(`/compare?ids=${ids}`);
    await appTookOver(this.page);
    await this.main.waitFor();
  }

  /** The cells of one row of the net-yield table (`net-amount`, `break-even`, `cost-entry`, …). */
  netCells(testId: string): Locator {
    return this.netYield.getByTestId('net-table').getByTestId(testId).locator('td');
  }

  /** The cells of one row of the figures table (`row-ra`, `row-vs-base`, …), one per source. */
  figureCells(testId: string): Locator {
    return this.figures.getByTestId(testId).locator('td');
  }

  /** The incident lines Highcharts drew on a chart (`incidentPlotLines` of @yield/charts). */
  incidentLines(chart: Locator): Locator {
    return chart.locator('path.incident-line');
  }
}
