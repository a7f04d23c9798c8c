import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { PoolHistoryAnswer } from '@yield/contract';
import ScannerPoolPage from './ScannerPoolPage.tsx';

vi.mock('@yield/charts', () => ({ useDrawWhenNear: () => true }));
vi.mock('../features/scanner/PoolHistoryChart.tsx', () => ({
  default: ({ days }: { days: unknown[] }) => (
    <div data-testid="chart-stub">{days.length} days</div>
  ),
}));

const POOL = '00000000-0000-4000-8000-000000000001';

function historyAnswer(partial: Partial<PoolHistoryAnswer> = {}): PoolHistoryAnswer {
  return {
    pool: POOL,
    sample: false,
    backfill: 'none',
    days: Array.from({ length: 40 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 9, 17 + i)).toISOString().slice(0, 10),
      apy: 5 + i / 10,
      apyBase: 5,
      apyReward: i / 10,
      tvlUsd: 2e8,
    })),
    item: {
      pool: POOL,
      project: 'aave-v3',
      chain: 'Ethereum',
      symbol: 'USDC',
      tvlUsd: 2e8,
      apy: 6,
      apyBase: 5,
      apyReward: 1,
      expected: 5.5,
      riskAdjustedApy: 4.5,
      charges: { impermanentLoss: 0, rewardPrice: 0, outflow: 0, size: 0.25, safety: 0.75 },
      url: `https://defillama.com/yields/pool/${POOL}`,
      apySpot: 6.2,
      apyBasis: 'mean30d',
      risk: 1.5,
      stablecoin: true,
      ilRisk: 'no',
      exposure: 'single',
      outlier: false,
      poolMeta: null,
      inputs: {
        sigma: 0.02,
        count: 30,
        basis: 'history',
        category: 'stablecoin',
        level: 5.5,
        prior: 9.5,
        weight: 0.95,
        rewardShare: 0.16,
        safety: 4,
        safetyBasis: 'tier',
        safetySource: null,
      },
    },
    ...partial,
  };
}

let reply: () => Response = () => new Response(null, { status: 500 });
const requested: string[] = [];
/** The history endpoint answers `history()`; any other path (the page's settings) `{}`. */
function stubApi(history: () => Response) {
  reply = history;
  requested.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      if (!path.startsWith('/api/scanner/')) return json({})();
      requested.push(path);
      return reply();
    }),
  );
}
const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

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

afterEach(() => vi.unstubAllGlobals());

describe('the pool page', () => {
  it('loads the pool’s history and shows its figures, its chart and a link back', async () => {
    stubApi(json(historyAnswer()));
    const router = renderPage();
    expect(screen.getByTestId('pool-loading')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'USDC · aave-v3 · Ethereum' }),
    ).toBeInTheDocument();
    expect(requested).toEqual([`/api/scanner/pools/${POOL}/history`]);
    expect(screen.getByTestId('pool-figures')).toHaveTextContent('Risk-adjusted APY4.50%');
    expect(await screen.findByTestId('chart-stub')).toHaveTextContent('40 days');
    expect(screen.getByTestId('pool-history-chart')).toHaveAttribute('data-days', '40');
    expect(screen.getByTestId('pool-data-note')).toHaveTextContent(
      'Daily history kept by the site',
    );
    await userEvent.click(screen.getByTestId('pool-back'));
    expect(router.state.location.pathname).toBe('/scanner');
  });

  it('labels a sample history and says when there are no days yet', async () => {
    stubApi(json(historyAnswer({ sample: true })));
    renderPage();
    expect(await screen.findByTestId('pool-data-note')).toHaveTextContent('Sample data');

    stubApi(json(historyAnswer({ days: [], backfill: 'queued' })));
    renderPage();
    expect(await screen.findByTestId('pool-history-empty')).toHaveTextContent(
      'being fetched from DeFiLlama',
    );
  });

  it(
    'says so for an unknown pool, and offers Retry after a failure',
    { timeout: 30_000 },
    async () => {
      stubApi(json({ error: { code: 'not_found', message: 'No pool' } }, 404));
      renderPage();
      expect(await screen.findByTestId('pool-not-found')).toBeInTheDocument();

      stubApi(json({ error: { code: 'internal', message: 'boom' } }, 500));
      renderPage();
      // A server error is retried (poolHistoryQuery) before the page says so.
      expect(await screen.findByTestId('pool-error', {}, { timeout: 15_000 })).toBeInTheDocument();
      reply = json(historyAnswer());
      await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByTestId('pool-figures')).toBeInTheDocument();
    },
  );
});
