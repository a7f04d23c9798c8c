import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Fundamentals } from './Fundamentals.tsx';

// Highcharts is not what is under test here: the chart modules are replaced by stand-ins that
// show how many points they were given.
vi.mock('../../charts/lazy.ts', () => {
  const Stub = ({ points }: { points: unknown[] }) => (
    <div data-testid="stub-chart">{points.length} points</div>
  );
  return {
    LazyHistoryChart: Stub,
    loadHistoryChart: () => Promise.resolve(),
  };
});

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function history(days: number) {
  return {
    data: Array.from({ length: days }, (_, i) => ({
      timestamp: Date.UTC(2026, 10, 1 + i),
      tvl: 1e6 + i,
      apr: 4 + i / 100,
    })),
    lastTvl: 65_957_743,
    lastApr: 4.525882960927295,
    lastRaApr: 2.7534079874928103,
  };
}

function respond(body: unknown, status = 200) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

beforeEach(() => {
  window.localStorage.clear();
  vi.restoreAllMocks();
});

describe('Fundamentals', () => {
  it('shows the 30d figures formatted and requests the remembered range', async () => {
    window.localStorage.setItem('lido financeTimeRange', '7D');
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = String(input);
      if (url.startsWith('/api/history')) return respond(history(7));
      return respond({ error: { code: 'not_found', message: 'no' } }, 404);
    });
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    await waitFor(() => expect(screen.getByTestId('figure-TVL')).toHaveTextContent('$66.0M'));
    expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('4.53%');
    expect(screen.getByTestId('figure-30d Risk-Adjusted APR')).toHaveTextContent('2.75%');
    expect(screen.queryByRole('note')).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/history?id=13&range=7D', expect.anything());
    expect(screen.getByRole('button', { name: '7D' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('a negative risk-adjusted figure carries the note that the charges exceed the yield', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() =>
      respond({ ...history(30), lastRaApr: -1.3386 }),
    );
    render(<Fundamentals id={8} name="Resolv USR" />, { wrapper });
    const figure = await screen.findByTestId('figure-30d Risk-Adjusted APR');
    await waitFor(() => expect(figure).toHaveTextContent('-1.34%'));
    expect(
      within(figure).getByRole('note', { name: /the risk charges exceed the yield/ }),
    ).toHaveAttribute('tabindex', '0');
    // A positive figure needs no note.
    expect(within(screen.getByTestId('figure-30d APR')).queryByRole('note')).toBeNull();
  });

  it('switching the range stores it and loads that range', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = String(input);
      const range = new URL(url, 'http://x').searchParams.get('range');
      if (url.startsWith('/api/history')) return respond(history(range === '90D' ? 90 : 30));
      return respond({ error: { code: 'not_found', message: 'no' } }, 404);
    });
    render(<Fundamentals id={3} name="Liquity Protocol" />, { wrapper });
    await waitFor(() =>
      expect(screen.getByTestId('chart-apr')).toHaveAttribute('data-point-count', '30'),
    );

    await userEvent.click(screen.getByRole('button', { name: '90D' }));
    await waitFor(() =>
      expect(screen.getByTestId('chart-apr')).toHaveAttribute('data-point-count', '90'),
    );
    expect(window.localStorage.getItem('liquity protocolTimeRange')).toBe('90D');
    expect(fetchMock).toHaveBeenCalledWith('/api/history?id=3&range=90D', expect.anything());
  });

  it('shows N/A, N/A chart overlays and logs when the request fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<Fundamentals id={2} name="Sky Spark Protocol" />, { wrapper });

    await waitFor(() => expect(screen.getByTestId('figure-TVL')).toHaveTextContent('N/A'));
    expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('N/A');
    expect(screen.getByTestId('figure-30d Risk-Adjusted APR')).toHaveTextContent('N/A');
    expect(within(screen.getByTestId('chart-apr')).getByTestId('chart-na')).toHaveTextContent(
      'N/A',
    );
    expect(within(screen.getByTestId('chart-tvl')).getByTestId('chart-na')).toHaveTextContent(
      'N/A',
    );
    expect(log).toHaveBeenCalledWith(
      expect.stringContaining('Failed to fetch history for strategy 2 (30D)'),
    );
  });

  it('treats a response with an error field as a failure', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() =>
      respond({ ...history(30), error: { code: 'stale', message: 'history unavailable' } }),
    );
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<Fundamentals id={12} name="Gauntlet USD Alpha" />, { wrapper });

    await waitFor(() => expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('N/A'));
    expect(screen.getByTestId('chart-apr')).toHaveAttribute('data-point-count', '0');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('stale: history unavailable'));
  });

  it('shows a spinner for each figure while loading', () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise(() => undefined));
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });
    expect(screen.getByRole('status', { name: 'Loading TVL' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading 30d APR' })).toBeInTheDocument();
  });
});
