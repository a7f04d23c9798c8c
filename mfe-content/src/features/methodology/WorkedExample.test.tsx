import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RiskBreakdown } from '@yield/contract';
import { WorkedExample } from './WorkedExample.tsx';
import {
  apiErrorFixture,
  baseRateRowFixture,
  breakdownFixture,
  sourceRowFixture,
  sourcesFixture,
  type DeepPartial,
} from '@yield/fixtures';
import { HttpResponse, serve } from '@yield/fixtures/msw';
import { renderPage } from '../../test/render.tsx';

const SOURCES = sourcesFixture([
  sourceRowFixture({ id: 2, name: 'Sky Spark - Savings Account' }),
  sourceRowFixture({ id: 8, name: 'Resolv - USR Staking' }),
  baseRateRowFixture(),
]);

/** Sky Spark's breakdown: a GREAT source (3.92% APR, 3.59% after 0.33 points of charges). */
function breakdown(id: number, overrides: DeepPartial<RiskBreakdown> = {}): RiskBreakdown {
  return breakdownFixture({
    id,
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
    ...overrides,
  });
}

/** Each source's breakdown by id; any other id is not found. */
function serveBreakdowns(byId: Record<string, () => RiskBreakdown>) {
  return serve('breakdown', ({ params }) => {
    const answer = byId[String(params.id)];
    return answer ? answer() : HttpResponse.json(apiErrorFixture(), { status: 404 });
  });
}

describe('WorkedExample', () => {
  it('takes the first source apart charge by charge and follows the picker', async () => {
    serve('settings');
    serve('sources', SOURCES);
    const breakdowns = serveBreakdowns({
      2: () => breakdown(2),
      8: () =>
        breakdown(8, { yield30d: 0.49, riskAdjustedYield30d: -6.27, risk: 6.76, great: false }),
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
    expect(
      breakdowns.calls.some((call) => call.url.pathname === '/api/strategies/8/breakdown'),
    ).toBe(true);
  });

  it('shows N/A for a source without enough data', async () => {
    serve('settings');
    serve('sources', SOURCES);
    serve('breakdown', breakdown(2, { status: 'insufficient_data' }));
    renderPage(<WorkedExample />);
    expect(await screen.findByText(/fewer than 20 days of data/)).toHaveTextContent('(N/A)');
  });

  it('offers a retry when the breakdown cannot be loaded', async () => {
    let fail = true;
    serve('settings');
    serve('sources', SOURCES);
    serve('breakdown', () =>
      fail
        ? HttpResponse.json(apiErrorFixture('internal_error', 'down'), { status: 500 })
        : breakdown(2),
    );
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
