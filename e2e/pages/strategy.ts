import type { Locator, Page } from '@playwright/test';
import { appTookOver } from './chrome.ts';

/** Section order of a strategy detail page (/options/:id). */
export const DETAIL_SECTIONS = [
  'header',
  'fundamentals',
  'earnings',
  'exit',
  'alerts',
  'strategy',
  'yield-source',
  'strategy-limits',
  'allocations',
  'risk-analysis',
  'liquidity',
] as const;

export const DETAIL_HEADINGS = [
  'Fundamentals',
  'What would it have earned?',
  'Exit',
  'Get an e-mail when it changes',
  'Strategy',
  'Yield Source',
  'Strategy Limits',
  'Underlying Assets / Allocations',
  'Risk Analysis',
  'Liquidity',
];

/** The strategy detail page of mfe-strategy (/options/:id). */
export class StrategyDetailPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly depositLink: Locator;
  readonly rangeGroup: Locator;
  readonly aprChart: Locator;
  readonly tvlChart: Locator;
  readonly allocationChart: Locator;
  readonly liquidityChart: Locator;
  readonly diagramButton: Locator;
  readonly diagramModal: Locator;

  constructor(readonly page: Page) {
    this.main = page.locator('main.page');
    this.heading = page.getByRole('heading', { level: 1 });
    this.depositLink = page.getByRole('link', { name: /Deposit Now/ });
    this.rangeGroup = page.getByRole('group', { name: 'Time range' });
    this.aprChart = page.getByTestId('chart-apr');
    this.tvlChart = page.getByTestId('chart-tvl');
    this.allocationChart = page.getByTestId('chart-allocation');
    this.liquidityChart = page.getByTestId('chart-liquidity');
    this.diagramButton = page.getByTestId('diagram-open');
    this.diagramModal = page.getByTestId('diagram-modal');
  }

  async goto(slug: string) {
    const response = await this.page.goto(`/options/${slug}`);
    await appTookOver(this.page);
    return response;
  }

  rangeButton(range: string): Locator {
    return this.rangeGroup.getByRole('button', { name: range, exact: true });
  }

  figure(label: 'TVL' | '30d APR' | '30d Risk-Adjusted APR'): Locator {
    return this.page.getByTestId(`figure-${label}`);
  }

  sectionOrder(): Promise<string[]> {
    return this.main
      .locator('[data-section]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-section') ?? ''));
  }

  sectionHeadings(): Promise<string[]> {
    return this.main.locator('[data-section] > h2, [data-section] > div > h2').allTextContents();
  }

  /** Markers Highcharts drew in a chart's first series (markers show for up to 31 points). */
  drawnPoints(chart: Locator): Locator {
    return chart.locator('.highcharts-series-0 .highcharts-point');
  }
}

/** The numeric-id strategy page (/strategy/:id, /strategy-detail/:id). */
export class NumericStrategyPage {
  constructor(readonly page: Page) {}

  goto(id: string | number, prefix: 'strategy' | 'strategy-detail' = 'strategy') {
    return this.page.goto(`/${prefix}/${id}`);
  }

  card(testId: 'card-apr' | 'card-ra-apr' | 'card-tvl'): Locator {
    return this.page.getByTestId(testId);
  }

  get notAvailable(): Locator {
    return this.page.getByTestId('strategy-not-available');
  }

  get backLink(): Locator {
    return this.page.getByRole('link', { name: /Back/ });
  }
}
