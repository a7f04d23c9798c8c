import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { ScannerTrackMonth, ScannerTrackRecord, TrackRecord } from '@yield/contract';
import TrackRecordPage from './TrackRecordPage.tsx';

type Pick = ScannerTrackMonth['riskAdjusted']['picks'][number];
const pick = (n: number, over: Partial<Pick> = {}): Pick => ({
  pool: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  project: 'aave-v3',
  chain: 'Ethereum',
  symbol: `USD${n}`,
  kind: 'stablecoin',
  apy: n,
  riskAdjustedApy: n - 1,
  realizedApy: n,
  daysWithData: 28,
  ...over,
});

const sources: TrackRecord = {
  method: 'ra30-v1',
  sample: false,
  asOf: '2026-03-10',
  startValue: 10_000,
  types: [],
};

const scanner: ScannerTrackRecord = {
  method: 'rapool-v2',
  sample: false,
  firstDay: '2026-01-01',
  asOf: '2026-03-10',
  startValue: 10_000,
  size: 10,
  minDays: 30,
  months: [
    {
      decidedOn: '2026-02-01',
      until: '2026-03-01',
      days: 28,
      candidates: 12,
      riskAdjusted: {
        picks: [pick(11, { realizedApy: 5.5, daysWithData: 14 }), pick(10)],
        realizedApy: 5.95,
        baseApy: 4,
      },
      rawApy: { picks: [pick(12, { apy: 100, realizedApy: 0.5 })], realizedApy: 5.8, baseApy: 4 },
      value: { riskAdjusted: 10_044.58, rawApy: 10_043.45, base: 10_030.13 },
    },
  ],
  skipped: [
    { decidedOn: '2026-01-01', until: '2026-02-01', candidates: 0, reason: 'history_too_short' },
  ],
  final: { riskAdjusted: 10_044.58, rawApy: 10_043.45, base: 10_030.13 },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function stubApi(respondScanner: () => Response) {
  const fetch = vi.fn(async (url: string) =>
    url === '/api/track-record/scanner' ? respondScanner() : json(sources),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/track-record', element: <TrackRecordPage /> }], {
    initialEntries: ['/track-record'],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("the track record page: the scanner's top 10", () => {
  it('shows each month with both groups, the base rates, the final values and the CSV link', async () => {
    const fetch = stubApi(() => json(scanner));
    renderPage();
    const table = await screen.findByTestId('scanner-track-table');
    expect(fetch).toHaveBeenCalledWith('/api/track-record/scanner', expect.anything());
    const section = screen.getByTestId('track-scanner');
    expect(
      within(section).getByRole('heading', { level: 2, name: "Scanner's top 10" }),
    ).toBeInTheDocument();
    const rows = within(table).getAllByTestId('scanner-track-row');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Feb 2026');
    expect(rows[0]).toHaveTextContent('picked Feb 1, 2026 among 12 pools');
    expect(rows[0]).toHaveTextContent('5.95%');
    expect(rows[0]).toHaveTextContent('5.80%');
    expect(rows[0]).toHaveTextContent('4.00%');
    expect(rows[0]).toHaveTextContent('$10,044.58$10,043.45$10,030.13');
    const [ra] = within(rows[0]!).getAllByTestId('scanner-track-picks');
    expect(ra).toHaveTextContent(
      'USD11 (aave-v3, Ethereum): 11.00% that day, paid 5.50% (data on 14 of 28 days)',
    );
    expect(
      within(section).getByText('Top 10 by risk-adjusted APY', { selector: 'dt' }).nextSibling,
    ).toHaveTextContent('$10,044.58');
    expect(screen.getByTestId('scanner-track-skipped')).toHaveTextContent(
      'Left out, no pool had 30 days of history yet: Jan 2026.',
    );
    expect(screen.getByTestId('scanner-track-csv')).toHaveAttribute(
      'href',
      '/api/track-record/scanner?format=csv',
    );
    expect(screen.getByTestId('scanner-track-chart')).toBeInTheDocument();
  });

  it('says plainly that the sample has no pool histories, with no figures', async () => {
    stubApi(() =>
      json({ ...scanner, sample: true, firstDay: null, asOf: null, months: [], skipped: [] }),
    );
    renderPage();
    const empty = await screen.findByTestId('scanner-track-empty');
    expect(empty).toHaveTextContent(
      'No month yet: no pool has a daily history here yet (the sample data has none).',
    );
    expect(screen.queryByTestId('scanner-track-table')).toBeNull();
    expect(within(screen.getByTestId('track-scanner')).queryByText(/\$10,0/)).toBeNull();
  });

  it('says when the histories are too short for a month', async () => {
    stubApi(() => json({ ...scanner, months: [], asOf: '2026-01-20' }));
    renderPage();
    expect(await screen.findByTestId('scanner-track-empty')).toHaveTextContent(
      "No month yet: the pools' histories run from Jan 1, 2026 to Jan 20, 2026, too short",
    );
  });

  it('shows the error with Try again, which loads it again', async () => {
    let fail = true;
    stubApi(() =>
      fail
        ? json({ error: { code: 'unavailable', message: 'pools.json has not loaded' } }, 503)
        : json(scanner),
    );
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("The scanner's track record could not be loaded");
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('scanner-track-table')).toBeInTheDocument();
  });
});
