import { screen, waitFor, within } from '@testing-library/react';
import type { PremiumStrategyAnalysis } from '@yield/contract';
import PremiumStrategyPage from './PremiumStrategyPage.tsx';
import {
  bootSession,
  jsonResponse,
  makeToken,
  premiumToken,
  renderRoute,
} from '../test/harness.tsx';

const ready: PremiumStrategyAnalysis = {
  id: 5,
  requestedId: '5',
  name: 'Ethena - sUSDe',
  status: 'ready',
  source: {
    id: 5,
    name: 'Ethena - sUSDe',
    token: 'USDe',
    yieldToken: 'sUSDe',
    type: 'defi',
    unit: 'USD',
    rating: 3,
    safety: 3,
    liquidity: 3,
    yield_type: 'Funding-rate basis trade',
    real_or_incentive: 'Real',
    yield_category: 'Delta-neutral',
    isBaseRate: false,
    detailSlug: null,
    incidents: [],
    warnings: [],
    description: 'Earns the funding rate of a hedged ETH position.',
    scoreRationale: {
      date: '2026-01-01',
      safety: 'Custody with off-exchange settlement.',
      liquidity: 'Unstaking takes seven days.',
      links: ['https://example.org/ethena-docs'],
    },
    depositUrl: 'https://example.org/ethena',
    exit: {
      kind: 'cooldown',
      days: 7,
      note: 'Unstaking waits for a cooldown.',
      link: 'https://example.org/ethena-docs',
      verified: '2026-11-23',
    },
    feeds: [],
    provenance: { kind: 'sample', asOf: '2026-11-21', series: 'ethena-susde', stale: false },
  },
  breakdown: {
    id: 5,
    method: 'ra30-v1',
    asOf: '2026-11-21',
    status: 'ok',
    window: { from: '2026-10-23', to: '2026-11-21', days: 30 },
    inputs: {
      safety: 3,
      liquidity: 3,
      sigma30: 2.02,
      reward30: 0,
      tvl: 3.55e9,
      tvlMedian: 3.9e9,
      tvlDrawdown: 0.16,
      clampedDays: 0,
    },
    yield30d: 10.36,
    riskAdjustedYield30d: 6.37,
    risk: 3.99,
    charges: {
      volatility: 2.03,
      incentives: 0,
      safety: 1.5,
      liquidity: 0.3,
      size: 0,
      outflow: 0.16,
    },
    great: false,
    provenance: { kind: 'sample', asOf: '2026-11-21', series: 'ethena-susde', stale: false },
  },
  history: [
    { timestamp: Date.UTC(2026, 10, 20), tvl: 3.6e9, apr: 10.1 },
    { timestamp: Date.UTC(2026, 10, 21), tvl: 3.55e9, apr: 10.5 },
  ],
  thirdPartyRatings: [
    {
      provider: 'Credora',
      providerUrl: 'https://credora.example',
      value: 'A',
      date: '2026-10-01',
      link: null,
    },
    {
      provider: 'DeFiSafety',
      providerUrl: 'https://defisafety.example',
      value: 'N/A',
      date: '2026-10-01',
      link: null,
    },
  ],
  summary: 'Ethena - sUSDe paid 10.36% APR on average over the 30 days to 2026-11-21.',
};

function api(analysis: () => Promise<Response>) {
  return vi.fn((url: string) => {
    if (url.startsWith('/api/premium/strategies/')) return analysis();
    if (url === '/api/sources') return Promise.resolve(jsonResponse(200, [ready.source]));
    return Promise.resolve(
      jsonResponse(200, { siteTitle: 'Pigi', data: { sample: true, asOf: '2026-11-21' } }),
    );
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('PremiumStrategyPage', () => {
  it('sends a visitor without premium to /pricing and asks the API for nothing', async () => {
    bootSession(null);
    const fetchMock = api(() => Promise.resolve(jsonResponse(200, ready)));
    vi.stubGlobal('fetch', fetchMock);
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/premium/'))).toBe(
      false,
    );
  });

  it('treats an expired token as no session: removed on load, sent to /pricing', async () => {
    bootSession(premiumToken({ exp: Math.floor(Date.now() / 1000) - 60 }));
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, ready))),
    );
    expect(localStorage.getItem('premiumToken')).toBeNull();
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
  });

  it('shows the real analysis for a premium member, sent with the bearer token', async () => {
    const token = premiumToken();
    bootSession(token);
    const fetchMock = api(() => Promise.resolve(jsonResponse(200, ready)));
    vi.stubGlobal('fetch', fetchMock);
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });

    expect(
      screen.getByRole('heading', { level: 1, name: 'Premium Strategy #5' }),
    ).toBeInTheDocument();
    for (const benefit of [
      'Risk assessment',
      'Historical performance',
      'Yield recommendations',
      'Allocation strategies',
      'Real-time insights',
      'Expert consultation',
    ]) {
      expect(screen.getByRole('list', { name: 'Included with premium' })).toHaveTextContent(
        benefit,
      );
    }
    expect(await screen.findByTestId('premium-report')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(
      ([url]) => String(url) === '/api/premium/strategies/5',
    ) as unknown as [string, RequestInit];
    expect(new Headers(call[1].headers).get('Authorization')).toBe(`Bearer ${token}`);

    const charges = screen.getByRole('list', { name: 'Risk charges' });
    expect(within(charges).getAllByRole('listitem')).toHaveLength(6);
    expect(charges).toHaveTextContent('Volatility');
    expect(charges).toHaveTextContent('2.03 pp');
    expect(screen.getAllByText('6.37%').length).toBeGreaterThan(0);
    expect(screen.getByTestId('premium-history-chart')).toHaveAttribute('data-point-count', '2');
    const ratings = screen.getByRole('table', { name: 'Third-party ratings' });
    expect(within(ratings).getByRole('link', { name: /Credora/ })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(ratings).not.toHaveTextContent('DeFiSafety');
    expect(screen.queryByText(/being analyzed/)).toBeNull();
  });

  it('sends the member to the provider, or says deposits are paused and sends nobody', async () => {
    bootSession(premiumToken());
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, ready))),
    );
    const first = renderRoute({
      path: '/premium/:strategy',
      element: <PremiumStrategyPage />,
      at: '/premium/5',
    });
    expect(await screen.findByRole('link', { name: /Go to Ethena - sUSDe/ })).toHaveAttribute(
      'href',
      'https://example.org/ethena',
    );
    expect(screen.queryByTestId('deposits-paused')).toBeNull();
    first.unmount();

    const paused = {
      ...ready,
      source: {
        ...ready.source,
        depositUrl: null,
        depositsPaused: {
          since: '2026-03-22',
          note: 'Staking is paused since the exploit.',
          link: 'https://example.org/postmortem',
          verified: '2026-11-23',
        },
      },
    };
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, paused))),
    );
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    expect(await screen.findByTestId('deposits-paused')).toHaveTextContent(
      'Deposits paused since Mar 22, 2026. Staking is paused since the exploit.',
    );
    expect(screen.queryByRole('link', { name: /Go to Ethena - sUSDe/ })).toBeNull();
  });

  it('names the incidents within the history under its chart (the chart marks them)', async () => {
    bootSession(premiumToken());
    const incident = (date: string, kind: string, active: boolean) => ({
      date,
      kind,
      summary: 'What happened.',
      link: 'https://example.org/report',
      linkVerified: '2026-11-23',
      active,
    });
    const withIncidents = {
      ...ready,
      source: {
        ...ready.source,
        incidents: [
          incident('2026-11-21', 'depeg', false),
          incident('2026-03-22', 'exploit', true),
        ],
      },
    };
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, withIncidents))),
    );
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    // Only the incident within the two days of history is on the chart.
    expect(await screen.findByTestId('incident-legend')).toHaveTextContent(
      'The dashed red line marks depeg on Nov 21, 2026.',
    );
  });

  it('labels the sample source as sample, and an imported stale one by DeFiLlama with its date and figures', async () => {
    bootSession(premiumToken());
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, ready))),
    );
    const first = renderRoute({
      path: '/premium/:strategy',
      element: <PremiumStrategyPage />,
      at: '/premium/5',
    });
    expect(await screen.findByTestId('data-source')).toHaveTextContent(
      'Sample data as of Nov 21, 2026',
    );
    first.unmount();

    const provenance = {
      kind: 'defillama' as const,
      asOf: '2026-11-19',
      stale: true,
      series: 'ethena-susde',
      pool: '66985a81-9c51-46ca-9977-42b4fe7bc6df',
    };
    const stale: PremiumStrategyAnalysis = {
      ...ready,
      source: { ...ready.source, provenance },
      breakdown: { ...ready.breakdown, status: 'stale', asOf: '2026-11-19', provenance },
    };
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, stale))),
    );
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    expect(await screen.findByTestId('data-source')).toHaveTextContent(
      'Data: DeFiLlama, as of Nov 19, 2026 · Stale: no new data since Nov 19, 2026',
    );
    expect(screen.getAllByText('6.37%').length).toBeGreaterThan(0);
    expect(screen.queryByText(/Sample data/)).toBeNull();
  });

  it('says No live data where the figures would be for a source without live data', async () => {
    bootSession(premiumToken());
    const none = { kind: 'none' as const, asOf: null, stale: false, series: 'ethena-susde' };
    const noLive: PremiumStrategyAnalysis = {
      ...ready,
      source: { ...ready.source, provenance: none },
      breakdown: {
        ...ready.breakdown,
        status: 'insufficient_data',
        asOf: '',
        window: { from: '', to: '', days: 0 },
        inputs: { ...ready.breakdown.inputs, tvl: 0, tvlMedian: 0 },
        yield30d: 0,
        riskAdjustedYield30d: 0,
        risk: 0,
        provenance: none,
      },
      history: [],
      summary: 'Ethena - sUSDe has no live data yet.',
    };
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, noLive))),
    );
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    expect(await screen.findByTestId('data-source')).toHaveTextContent('No live data');
    const report = screen.getByTestId('premium-report');
    // APR, risk charges, risk-adjusted APR and TVL.
    expect(within(report).getAllByText('No live data')).toHaveLength(4);
    expect(within(report).queryByText(/N\/A|\$0|0\.00%/)).toBeNull();
    expect(screen.queryByText(/Sample data/)).toBeNull();
  });

  it("shows the 'being analyzed' status when the server has no analysis for the id yet", async () => {
    bootSession(premiumToken());
    const analyzing: PremiumStrategyAnalysis = {
      ...ready,
      id: 0,
      status: 'analyzing',
      source: null,
      breakdown: null,
      history: [],
      thirdPartyRatings: [],
    };
    vi.stubGlobal(
      'fetch',
      api(() => Promise.resolve(jsonResponse(200, analyzing))),
    );
    renderRoute({
      path: '/premium/:strategy',
      element: <PremiumStrategyPage />,
      at: '/premium/strategy',
    });
    expect(
      await screen.findByText(
        'This strategy is being analyzed. The full report will be available soon.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('premium-report')).toBeNull();
  });

  it('logs out and goes to /pricing when the API refuses the token (401)', async () => {
    const forged = makeToken({
      sub: 'x',
      userId: 'x',
      accessLevel: 'premium',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    bootSession(forged);
    localStorage.setItem('premiumUser', '{"userId":"x"}');
    vi.stubGlobal(
      'fetch',
      api(() =>
        Promise.resolve(
          jsonResponse(401, { error: { code: 'unauthorized', message: 'Invalid token' } }),
        ),
      ),
    );
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
    expect(JSON.parse(screen.getByTestId('location').dataset.state!)).toEqual({
      notice: 'session-ended',
    });
    expect(localStorage.getItem('premiumToken')).toBeNull();
    expect(localStorage.getItem('premiumUser')).toBeNull();
    expect(screen.queryByTestId('premium-report')).toBeNull();
  });

  it('keeps the session and offers a retry when the server is unreachable', async () => {
    const token = premiumToken();
    bootSession(token);
    vi.stubGlobal(
      'fetch',
      api(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    expect(
      await screen.findByRole('button', { name: 'Try again' }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(localStorage.getItem('premiumToken')).toBe(token);
  }, 30_000);
});
