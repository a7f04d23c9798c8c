import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { ScannerTrackRecord, TrackRecord } from '@yield/contract';
import {
  apiErrorFixture,
  scannerTrackPickFixture,
  scannerTrackRecordFixture,
  trackRecordFixture,
} from '@yield/fixtures';
import { HttpResponse, serve, type Answer } from '@yield/fixtures/msw';
import TrackRecordPage from './TrackRecordPage.tsx';

const pick = scannerTrackPickFixture;

const sources: TrackRecord = trackRecordFixture({ sample: false, asOf: '2026-03-10' });

const scanner: ScannerTrackRecord = scannerTrackRecordFixture({
  sample: false,
  firstDay: '2026-01-01',
  asOf: '2026-03-10',
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
});

/** The page's two answers: the sources' track record, and the scanner's as the test decides. */
function serveApi(scannerTrack: Answer<'scannerTrackRecord'>) {
  serve('trackRecord', sources);
  return serve('scannerTrackRecord', scannerTrack);
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

describe("the track record page: the scanner's top 10", () => {
  it('shows each month with both groups, the base rates, the final values and the CSV link', async () => {
    const scannerTrack = serveApi(scanner);
    renderPage();
    const table = await screen.findByTestId('scanner-track-table');
    expect(scannerTrack.calls.map(({ url }) => url.pathname + url.search)).toContain(
      '/api/track-record/scanner',
    );
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
      within(section).getByText('Top 10 by risk-adjusted APR', { selector: 'dt' }).nextSibling,
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
    serveApi({ ...scanner, sample: true, firstDay: null, asOf: null, months: [], skipped: [] });
    renderPage();
    const empty = await screen.findByTestId('scanner-track-empty');
    expect(empty).toHaveTextContent(
      'No month yet: no pool has a daily history here yet (the sample data has none).',
    );
    expect(screen.queryByTestId('scanner-track-table')).toBeNull();
    expect(within(screen.getByTestId('track-scanner')).queryByText(/\$10,0/)).toBeNull();
  });

  it('says when the histories are too short for a month', async () => {
    serveApi({ ...scanner, months: [], asOf: '2026-01-20' });
    renderPage();
    expect(await screen.findByTestId('scanner-track-empty')).toHaveTextContent(
      "No month yet: the pools' histories run from Jan 1, 2026 to Jan 20, 2026, too short",
    );
  });

  it('shows the error with Try again, which loads it again', async () => {
    let fail = true;
    serveApi(() =>
      fail
        ? HttpResponse.json(apiErrorFixture('data_unavailable', 'pools.json has not loaded'), {
            status: 503,
          })
        : scanner,
    );
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("The scanner's track record could not be loaded");
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('scanner-track-table')).toBeInTheDocument();
  });
});
