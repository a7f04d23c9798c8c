import { screen, waitFor, within } from '@testing-library/react';
import type { PremiumStrategyAnalysis } from '@yield/contract';
import PremiumStrategyPage from './PremiumStrategyPage.tsx';
import { apiErrorFixture, premiumAnalysisFixture } from '@yield/fixtures';
import {
  HttpResponse,
  requestsSeen,
  serve,
  type Answer,
  type ServeOptions,
} from '@yield/fixtures/msw';
import { bootSession, makeToken, premiumToken, renderRoute } from '../test/harness.tsx';

/** The ready analysis of Ethena sUSDe (rated by Credora), with a rating the page leaves out (N/A). */
const ready = premiumAnalysisFixture({
  thirdPartyRatings: [
    ...premiumAnalysisFixture().thirdPartyRatings,
    {
      provider: 'DeFiSafety',
      providerUrl: 'https://defisafety.example',
      value: 'N/A',
      date: '2026-10-01',
      link: null,
    },
  ],
});

/** The page's API: settings, the sources, and the analysis as the test decides. */
function serveApi(analysis: Answer<'premiumAnalysis'>, options?: ServeOptions) {
  serve('settings');
  serve('sources', [ready.source]);
  return serve('premiumAnalysis', analysis, options);
}

describe('PremiumStrategyPage', () => {
  it('sends a visitor without premium to /pricing and asks the API for nothing', async () => {
    bootSession(null);
    serveApi(ready);
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
    expect(requestsSeen().some(({ url }) => url.pathname.startsWith('/api/premium/'))).toBe(false);
  });

  it('treats an expired token as no session: removed on load, sent to /pricing', async () => {
    bootSession(premiumToken({ exp: Math.floor(Date.now() / 1000) - 60 }));
    serveApi(ready);
    expect(localStorage.getItem('premiumToken')).toBeNull();
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
  });

  it('shows the real analysis for a premium member, sent with the bearer token', async () => {
    const token = premiumToken();
    bootSession(token);
    const analysis = serveApi(ready);
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
    const call = analysis.calls.find(({ url }) => url.pathname === '/api/premium/strategies/5');
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${token}`);

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
    serveApi(ready);
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
    serveApi(paused);
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
    serveApi(withIncidents);
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    // Only the incident within the two days of history is on the chart.
    expect(await screen.findByTestId('incident-legend')).toHaveTextContent(
      'The dashed red line marks depeg on Nov 21, 2026.',
    );
  });

  it('labels the sample source as sample, and an imported stale one by DeFiLlama with its date and figures', async () => {
    bootSession(premiumToken());
    serveApi(ready);
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
    serveApi(stale);
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
    serveApi(noLive);
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
    serveApi(analyzing);
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
    serveApi(apiErrorFixture('unauthorized', 'Invalid token'), { status: 401 });
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
    serveApi(() => HttpResponse.error());
    renderRoute({ path: '/premium/:strategy', element: <PremiumStrategyPage />, at: '/premium/5' });
    expect(
      await screen.findByRole('button', { name: 'Try again' }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(localStorage.getItem('premiumToken')).toBe(token);
  }, 30_000);
});
