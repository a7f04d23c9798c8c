import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import ComparePage from './ComparePage.tsx';
import { compareColumns, joinNames, resolveSelection } from '../features/compare/model.ts';
import { parseCompareIds } from '@yield/ui';
import type { SourceRow, StrategyMetrics, YieldSource } from '@yield/contract';
import {
  apiErrorFixture,
  baseRatesFixture,
  breakdownFixture,
  earningsFixture,
  historyFixture,
  incidentFixture,
  netCostFixture,
  netYieldFixture,
  sourceRowFixture,
  unknownCostFixture,
  strategyFixture,
  type DeepPartial,
} from '@yield/fixtures';
import { serve, serveOthers, type SeenRequest } from '@yield/fixtures/msw';

// Highcharts is not under test: the chart module is a stand-in that lists what it was given.
vi.mock('../shared/charts/lazy.ts', () => {
  const Stub = ({
    series,
    incidents,
  }: {
    series: { name: string; points: unknown[] }[];
    incidents: { date: string; kind: string }[];
  }) => (
    <div data-testid="stub-chart">
      {series.map((s) => `${s.name}: ${s.points.length}`).join(' | ')} / incidents:{' '}
      {incidents.map((i) => `${i.kind} ${i.date}`).join(', ')}
    </div>
  );
  return { LazyCompareChart: Stub, loadCompareChart: () => Promise.resolve() };
});

const EXIT = {
  kind: 'instant',
  days: 0,
  note: 'Withdraw at any time.',
  link: 'https://example.org/exit',
  verified: '2026-11-23',
} as const;

function source(id: number, name: string, extra: DeepPartial<SourceRow> = {}): SourceRow {
  return sourceRowFixture({
    id,
    name,
    depositUrl: `https://example.org/deposit/${id}`,
    exit: EXIT,
    ...extra,
  });
}

const SOURCES: YieldSource[] = [
  source(3, 'Liquity v1 - Stability Pool', { detailSlug: 'liquity' }),
  source(8, 'Resolv - USR Staking', {
    depositUrl: null,
    depositsPaused: {
      since: '2026-03-22',
      note: 'Staking is paused since the exploit.',
      link: 'https://example.org/postmortem',
      verified: '2026-11-23',
    },
    incidents: [
      incidentFixture({
        date: '2026-11-05',
        summary: 'Unbacked USR was minted.',
        link: 'https://example.org/postmortem',
      }),
    ],
  }),
  source(13, 'Lido - stETH', {
    type: 'defi',
    unit: 'ETH',
    token: 'ETH',
    detailSlug: 'lido',
    exit: { ...EXIT, kind: 'queue', days: 5, note: 'Waits in the withdrawal queue.' },
  }),
];

function metrics(id: number, apr: number, ra: number, extra: DeepPartial<StrategyMetrics> = {}) {
  return strategyFixture({ id, yield30d: apr, riskAdjustedYield30d: ra, tvl: 66e6, ...extra });
}
const STRATEGIES = [
  metrics(3, 4.53, 2.75),
  metrics(8, 0.49, -6.27),
  metrics(13, 2.75, 2.29, { great: true }),
];
const RATES = baseRatesFixture({
  baserateDefi: 2.3,
  baserateStable: 4.9,
  baserateRiskAdjustedDefi: 1.82,
  baserateRiskAdjustedStable: 3.99,
});

function breakdown(id: string) {
  const ra = STRATEGIES.find((m) => String(m.id) === id)!;
  return breakdownFixture({
    id: Number(id),
    yield30d: ra.yield30d,
    riskAdjustedYield30d: ra.riskAdjustedYield30d,
    risk: ra.risk,
    charges: {
      volatility: 0.3,
      incentives: 0,
      safety: id === '8' ? 6 : 0.75,
      liquidity: 0,
      size: 0.29,
      outflow: 0.03,
    },
    great: ra.great,
  });
}

function history(days: number) {
  return historyFixture({
    data: Array.from({ length: days }, (_, i) => ({
      timestamp: Date.UTC(2026, 7, 24 + i),
      tvl: 1e6,
      apr: 4,
    })),
    lastTvl: 1e6,
    lastApr: 4,
    lastRaApr: 3,
  });
}

/** The API the page reads; returns the history requests, for the range assertions. */
function serveApi() {
  serve('sources', SOURCES);
  serve('strategies', STRATEGIES);
  serve('baseRates', RATES);
  serve('breakdown', ({ params }) => breakdown(String(params.id)));
  serve('earnings', ({ url }) => {
    const id = Number(url.searchParams.get('id'));
    return earningsFixture({
      id,
      amount: Number(url.searchParams.get('amount')),
      unit: id === 13 ? 'ETH' : 'USD',
      range: '30D',
      earned: 37.75,
      days: 30,
      from: '2026-10-23',
      to: '2026-11-21',
      base: {
        key: 'base-stablecoin',
        earned: 40.43,
        days: 30,
        from: '2026-10-23',
        to: '2026-11-21',
      },
      difference: -2.68,
    });
  });
  serveOthers(404, apiErrorFixture('not_found', 'no'));
  return serve('history', history(90));
}

const requestedUrls = (seen: { calls: SeenRequest[] }) =>
  seen.calls.map(({ url }) => url.pathname + url.search);

function Where() {
  return <p data-testid="where">{useLocation().pathname + useLocation().search}</p>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/compare" element={<ComparePage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.restoreAllMocks();
});

describe('the compare page', () => {
  it('shows the sources of the link side by side: figures, charges, exit, incidents, chart, earnings', async () => {
    serveApi();
    renderAt('/compare?ids=3,8,13');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent(
      'Compare Liquity v1 - Stability Pool, Resolv - USR Staking and Lido - stETH',
    );
    // Figures, in the link's order, from the API; vs base against each one's market.
    const figures = await screen.findByTestId('figures-table');
    await waitFor(() => expect(within(figures).getByTestId('row-ra')).toHaveTextContent('2.75%'));
    expect(within(figures).getByTestId('row-ra')).toHaveTextContent(/2\.75%.*-6\.27%.*2\.29%/);
    expect(within(figures).getByTestId('row-base')).toHaveTextContent(
      '3.99% stablecoin3.99% stablecoin1.82% crypto',
    );
    expect(within(figures).getByTestId('row-vs-base')).toHaveTextContent(
      '\u22121.24 pp\u221210.26 pp+0.47 pp',
    );
    expect(within(figures).getByTestId('row-great')).toHaveTextContent('Not GREATNot GREATGREAT');
    expect(within(figures).getByTestId('row-data')).toHaveTextContent(
      'Sample data as of Nov 21, 2026.',
    );
    // The ra30-v1 charges the API sent, per source.
    const charges = screen.getByTestId('charges-table');
    await waitFor(() =>
      expect(within(charges).getByTestId('charge-safety')).toHaveTextContent(
        '0.75 pp6.00 pp0.75 pp',
      ),
    );
    // Exit and incidents, per source.
    const exit = screen.getByRole('region', { name: 'Exit' });
    expect(exit).toHaveTextContent('Queue: up to 5 days');
    const incidents = screen.getByRole('region', { name: 'Incidents' });
    expect(
      within(incidents).getByRole('list', { name: 'Incidents of Resolv - USR Staking' }),
    ).toHaveTextContent('Open: exploit on Nov 5, 2026. Unbacked USR was minted.');
    expect(within(incidents).getAllByText('No incident recorded.')).toHaveLength(2);
    // The chart: a line per source and per base rate, the incident marked and named.
    const chart = await screen.findByTestId('stub-chart', {}, { timeout: 5000 });
    expect(chart).toHaveTextContent(
      'Liquity v1 - Stability Pool: 90 | Resolv - USR Staking: 90 | Lido - stETH: 90 | DeFi Base Rate (stablecoin): 90 | DeFi Base Rate (crypto): 90',
    );
    expect(chart).toHaveTextContent('incidents: exploit 2026-11-05');
    expect(screen.getByTestId('incident-legend')).toHaveTextContent(
      'The dashed red line marks Resolv - USR Staking: exploit on Nov 5, 2026.',
    );
    // One amount for all three, each answered in its own unit.
    const earnings = screen.getByRole('region', { name: 'What would it have earned?' });
    expect(
      within(earnings).getByText('Amount in each source\u2019s unit (USD or ETH)'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(earnings).getAllByTestId('earned')).toHaveLength(3));
    // Each head links to the source's own page.
    expect(screen.getByRole('link', { name: 'Resolv - USR Staking' })).toHaveAttribute(
      'href',
      '/premium/8',
    );
    expect(screen.getByRole('link', { name: 'Lido - stETH' })).toHaveAttribute(
      'href',
      '/options/lido',
    );
    // Each head sends the saver to the provider, except where deposits are paused.
    const heads = screen.getByRole('list', { name: 'Compared sources' });
    expect(
      within(heads)
        .getAllByRole('link', { name: /Deposit on the provider/ })
        .map((a) => a.getAttribute('href')),
    ).toEqual(['https://example.org/deposit/3', 'https://example.org/deposit/13']);
    expect(within(heads).getByTestId('deposits-paused')).toHaveTextContent(
      'Deposits paused since Mar 22, 2026. Staking is paused since the exploit.',
    );
  });

  it('shows what each source keeps after fees and gas side by side, for the amount and days set', async () => {
    serveApi();
    const NO_PREVIEWS =
      'Not read from the chain: this kind of contract (stability-pool) does not preview its fees';
    const asked = serve('netYield', ({ url }) => {
      const id = Number(url.searchParams.get('id'));
      const amount = Number(url.searchParams.get('amount'));
      const days = Number(url.searchParams.get('days'));
      const eth = id === 13;
      if (id === 3)
        return netYieldFixture({
          id,
          amount,
          days,
          costs: { entry: unknownCostFixture(NO_PREVIEWS), exit: unknownCostFixture(NO_PREVIEWS) },
          totalCost: null,
          netAmount: null,
          netApr: null,
          breakEvenDays: null,
        });
      return netYieldFixture({
        id,
        amount,
        days,
        unit: eth ? 'ETH' : 'USD',
        unitPriceUsd: eth ? 3000 : 1,
        costs: eth
          ? {
              entry: netCostFixture(0, 0),
              exit: netCostFixture(0, 0),
              gasIn: netCostFixture(0.0006, 1.8),
              gasOut: netCostFixture(0.0005, 1.5),
            }
          : {},
        netAmount: eth ? amount * 1.01 : amount * 1.02,
        breakEvenDays: eth ? 3 : id === 8 ? null : 40,
      });
    });
    renderAt('/compare?ids=3,8,13');
    const section = await screen.findByRole('region', { name: 'What you keep after fees and gas' });
    await userEvent.clear(within(section).getByLabelText('Amount in each source\u2019s unit'));
    await userEvent.type(
      within(section).getByLabelText('Amount in each source\u2019s unit'),
      '2000',
    );
    await userEvent.selectOptions(within(section).getByLabelText('Held for'), '180');
    await waitFor(() =>
      expect(within(section).getByTestId('net-table')).toHaveTextContent('2,020.0000 ETH'),
    );
    const table = within(section).getByTestId('net-table');
    expect(within(table).getByTestId('net-amount')).toHaveTextContent(
      'Unknown$2,040.002,020.0000 ETH',
    );
    expect(asked.calls.map(({ url }) => url.search)).toContain('?id=13&amount=2000&days=180');
    expect(within(table).getByTestId('break-even')).toHaveTextContent(
      'Break-even unknown: a cost is unknownNever breaks even at this amountBreaks even after 3 days',
    );
    const entry = within(table).getByTestId('cost-entry').querySelectorAll('td');
    expect(entry[0]).toHaveTextContent(`Unknown${NO_PREVIEWS}`);
    expect(entry[1]).toHaveTextContent('$0.50');
    // An ETH source's gas in its unit, and in USD below.
    expect(within(table).getByTestId('cost-gasIn').querySelectorAll('td')[2]).toHaveTextContent(
      '0.0006 ETH$1.80',
    );
    expect(within(table).getByTestId('costs-as-of')).toHaveTextContent('Nov 21, 2026, Ethereum');
    expect(
      within(table).getByRole('button', { name: 'About Entry fee' }),
    ).toHaveAccessibleDescription(/previewDeposit\(amount\).*under "Costs read on"/);
    expect(within(section).getByText(/Every cost is taken out at the deposit/)).toBeInTheDocument();
  });

  it('changes the chart range on request', async () => {
    const histories = serveApi();
    const user = userEvent.setup();
    renderAt('/compare?ids=3,8');
    await screen.findByTestId('stub-chart', {}, { timeout: 5000 });
    expect(requestedUrls(histories)).toContain('/api/history?id=3&range=90D');
    await user.click(
      within(screen.getByRole('group', { name: 'History range' })).getByRole('button', {
        name: '180D',
      }),
    );
    await waitFor(() =>
      expect(requestedUrls(histories)).toContain('/api/history?id=base-stablecoin&range=180D'),
    );
  });

  it.each([
    ['/compare', 'This link names no sources to compare.'],
    ['/compare?ids=3', 'A comparison needs two or three sources; this link names only one.'],
    ['/compare?ids=3,abc', 'This link names something that is not a source id: “abc”.'],
    ['/compare?ids=3,3', 'This link names the same source more than once.'],
    ['/compare?ids=3,99', 'No yield source has the id 99.'],
  ])('explains a link it cannot show (%s) and leads back to the comparison', async (path, text) => {
    serveApi();
    renderAt(path);
    const problem = await screen.findByTestId('compare-problem');
    expect(problem).toHaveTextContent(text);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Compare yield sources');
    expect(within(problem).getByRole('link', { name: 'Pick sources to compare' })).toHaveAttribute(
      'href',
      '/options',
    );
  });

  it('offers the first three of a link that names four', async () => {
    serveApi();
    renderAt('/compare?ids=3,8,13,2');
    const problem = await screen.findByTestId('compare-problem');
    expect(problem).toHaveTextContent(
      'A comparison shows at most 3 sources side by side; this link names 4.',
    );
    expect(
      within(problem).getByRole('link', {
        name: 'Compare Liquity v1 - Stability Pool, Resolv - USR Staking and Lido - stETH',
      }),
    ).toHaveAttribute('href', '/compare?ids=3,8,13');
  });

  it('says so when the sources cannot be loaded', async () => {
    serveOthers(500, apiErrorFixture('internal_error', 'x'));
    renderAt('/compare?ids=3,8');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The sources could not be loaded just now.',
    );
  });
});

describe('the compare model', () => {
  it('resolves the ids of a link against the source list', () => {
    expect(resolveSelection(parseCompareIds('?ids=13,3'), SOURCES)).toMatchObject({
      ok: true,
      sources: [{ id: 13 }, { id: 3 }],
    });
    expect(resolveSelection(parseCompareIds('?ids=13,42'), SOURCES)).toMatchObject({
      ok: false,
      problem: 'unknown',
      unknown: [42],
      known: [{ id: 13 }],
    });
  });

  it('reads each column against the base rate of its own market, N/A without figures', () => {
    const [liquity, lido] = compareColumns(
      [SOURCES[0] as SourceRow, SOURCES[2] as SourceRow],
      [STRATEGIES[0]!, { ...STRATEGIES[2]!, status: 'insufficient_data' }],
      RATES,
    );
    expect(liquity).toMatchObject({ baseKey: 'base-stablecoin', baseRiskAdjusted: 3.99 });
    expect(liquity!.vsBase).toBeCloseTo(-1.24);
    expect(lido).toMatchObject({
      baseKey: 'base-defi',
      measured: false,
      vsBase: null,
      great: false,
    });
  });

  it('joins names as a sentence', () => {
    expect(joinNames(['A'])).toBe('A');
    expect(joinNames(['A', 'B'])).toBe('A and B');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
