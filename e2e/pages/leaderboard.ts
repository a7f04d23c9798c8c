import type { Locator, Page } from '@playwright/test';

/** What the real API serves for the comparison (read by tests to know what to expect). */
export interface SourceForTests {
  id: number;
  name: string;
  token: string;
  yieldToken: string;
  type: 'stablecoin' | 'defi';
  rating: number;
  isBaseRate: boolean;
  detailSlug: string | null;
  incidents: { date: string; summary: string; active: boolean }[];
}
export interface MetricsForTests {
  id: number;
  yield30d: number;
  riskAdjustedYield30d: number;
  tvl: number;
}

export async function fetchComparisonData(page: Page) {
  const [sources, strategies, settings] = await Promise.all([
    page.request.get('/api/sources').then((r) => r.json() as Promise<SourceForTests[]>),
    page.request.get('/api/strategies').then((r) => r.json() as Promise<MetricsForTests[]>),
    page.request.get('/api/settings').then(
      (r) =>
        r.json() as Promise<{
          siteTitle: string;
          siteSlogan: string;
          siteDescription: string;
          data: { sample: boolean; asOf: string };
        }>,
    ),
  ]);
  return { sources, strategies, settings };
}

/** One comparison table (antd) of the leaderboard. */
export class ComparisonTableObject {
  readonly root: Locator;
  readonly heading: Locator;
  readonly bodyRows: Locator;
  readonly headers: Locator;

  constructor(
    readonly page: Page,
    testId: 'stablecoins-table' | 'crypto-table',
  ) {
    this.root = page.getByTestId(testId);
    this.heading = this.root.getByRole('heading');
    // antd adds a hidden measure row to tables; real rows carry data-row-key.
    this.bodyRows = this.root.locator('tbody tr[data-row-key]');
    this.headers = this.root.locator('thead th');
  }

  header(name: string | RegExp): Locator {
    return this.root.getByRole('columnheader', { name });
  }

  /** The name of every row, top to bottom (link text, or the base row's label). */
  async rowNames(): Promise<string[]> {
    return this.bodyRows.evaluateAll((rows) =>
      rows.map((row) => {
        const cell = row.querySelector('td');
        const link = cell?.querySelector('a');
        if (link) return link.textContent?.trim() ?? '';
        return cell?.querySelector('span span')?.firstChild?.textContent?.trim() ?? '';
      }),
    );
  }

  async headerTexts(): Promise<string[]> {
    return this.headers.evaluateAll((cells) =>
      cells.map((c) => c.textContent?.trim() ?? '').filter(Boolean),
    );
  }

  row(name: string): Locator {
    return this.bodyRows.filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }
}

/** The yield comparison of mfe-leaderboard, on /options or embedded on /. */
export class LeaderboardPage {
  readonly root: Locator;
  readonly title: Locator;
  readonly dataNote: Locator;
  readonly loading: Locator;
  readonly stablecoinsTable: ComparisonTableObject;
  readonly cryptoTable: ComparisonTableObject;
  readonly stablecoinsChart: Locator;
  readonly cryptoChart: Locator;
  readonly proToggle: Locator;
  readonly marketToggle: Locator;
  readonly carousel: Locator;
  readonly disclaimer: Locator;
  readonly newsletter: Locator;
  readonly emailInput: Locator;
  readonly subscribeButton: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('comparison');
    this.title = this.root.getByRole('heading').first();
    this.dataNote = page.getByTestId('data-note');
    this.loading = page.getByTestId('comparison-loading');
    this.stablecoinsTable = new ComparisonTableObject(page, 'stablecoins-table');
    this.cryptoTable = new ComparisonTableObject(page, 'crypto-table');
    this.stablecoinsChart = page.getByTestId('stablecoins-chart');
    this.cryptoChart = page.getByTestId('crypto-chart');
    this.proToggle = page.getByTestId('pro-toggle');
    this.marketToggle = page.getByTestId('market-toggle');
    this.carousel = page.getByTestId('info-carousel');
    this.disclaimer = page.getByTestId('disclaimer');
    this.newsletter = page.getByTestId('newsletter');
    this.emailInput = this.newsletter.getByLabel('Email address');
    this.subscribeButton = this.newsletter.getByRole('button', { name: 'Subscribe' });
  }

  async goto(path = '/options'): Promise<void> {
    await this.page.goto(path);
    await this.root.waitFor();
  }

  /** Waits until the data has settled and the tables are on screen. */
  async waitForTables(): Promise<void> {
    await this.root.locator('tbody tr[data-row-key]').first().waitFor();
  }

  /** The plotted points of a chart (Highcharts draws each as a path in the scatter series). */
  chartPoints(chart: Locator): Locator {
    return chart.locator('.highcharts-scatter-series .highcharts-point');
  }

  /** The points of a phone's first picture of a chart, before Highcharts takes over. */
  staticChartPoints(chart: Locator): Locator {
    return chart.getByTestId('chart-static').locator('[data-point]');
  }

  chartPlotBackground(chart: Locator): Locator {
    return chart.locator('.highcharts-plot-background');
  }

  chartTooltip(chart: Locator): Locator {
    return chart.locator('.highcharts-tooltip');
  }

  chartDetail(chart: Locator): Locator {
    return chart.getByTestId('chart-detail');
  }

  activeSlideTitle(): Locator {
    return this.carousel.locator(
      '[aria-roledescription="slide"][data-active="true"] h2, [aria-roledescription="slide"][data-active="true"] h3',
    );
  }
}
