import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { TrackRecord } from '@yield/contract';
import {
  apiErrorFixture,
  scannerTrackRecordFixture,
  trackPickFixture,
  trackRecordFixture,
} from '@yield/fixtures';
import { HttpResponse, serve, type Answer, type ServeOptions } from '@yield/fixtures/msw';
import TrackRecordPage from './TrackRecordPage.tsx';

const pick = trackPickFixture;

const answer: TrackRecord = trackRecordFixture({
  asOf: '2026-04-01',
  types: [
    {
      type: 'stablecoin',
      months: [
        {
          decidedOn: '2026-02-01',
          until: '2026-03-01',
          days: 28,
          riskAdjusted: pick({
            id: 8,
            name: 'Resolv - USR Staking',
            returnPct: 0.6,
            events: [{ kind: 'incident', date: '2026-02-20', summary: 'Exploited.' }],
            lossMeasured: false,
          }),
          rawApy: pick({
            id: 3,
            name: 'Liquity v1 - Stability Pool',
            returnPct: -9.3,
            priceChangePct: -10,
            events: [{ kind: 'depeg', date: '2026-03-01', summary: 'The token traded at $0.9.' }],
          }),
          base: { key: 'base-stablecoin', yield30d: 4, riskAdjustedYield30d: 3, returnPct: 0.3 },
          value: { riskAdjusted: 10_060, rawApy: 9_070, base: 10_030 },
        },
        {
          decidedOn: '2026-03-01',
          until: '2026-04-01',
          days: 31,
          riskAdjusted: pick({}),
          rawApy: pick({}),
          base: { key: 'base-stablecoin', yield30d: 4, riskAdjustedYield30d: 3, returnPct: 0.3 },
          value: { riskAdjusted: 10_100.24, rawApy: 9_106.28, base: 10_060.09 },
        },
      ],
      final: { riskAdjusted: 10_100.24, rawApy: 9_106.28, base: 10_060.09 },
    },
    { type: 'defi', months: [], final: { riskAdjusted: 10_000, rawApy: 10_000, base: 10_000 } },
  ],
});

/** The page's two answers: the scanner's track record as on the shipped sample (no pool
 * histories), and the sources' track record as the test decides. */
function serveApi(trackRecord: Answer<'trackRecord'>, options?: ServeOptions) {
  serve('scannerTrackRecord', scannerTrackRecordFixture());
  return serve('trackRecord', trackRecord, options);
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

describe('the track record page', () => {
  it('shows each month with its picks, losses and events, the final values, the sample label and the CSV link', async () => {
    const trackRecord = serveApi(answer);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Track record' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the track record…');
    const table = await screen.findByTestId('track-table-stablecoin');
    expect(trackRecord.calls.map(({ url }) => url.pathname + url.search)).toContain(
      '/api/track-record',
    );
    const rows = within(table).getAllByTestId('track-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Feb 2026');
    expect(rows[0]).toHaveTextContent('Resolv - USR Staking0.60%');
    expect(rows[0]).toHaveTextContent('Incident Feb 20, 2026');
    expect(rows[0]).toHaveTextContent('loss not measured');
    expect(rows[0]).toHaveTextContent('Liquity v1 - Stability Pool-9.30%token -10.00%');
    expect(rows[0]).toHaveTextContent('Depeg Mar 1, 2026');
    expect(rows[0]).toHaveTextContent('$10,060.00$9,070.00$10,030.00');
    const stable = screen.getByTestId('track-stablecoin');
    expect(
      within(stable).getByText('Top risk-adjusted pick', { selector: 'dt' }).nextSibling,
    ).toHaveTextContent('$10,100.24');
    expect(stable).toHaveTextContent('$10,000.00 put in on Feb 1, 2026');
    expect(screen.getByTestId('track-defi')).toHaveTextContent('No month yet');
    expect(screen.getByTestId('track-data-note')).toHaveTextContent(
      'Sample data as of Apr 1, 2026: computed from the sample data the site runs on',
    );
    const csv = screen.getByRole('link', { name: 'Download CSV' });
    expect(csv).toHaveAttribute('href', '/api/track-record?format=csv');
    expect(csv).toHaveAttribute('download');
    expect(screen.getByRole('link', { name: 'the methodology' })).toHaveAttribute(
      'href',
      '/methodology#track-record-title',
    );
  });

  it('says when the data is not sample', async () => {
    serveApi({ ...answer, sample: false });
    renderPage();
    expect(await screen.findByTestId('track-data-note')).toHaveTextContent(
      'Data as of Apr 1, 2026: computed from the published data.',
    );
  });

  it('shows the error with Try again, which loads it again', async () => {
    let fail = true;
    serveApi(() =>
      fail
        ? HttpResponse.json(apiErrorFixture('data_unavailable', 'history.json has not loaded'), {
            status: 503,
          })
        : answer,
    );
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The track record could not be loaded');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('track-table-stablecoin')).toBeInTheDocument();
  });
});
