import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RiskBreakdown, YieldSource } from '@yield/contract';
import { WorkedExample } from './WorkedExample.tsx';
import { jsonResponse, renderPage, stubFetch } from '../../test/render.tsx';

const SOURCES = [
  { id: 2, name: 'Sky Spark - Savings Account', isBaseRate: false },
  { id: 8, name: 'Resolv - USR Staking', isBaseRate: false },
  { id: 0, name: 'DeFi Base Rate', isBaseRate: true },
] as YieldSource[];

function breakdown(id: number, overrides: Partial<RiskBreakdown> = {}): RiskBreakdown {
  return {
    id,
    method: 'ra30-v1',
    asOf: '2026-11-21',
    status: 'ok',
    window: { from: '2026-10-23', to: '2026-11-21', days: 30 },
    inputs: {
      safety: 5,
      liquidity: 5,
      sigma30: 0.1,
      reward30: 0,
      tvl: 5e9,
      tvlMedian: 4.9e9,
      tvlDrawdown: 0.03,
      clampedDays: 0,
    },
    yield30d: 3.92,
    riskAdjustedYield30d: 3.59,
    risk: 0.33,
    charges: { volatility: 0.1, incentives: 0, safety: 0.2, liquidity: 0, size: 0, outflow: 0.03 },
    great: true,
    provenance: { kind: 'sample', asOf: '2026-11-21', stale: false },
    ...overrides,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('WorkedExample', () => {
  it('takes the first source apart charge by charge and follows the picker', async () => {
    const calls = stubFetch((url) => {
      if (url === '/api/sources') return jsonResponse(SOURCES);
      if (url === '/api/strategies/2/breakdown') return jsonResponse(breakdown(2));
      if (url === '/api/strategies/8/breakdown')
        return jsonResponse(
          breakdown(8, { yield30d: 0.49, riskAdjustedYield30d: -6.27, risk: 6.76, great: false }),
        );
      return jsonResponse({ error: { code: 'not_found', message: url } }, 404);
    });
    const user = userEvent.setup();
    renderPage(<WorkedExample />);
    const table = await screen.findByTestId('worked-example');
    expect(table).toHaveTextContent('Sky Spark - Savings Account');
    expect(table).toHaveTextContent('3.92');
    expect(table).toHaveTextContent('3.59');
    expect(screen.getByText(/it is marked GREAT/)).toBeInTheDocument();
    // The base rates are offered by key, the id-0 rows are not.
    expect(screen.getByRole('option', { name: 'DeFi Base Rate (stablecoins)' })).toHaveValue(
      'base-stablecoin',
    );
    expect(screen.queryByRole('option', { name: 'DeFi Base Rate' })).toBeNull();

    await user.selectOptions(screen.getByLabelText('Yield source'), 'Resolv - USR Staking');
    // The risk-adjusted APR, in the table's last row and in the sentence under it.
    expect(await screen.findAllByText('-6.27%')).toHaveLength(2);
    expect(screen.getByText(/not marked GREAT/)).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/strategies/8/breakdown')).toBe(true);
  });

  it('shows N/A for a source without enough data', async () => {
    stubFetch((url) =>
      url === '/api/sources'
        ? jsonResponse(SOURCES)
        : jsonResponse(breakdown(2, { status: 'insufficient_data' })),
    );
    renderPage(<WorkedExample />);
    expect(await screen.findByText(/fewer than 20 days of data/)).toHaveTextContent('(N/A)');
  });

  it('offers a retry when the breakdown cannot be loaded', async () => {
    let fail = true;
    stubFetch((url) => {
      if (url === '/api/sources') return jsonResponse(SOURCES);
      return fail
        ? jsonResponse({ error: { code: 'internal', message: 'down' } }, 500)
        : jsonResponse(breakdown(2));
    });
    const user = userEvent.setup();
    renderPage(<WorkedExample />);
    expect(
      await screen.findByText('This breakdown could not be loaded just now.'),
    ).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('worked-example')).toHaveTextContent('3.59');
  });
});
