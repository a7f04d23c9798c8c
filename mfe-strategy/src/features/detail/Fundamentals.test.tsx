import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { DetectedWarning, HistoryResponse, Provenance, SourceRow } from '@yield/contract';
import {
  apiErrorFixture,
  historyFixture,
  historyPoints,
  incidentFixture,
  sourceRowFixture,
  type DeepPartial,
} from '@yield/fixtures';
import { deferred, HttpResponse, serve, serveOthers } from '@yield/fixtures/msw';
import { Fundamentals } from './Fundamentals.tsx';

// Highcharts is not what is under test here: the chart modules are replaced by stand-ins that
// show how many points they were given.
vi.mock('../../shared/charts/lazy.ts', () => {
  const Stub = ({ points, incidents = [] }: { points: unknown[]; incidents?: unknown[] }) => (
    <div data-testid="stub-chart">
      {points.length} points, {incidents.length} incidents
    </div>
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

/** GET /api/history with `days` points (sample data as of 2026-11-21 unless overridden). */
function history(days: number, partial: DeepPartial<HistoryResponse> = {}): HistoryResponse {
  return historyFixture({ data: historyPoints(days), ...partial });
}

const LIDO_POOL = '747c1d2a-c668-4682-b9f9-296708a3dd90';
/** GET /api/sources as far as the page reads it: Lido's feed. */
const SOURCES: SourceRow[] = [
  sourceRowFixture({
    id: 13,
    feeds: [
      {
        provider: 'defillama',
        pool: LIDO_POOL,
        url: `https://defillama.com/yields/pool/${LIDO_POOL}`,
        series: 'lido-steth',
      },
    ],
  }),
];

/** Any other API request is answered as not found. */
const notFoundElsewhere = () => serveOthers(404, apiErrorFixture('not_found', 'no'));

beforeEach(() => {
  window.localStorage.clear();
  vi.restoreAllMocks();
});

describe('Fundamentals', () => {
  it('shows the 30d figures formatted and requests the remembered range', async () => {
    window.localStorage.setItem('lido financeTimeRange', '7D');
    const requested = serve('history', history(7));
    notFoundElsewhere();
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    await waitFor(() => expect(screen.getByTestId('figure-TVL')).toHaveTextContent('$66.0M'));
    expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('4.53%');
    expect(screen.getByTestId('figure-30d Risk-Adjusted APR')).toHaveTextContent('2.75%');
    expect(screen.queryByRole('note')).toBeNull();
    expect(requested.calls.map(({ url }) => url.pathname + url.search)).toContain(
      '/api/history?id=13&range=7D',
    );
    expect(screen.getByRole('button', { name: '7D' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('a negative risk-adjusted figure carries the note that the charges exceed the yield', async () => {
    // The page also reads GET /api/sources (feed link, detected warnings).
    serve('sources', []);
    serve('history', history(30, { lastRaApr: -1.3386 }));
    render(<Fundamentals id={8} name="Resolv USR" />, { wrapper });
    const figure = await screen.findByTestId('figure-30d Risk-Adjusted APR');
    await waitFor(() => expect(figure).toHaveTextContent('-1.34%'));
    expect(
      within(figure).getByRole('note', { name: /the risk charges exceed the yield/ }),
    ).toHaveAttribute('tabindex', '0');
    // A positive figure needs no note.
    expect(within(screen.getByTestId('figure-30d APR')).queryByRole('note')).toBeNull();
  });

  it('marks the source\u2019s incidents on both history charts and names those in the range', async () => {
    const incident = (date: string, kind: string) =>
      incidentFixture({
        date,
        kind,
        summary: 'What happened.',
        link: 'https://example.org/report',
        active: false,
      });
    serve('history', history(30));
    serve('sources', [
      {
        ...SOURCES[0]!,
        id: 8,
        incidents: [incident('2026-11-05', 'exploit'), incident('2026-03-22', 'depeg')],
      },
    ]);
    notFoundElsewhere();
    render(<Fundamentals id={8} name="Resolv USR" />, { wrapper });
    const legend = await screen.findByTestId('incident-legend');
    // Only the incident within the 30 days shown is named and drawn.
    expect(legend).toHaveTextContent(
      'The dashed red line marks an incident: exploit on Nov 5, 2026.',
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('stub-chart').map((c) => c.textContent)).toEqual([
        '30 points, 1 incidents',
        '30 points, 1 incidents',
      ]),
    );
    expect(screen.getByTestId('chart-apr').querySelector('[role="img"]')).toHaveAttribute(
      'aria-label',
      expect.stringContaining('incident marked: exploit on Nov 5, 2026'),
    );
  });

  it('switching the range stores it and loads that range', async () => {
    const requested = serve('history', ({ url }) =>
      history(url.searchParams.get('range') === '90D' ? 90 : 30),
    );
    notFoundElsewhere();
    render(<Fundamentals id={3} name="Liquity Protocol" />, { wrapper });
    await waitFor(() =>
      expect(screen.getByTestId('chart-apr')).toHaveAttribute('data-point-count', '30'),
    );

    await userEvent.click(screen.getByRole('button', { name: '90D' }));
    await waitFor(() =>
      expect(screen.getByTestId('chart-apr')).toHaveAttribute('data-point-count', '90'),
    );
    expect(window.localStorage.getItem('liquity protocolTimeRange')).toBe('90D');
    expect(requested.calls.map(({ url }) => url.pathname + url.search)).toContain(
      '/api/history?id=3&range=90D',
    );
  });

  it('shows N/A, N/A chart overlays and logs when the request fails', async () => {
    serve('history', () => HttpResponse.error());
    serve('sources', () => HttpResponse.error());
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
    serve('sources', []);
    // Not an answer the contract allows (a history with an error field): the page must refuse it.
    serve('history', () =>
      HttpResponse.json({
        ...history(30),
        error: { code: 'stale', message: 'history unavailable' },
      }),
    );
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<Fundamentals id={12} name="Gauntlet USD Alpha" />, { wrapper });

    await waitFor(() => expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('N/A'));
    expect(screen.getByTestId('chart-apr')).toHaveAttribute('data-point-count', '0');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('stale: history unavailable'));
  });

  it('shows a spinner for each figure while loading', () => {
    const never = deferred<void>();
    const hold = async () => {
      await never.promise;
      return HttpResponse.error();
    };
    serve('history', hold);
    serve('sources', hold);
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });
    expect(screen.getByRole('status', { name: 'Loading TVL' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading 30d APR' })).toBeInTheDocument();
  });

  it('labels imported figures with DeFiLlama and their date, and links to the pool', async () => {
    const provenance: Provenance = {
      kind: 'defillama',
      asOf: '2026-11-23',
      stale: false,
      pool: LIDO_POOL,
      importedAt: '2026-11-23T09:00:00.000Z',
      series: 'lido-steth',
    };
    serve('history', history(30, { provenance }));
    serve('sources', SOURCES);
    notFoundElsewhere();
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    await waitFor(() =>
      expect(screen.getByTestId('data-source')).toHaveTextContent(
        'Data: DeFiLlama, as of Nov 23, 2026.',
      ),
    );
    expect(screen.queryByText(/Sample data/)).not.toBeInTheDocument();
    const link = await screen.findByRole('link', { name: /Its pool on DeFiLlama/ });
    expect(link).toHaveAttribute('href', `https://defillama.com/yields/pool/${LIDO_POOL}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByTestId('stale-flag')).not.toBeInTheDocument();
  });

  it('shows where the figures come from under the charts, so that nothing above them moves when it arrives', async () => {
    serve('history', history(30));
    serve('sources', SOURCES);
    notFoundElsewhere();
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    // While the history loads, the chart frames already stand where they will stay.
    const chart = screen.getByTestId('chart-apr');
    const source = await screen.findByTestId('data-source');
    expect(chart.compareDocumentPosition(source) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('chart-apr')).toBe(chart);
  });

  it("names Liquity's Stability Pool as read on chain for a deposit's gains and losses, not a share price", async () => {
    const POOL_ADDRESS = '0x66017D22b0f8556afDd19FC67041899Eb65a21bb';
    const provenance: Provenance = {
      kind: 'onchain',
      asOf: '2026-11-22',
      stale: false,
      chain: 'ethereum',
      address: POOL_ADDRESS,
      importedAt: '2026-11-23T09:00:00.000Z',
      series: 'liquity-sp',
    };
    const source: SourceRow = {
      ...SOURCES[0]!,
      feeds: [
        {
          provider: 'onchain',
          chain: 'ethereum',
          kind: 'liquity-stability-pool',
          address: POOL_ADDRESS,
          series: 'liquity-sp',
        },
      ],
      warnings: [],
    };
    serve('history', history(30, { provenance }));
    serve('sources', [source]);
    render(<Fundamentals id={13} name="Liquity v1 - Stability Pool" />, { wrapper });

    expect(await screen.findByTestId('chain-feed')).toHaveTextContent(
      `A deposit's gains and losses read on ethereum from the Stability Pool ${POOL_ADDRESS}.`,
    );
    expect(screen.getByTestId('chain-feed')).not.toHaveTextContent('Share price');
    expect(screen.queryByRole('link', { name: /Its pool on DeFiLlama/ })).not.toBeInTheDocument();
  });

  it('labels figures read from the chain, names the contract, and shows two feeds disagreeing', async () => {
    const STETH = '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84';
    const provenance: Provenance = {
      kind: 'onchain',
      asOf: '2026-11-22',
      stale: false,
      chain: 'ethereum',
      address: STETH,
      importedAt: '2026-11-23T09:00:00.000Z',
      series: 'lido-steth',
    };
    const text =
      "The two feeds disagree: the share price read from the chain gives a 7-day APR of 2.9%, DeFiLlama's feed 4.1%; the share price is used.";
    const source: SourceRow = {
      ...SOURCES[0]!,
      feeds: [
        ...SOURCES[0]!.feeds,
        {
          provider: 'onchain',
          chain: 'ethereum',
          kind: 'rate',
          address: STETH,
          call: 'getPooledEthByShares',
          series: 'lido-steth',
        },
      ],
      warnings: [
        {
          kind: 'feeds-disagree',
          openedOn: '2026-11-21',
          closedOn: null,
          figures: { onchainApr7d: 2.9, defillamaApr7d: 4.1, gapPp: 1.2 },
          text,
          detected: true,
        },
      ],
    };
    serve('history', history(30, { provenance }));
    serve('sources', [source]);
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    await waitFor(() =>
      expect(screen.getByTestId('data-source')).toHaveTextContent(
        'Data: share price on chain, as of Nov 22, 2026.',
      ),
    );
    expect(await screen.findByTestId('chain-feed')).toHaveTextContent(
      `Share price read on ethereum from ${STETH}.`,
    );
    expect(screen.getByRole('link', { name: /Its pool on DeFiLlama/ })).toHaveAttribute(
      'href',
      `https://defillama.com/yields/pool/${LIDO_POOL}`,
    );
    const notes = within(await screen.findByTestId('detected-warnings')).getAllByRole('note');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toHaveTextContent(
      `Feeds disagree Detected from data since Nov 21, 2026${text}`,
    );
  });

  it('shows a stale series with its figures and the day its data stopped', async () => {
    const provenance: Provenance = {
      kind: 'defillama',
      asOf: '2026-11-19',
      stale: true,
      pool: LIDO_POOL,
    };
    serve('history', history(30, { status: 'stale', asOf: '2026-11-19', provenance }));
    serve('sources', []);
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    await waitFor(() =>
      expect(screen.getByTestId('stale-flag')).toHaveTextContent(
        'Stale: no new data since Nov 19, 2026',
      ),
    );
    expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('4.53%');
    expect(screen.queryByTestId('feed-link')).not.toBeInTheDocument();
  });

  it('keeps the sample label, in the site date format, for sample data', async () => {
    serve('history', history(30));
    serve('sources', []);
    render(<Fundamentals id={3} name="Liquity Protocol" />, { wrapper });
    await waitFor(() =>
      expect(screen.getByTestId('data-source')).toHaveTextContent(
        'Sample data as of Nov 21, 2026.',
      ),
    );
  });

  it('shows open warnings detected from data like a notice, and says where the charts mark them', async () => {
    const warnings: DetectedWarning[] = [
      {
        kind: 'outflow',
        openedOn: '2026-11-05',
        closedOn: '2026-11-12',
        figures: {},
        text: 'Deposits are leaving fast: the value locked fell 35% over 7 days.',
        detected: true,
      },
      {
        kind: 'depeg',
        openedOn: '2026-11-20',
        closedOn: null,
        figures: { price: 0.97 },
        text: 'The token traded at $0.97, 3% below its $1 peg.',
        detected: true,
        dismissed: { on: '2026-11-21', note: 'One venue mispriced it.' },
      },
    ];
    serve('history', history(30));
    serve('sources', [{ ...SOURCES[0]!, warnings }]);
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });

    const box = await screen.findByTestId('detected-warnings');
    const notes = within(box).getAllByRole('note');
    // Only the open one; the closed outflow is on the charts only.
    expect(notes).toHaveLength(1);
    expect(notes[0]).toHaveTextContent(
      'Off its peg Detected from data since Nov 20, 2026The token traded at $0.97, 3% below its $1 peg.Dismissed by our team on Nov 21, 2026: One venue mispriced it.',
    );
    expect(screen.getByTestId('warning-marks')).toHaveTextContent(
      'Marked on the charts (warnings detected from data): Deposits leaving fast: opened Nov 5, 2026; Deposits leaving fast: closed Nov 12, 2026; Off its peg: opened Nov 20, 2026.',
    );
  });

  it('shows no warning box without an open warning', async () => {
    serve('history', history(30));
    serve('sources', [{ ...SOURCES[0]!, warnings: [] }]);
    render(<Fundamentals id={13} name="Lido Finance" />, { wrapper });
    await waitFor(() => expect(screen.getByTestId('feed-link')).toBeInTheDocument());
    expect(screen.queryByTestId('detected-warnings')).not.toBeInTheDocument();
    expect(screen.queryByTestId('warning-marks')).not.toBeInTheDocument();
  });

  it('says No live data where the figures would be, and draws no chart, once the site has imported', async () => {
    const none: Provenance = { kind: 'none', asOf: null, stale: false, series: 'liquity-sp' };
    // As the API answers a source without a feed after an import: no points, no figures.
    serve(
      'history',
      history(0, {
        lastTvl: 0,
        lastApr: 0,
        lastRaApr: 0,
        status: 'insufficient_data',
        asOf: null,
        provenance: none,
      }),
    );
    serve('sources', [sourceRowFixture({ id: 3, feeds: [] })]);
    render(<Fundamentals id={3} name="Liquity" />, { wrapper });

    await waitFor(() =>
      expect(screen.getByTestId('figure-30d APR')).toHaveTextContent('30d APRNo live data'),
    );
    expect(screen.getByTestId('figure-TVL')).toHaveTextContent('TVLNo live data');
    expect(screen.getByTestId('figure-30d Risk-Adjusted APR')).toHaveTextContent(
      '30d Risk-Adjusted APRNo live data',
    );
    expect(screen.getByTestId('no-live-data')).toHaveTextContent(
      'No live data. The site imports its figures from DeFiLlama, and this source has no feed yet',
    );
    // Said once: no "data as of" line under the notice.
    expect(screen.queryByTestId('data-source')).not.toBeInTheDocument();
    expect(screen.queryByText(/Sample data|N\/A|\$0/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('stub-chart')).not.toBeInTheDocument();
    expect(screen.queryByTestId('chart-apr')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Time range' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('feed-link')).not.toBeInTheDocument();
  });
});
