import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { PoolHistoryAnswer } from '@yield/contract';
import {
  apiErrorFixture,
  poolHistoryFixture,
  poolId,
  scannerItemFixture,
  type DeepPartial,
} from '@yield/fixtures';
import { HttpResponse, serve, type Answer, type ServeOptions } from '@yield/fixtures/msw';
import ScannerPoolPage from './ScannerPoolPage.tsx';

vi.mock('@yield/charts', () => ({ useDrawWhenNear: () => true }));
vi.mock('../features/scanner/PoolHistoryChart.tsx', () => ({
  default: ({ days }: { days: unknown[] }) => (
    <div data-testid="chart-stub">{days.length} days</div>
  ),
}));

const POOL = poolId(1);

/** 40 days of USDC on Aave v3, still in the ranking, scored from its own history. */
function historyAnswer(partial: DeepPartial<PoolHistoryAnswer> = {}): PoolHistoryAnswer {
  return poolHistoryFixture({
    pool: POOL,
    item: scannerItemFixture(1, {
      symbol: 'USDC',
      tvlUsd: 2e8,
      expected: 5.5,
      riskAdjustedApr: 4.5,
      charges: { rewardPrice: 0 },
      url: `https://defillama.com/yields/pool/${POOL}`,
      risk: 1.5,
      inputs: { count: 30, basis: 'history', level: 5.5, weight: 0.95 },
    }),
    ...partial,
  });
}

/** The page's settings, and the pool's history as the test decides. */
function serveApi(history: Answer<'poolHistory'>, options?: ServeOptions) {
  serve('settings');
  return serve('poolHistory', history, options);
}

function renderPage(pool = POOL) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/scanner/pool/:pool', element: <ScannerPoolPage /> },
      { path: '/scanner', element: <p>the scanner</p> },
    ],
    { initialEntries: [`/scanner/pool/${pool}`] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('the pool page', () => {
  it('loads the pool’s history and shows its figures, its chart and a link back', async () => {
    const history = serveApi(historyAnswer());
    const router = renderPage();
    expect(screen.getByTestId('pool-loading')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'USDC · aave-v3 · Ethereum' }),
    ).toBeInTheDocument();
    expect(history.calls.map(({ url }) => url.pathname)).toEqual([
      `/api/scanner/pools/${POOL}/history`,
    ]);
    expect(screen.getByTestId('pool-figures')).toHaveTextContent('Risk-adjusted APR4.50%');
    expect(await screen.findByTestId('chart-stub')).toHaveTextContent('40 days');
    expect(screen.getByTestId('pool-history-chart')).toHaveAttribute('data-days', '40');
    expect(screen.getByTestId('pool-data-note')).toHaveTextContent(
      'Daily history kept by the site',
    );
    await userEvent.click(screen.getByTestId('pool-back'));
    expect(router.state.location.pathname).toBe('/scanner');
  });

  it('labels a sample history and says when there are no days yet', async () => {
    serveApi(historyAnswer({ sample: true }));
    renderPage();
    expect(await screen.findByTestId('pool-data-note')).toHaveTextContent('Sample data');

    serveApi(historyAnswer({ days: [], backfill: 'queued' }));
    renderPage();
    expect(await screen.findByTestId('pool-history-empty')).toHaveTextContent(
      'being fetched from DeFiLlama',
    );
  });

  it.each([
    ['recent', 'asked DeFiLlama for it in the last 24 hours'],
    ['deferred', 'limited number of pools at a time'],
  ] as const)('says why a short history is not being fetched now (%s)', async (backfill, text) => {
    serveApi(historyAnswer({ days: [], backfill }));
    renderPage();
    expect(await screen.findByTestId('pool-history-empty')).toHaveTextContent(text);
  });

  it(
    'says so for an unknown pool, and offers Retry after a failure',
    { timeout: 30_000 },
    async () => {
      serveApi(apiErrorFixture('not_found', 'No pool'), { status: 404 });
      renderPage();
      expect(await screen.findByTestId('pool-not-found')).toBeInTheDocument();

      let failing = true;
      serveApi(() =>
        failing
          ? HttpResponse.json(apiErrorFixture('internal_error', 'boom'), { status: 500 })
          : historyAnswer(),
      );
      renderPage();
      // A server error is retried (poolHistoryQuery) before the page says so.
      expect(await screen.findByTestId('pool-error', {}, { timeout: 15_000 })).toBeInTheDocument();
      failing = false;
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByTestId('pool-figures')).toBeInTheDocument();
    },
  );
});
