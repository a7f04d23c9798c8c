import { useMemo } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apiErrorFixture,
  netYieldRankingFixture,
  netYieldRankingItemFixture,
} from '@yield/fixtures';
import { requestsSeen, serve } from '@yield/fixtures/msw';
import { ComparisonTable } from '../ComparisonTable.tsx';
import { buildRows } from '../model.ts';
import { baseRates, baseRow, metricsOf, sourceRow } from '../../../test/test-fixtures.ts';
import { renderInApp } from '../../../test/test-utils.tsx';
import { NetYieldPanel } from './NetYieldPanel.tsx';
import { useNetRanking } from './use-net-ranking.ts';

const rows = buildRows(
  'stablecoin',
  [
    sourceRow({ id: 1, name: 'Alpha', rating: 5 }),
    sourceRow({ id: 2, name: 'Beta', rating: 4 }),
    sourceRow({ id: 3, name: 'Gamma', rating: 3 }),
    baseRow('stablecoin'),
  ],
  [metricsOf(1, 9, 8, 1e8), metricsOf(2, 5, 4, 1e8), metricsOf(3, 7, 6, 1e8)],
  baseRates({ baserateStable: 4, baserateRiskAdjustedStable: 3 }),
);

/** Gamma then Beta by net APR; Alpha's gas unknown: last. */
const ranking = (amount: number, days: number) =>
  netYieldRankingFixture({
    amount,
    days,
    items: [
      netYieldRankingItemFixture({ id: 3, netApr: 4.5, breakEvenDays: 12 }),
      netYieldRankingItemFixture({ id: 2, netApr: 2.25, breakEvenDays: 90 }),
      netYieldRankingItemFixture({
        id: 1,
        apr: 9,
        netApr: null,
        netAmount: null,
        totalCost: null,
        breakEvenDays: null,
        unknownCosts: ['gasIn'],
      }),
    ],
  });

/** The board's wiring of the net ranking (ComparisonBoard.tsx) around one table. */
function Harness({ showPro = true, narrow = false }: { showPro?: boolean; narrow?: boolean }) {
  const tables = useMemo(() => [{ rows }], []);
  const net = useNetRanking({ showPro, narrow, tables });
  return (
    <>
      {net.panel ? <NetYieldPanel {...net.panel} headingLevel={2} /> : null}
      <ComparisonTable
        title="Stablecoins Yield"
        headingLevel={2}
        rows={net.rows[0]!}
        net={net.column}
        netRankRequest={net.rankRequest}
        greatKeys={new Set()}
        showPro={showPro}
        shortNames={narrow}
        noteKind="sample"
        testId="stablecoins-table"
      />
    </>
  );
}

function bodyNames() {
  return within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      (within(row).getAllByRole('cell')[0]!.textContent ?? '').replace(/Benchmark$/, ''),
    );
}

const rankingRequests = () =>
  requestsSeen().filter((r) => r.url.pathname === '/api/net-yield/ranking');

describe('Net yield for your deposit', () => {
  it('ranks by net APR for a typed amount, as the API answers, and keeps it in the URL', async () => {
    const user = userEvent.setup();
    const seen = serve('netYieldRanking', ({ url }) =>
      ranking(Number(url.searchParams.get('amount')), Number(url.searchParams.get('days'))),
    );
    const { router } = renderInApp(<Harness />);
    expect(screen.queryByRole('columnheader', { name: /Net APR/ })).toBeNull();
    expect(bodyNames()[0]).toBe('Alpha'); // by rating
    await user.type(screen.getByLabelText('Amount deposited'), '500');
    await screen.findByRole('columnheader', { name: /Net APR/ });
    await waitFor(() => expect(bodyNames()).toEqual(['Gamma', 'Beta', 'Alpha', 'DeFi Base Rate']));
    expect(router.state.location.search).toBe('?net=500&days=365');
    expect(seen.calls.at(-1)?.url.search).toBe('?amount=500&days=365');
    const header = screen.getByRole('columnheader', { name: /Net APR/ });
    expect(header).toHaveAttribute('aria-sort', 'descending');
    const gamma = screen.getAllByRole('row')[1]!;
    expect(within(gamma).getByTestId('net-cell')).toHaveTextContent('4.50%Even on day 12');
    expect(screen.getByTestId('net-status')).toHaveTextContent(
      "Ranked by net APR: 500 in each source's unit, held 365 days",
    );
  });

  it('shows Unknown with the reason where a cost is unknown', async () => {
    serve('netYieldRanking', ranking(500, 365));
    renderInApp(<Harness />, { path: '/options?net=500&days=365' });
    const unknown = await screen.findByTestId('net-unknown');
    expect(unknown).toHaveTextContent(/^Unknown/);
    expect(unknown).toHaveAttribute(
      'title',
      expect.stringMatching(/^Unknown: the gas of the deposit cannot be read from the chain/),
    );
    expect(unknown.closest('tr')).toHaveAttribute('data-row-key', rows[0]!.key);
  });

  it('opened from a link, asks for its amount and days and ranks by them', async () => {
    const seen = serve('netYieldRanking', ranking(0.5, 30));
    renderInApp(<Harness />, { path: '/options?net=0.5&days=30' });
    await waitFor(() => expect(bodyNames()).toEqual(['Gamma', 'Beta', 'Alpha', 'DeFi Base Rate']));
    expect(seen.calls.map((c) => c.url.search)).toEqual(['?amount=0.5&days=30']);
    expect(screen.getByLabelText('Amount deposited')).toHaveValue('0.5');
    expect(screen.getByLabelText('Held for (days)')).toHaveValue('30');
  });

  it('changes the holding days in the URL and asks again', async () => {
    const user = userEvent.setup();
    const seen = serve('netYieldRanking', ({ url }) =>
      ranking(500, Number(url.searchParams.get('days'))),
    );
    const { router } = renderInApp(<Harness />, { path: '/options?net=500&days=365' });
    await screen.findByRole('columnheader', { name: /Net APR/ });
    const days = screen.getByLabelText('Held for (days)');
    await user.clear(days);
    await user.type(days, '90');
    await waitFor(() => expect(seen.calls.at(-1)?.url.search).toBe('?amount=500&days=90'));
    expect(router.state.location.search).toBe('?net=500&days=90');
  });

  it('asks nothing for an amount the API would refuse, and says why', async () => {
    const user = userEvent.setup();
    serve('netYieldRanking', ranking(500, 365));
    renderInApp(<Harness />);
    await user.type(screen.getByLabelText('Amount deposited'), 'abc');
    expect(screen.getByLabelText('Amount deposited')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/The amount must be a number above 0/)).toBeInTheDocument();
    expect(rankingRequests()).toEqual([]);
    expect(screen.queryByRole('columnheader', { name: /Net APR/ })).toBeNull();
  });

  it('says so when the ranking cannot be loaded (a refusal is not retried)', async () => {
    serve('netYieldRanking', apiErrorFixture('invalid_days', 'Too many days.'), { status: 400 });
    renderInApp(<Harness />, { path: '/options?net=500' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The net ranking could not be loaded just now.',
    );
  });

  it('is offered under 1024 px, where there is no Pro view, not in the wide Standard view', async () => {
    serve('netYieldRanking', ranking(500, 365));
    const { unmount } = renderInApp(<Harness showPro={false} narrow />, {
      path: '/options?net=500',
    });
    await screen.findByRole('columnheader', { name: /Net APR/ });
    expect(bodyNames()).toEqual(['Gamma', 'Beta', 'Alpha', 'DeFi Base Rate']);
    // On a phone the Net APR takes TVL's place, so the figure asked for is on screen.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name',
      'Rating',
      'Risk-adj. APR',
      'Net APR',
    ]);
    unmount();
    renderInApp(<Harness showPro={false} />, { path: '/options?net=500' });
    expect(screen.queryByTestId('net-panel')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: /Net APR/ })).toBeNull();
  });
});
