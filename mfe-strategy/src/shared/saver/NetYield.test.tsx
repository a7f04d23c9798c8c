import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { NET_YIELD_DEFAULT_DAYS } from '@yield/contract/constants';
import {
  earningsFixture,
  netCostFixture,
  netYieldFixture,
  sourceRowFixture,
  unknownCostFixture,
} from '@yield/fixtures';
import { serve } from '@yield/fixtures/msw';
import { EarningsCalculator } from './EarningsCalculator.tsx';
import { breakEvenText } from './NetYield.tsx';

const VAULT = sourceRowFixture({ id: 21, name: 'Fee Vault - USDC' });
const POOL = sourceRowFixture({ id: 22, name: 'Plain Pool - USDC' });

const UNREAD = 'The contract has no ERC-4626 previews.';

/** The API: the vault has known costs, the pool's entry and exit fees are unknown. */
function serveApi() {
  serve('sources', [VAULT, POOL]);
  serve('earnings', ({ url }) => earningsFixture({ id: Number(url.searchParams.get('id')) }));
  return serve('netYield', ({ url }) => {
    const id = Number(url.searchParams.get('id'));
    const amount = Number(url.searchParams.get('amount'));
    const days = Number(url.searchParams.get('days'));
    if (id === POOL.id) {
      return netYieldFixture({
        id,
        amount,
        days,
        costs: { entry: unknownCostFixture(UNREAD), exit: unknownCostFixture(UNREAD) },
        totalCost: null,
        netAmount: null,
        netApr: null,
        breakEvenDays: null,
      });
    }
    return netYieldFixture({
      id,
      amount,
      days,
      costs: { entry: netCostFixture(amount * 0.001), exit: netCostFixture(0) },
      netAmount: amount === 2500 ? 2612.34 : 512.46,
      netApr: amount === 2500 ? 4.49 : 2.49,
      breakEvenDays: amount === 2500 ? 20 : 90,
    });
  });
}

function renderCalculator(ids: number[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <EarningsCalculator ids={ids} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The value of one cost in a card (its <dd>). */
const costOf = (card: HTMLElement, kind: string) =>
  within(card).getByTestId(`cost-${kind}`).querySelector('dd');

const asked = (seen: ReturnType<typeof serveApi>) =>
  seen.calls.map(({ url }) => url.pathname + url.search);

describe('the calculator: what you keep after fees and gas', () => {
  it('shows for the amount typed the net amount, net APR beside gross, break-even and each cost', async () => {
    const seen = serveApi();
    renderCalculator([VAULT.id]);
    const first = await screen.findByTestId(`net-${VAULT.id}`);
    expect(within(first).getByTestId('net-amount')).toHaveTextContent('$512.46');
    expect(asked(seen)).toEqual([
      `/api/net-yield?id=21&amount=10000&days=${NET_YIELD_DEFAULT_DAYS}`,
    ]);

    const input = screen.getByTestId('earnings-amount');
    await userEvent.clear(input);
    await userEvent.type(input, '2500');
    // Cleared, the amount is invalid and the card goes; typed again, a new card comes.
    await waitFor(() =>
      expect(
        within(screen.getByTestId(`net-${VAULT.id}`)).getByTestId('net-amount'),
      ).toHaveTextContent('$2,612.34'),
    );
    const card = screen.getByTestId(`net-${VAULT.id}`);
    expect(asked(seen).at(-1)).toBe('/api/net-yield?id=21&amount=2500&days=365');
    expect(within(card).getByTestId('net-apr')).toHaveTextContent('4.49%');
    expect(within(card).getByTestId('gross-apr')).toHaveTextContent('5.00%');
    expect(within(card).getByTestId('break-even')).toHaveTextContent('Breaks even after 20 days');
    expect(within(card).getByTestId('net-base')).toHaveTextContent('$520.40');
    expect(costOf(card, 'entry')).toHaveTextContent('$2.50');
    expect(costOf(card, 'exit')).toHaveTextContent('$0.00');
    expect(costOf(card, 'gasIn')).toHaveTextContent('$6.00');
    expect(costOf(card, 'gasOut')).toHaveTextContent('$6.00');
    expect(screen.getByText(/Every cost is taken out at the deposit/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'How the net figure is worked out' })).toHaveAttribute(
      'href',
      '/methodology',
    );
  });

  it('asks again for the days held chosen', async () => {
    const seen = serveApi();
    renderCalculator([VAULT.id]);
    await screen.findByTestId(`net-${VAULT.id}`);
    await userEvent.selectOptions(screen.getByLabelText('Held for'), '90');
    await waitFor(() =>
      expect(screen.getByTestId(`net-${VAULT.id}`)).toHaveTextContent('after 90 days'),
    );
    expect(asked(seen).at(-1)).toBe('/api/net-yield?id=21&amount=10000&days=90');
  });

  it('shows an unknown cost as "Unknown" with its reason, never 0, and no net figure', async () => {
    serveApi();
    renderCalculator([POOL.id]);
    const card = await screen.findByTestId(`net-${POOL.id}`);
    expect(within(card).getByTestId('net-amount')).toHaveTextContent('Unknown');
    expect(within(card).getByTestId('break-even')).toHaveTextContent(
      'Break-even unknown: a cost is unknown',
    );
    for (const kind of ['entry', 'exit']) {
      expect(costOf(card, kind)).toHaveTextContent(`Unknown${UNREAD}`);
      expect(costOf(card, kind)).not.toHaveTextContent('$');
    }
    expect(within(card).getByTestId('net-apr')).toHaveTextContent('N/A');
  });

  it('explains each cost in a tip opened by keyboard focus or a tap, closed by Escape', async () => {
    serveApi();
    renderCalculator([VAULT.id]);
    const card = await screen.findByTestId(`net-${VAULT.id}`);
    const entry = within(card).getByRole('button', { name: 'About Entry fee' });
    expect(entry).toHaveAccessibleDescription(/previewDeposit\(amount\).*Read on Nov 21, 2026/);
    act(() => entry.focus());
    expect(screen.getByRole('tooltip')).toHaveTextContent("from the vault's own previews");
    fireEvent.keyDown(entry, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    const gas = within(card).getByRole('button', { name: 'About Gas in' });
    await userEvent.click(gas);
    expect(screen.getByRole('tooltip')).toHaveTextContent(
      "on Ethereum: its measured gas units × the gas price (eth_feeHistory) × the native token's price",
    );
  });
});

describe('breakEvenText', () => {
  it('says the day, never, at once, or unknown', () => {
    const known = { totalCost: 12, days: 365 };
    expect(breakEvenText({ ...known, breakEvenDays: 1 })).toBe('Breaks even after 1 day');
    expect(breakEvenText({ ...known, breakEvenDays: 400 })).toBe(
      'Breaks even after 400 days, longer than the 365 held',
    );
    expect(breakEvenText({ ...known, breakEvenDays: null })).toBe(
      'Never breaks even at this amount',
    );
    expect(breakEvenText({ totalCost: 0, days: 30, breakEvenDays: 0 })).toBe(
      'Breaks even at once: no costs',
    );
    expect(breakEvenText({ totalCost: null, days: 30, breakEvenDays: null })).toBe(
      'Break-even unknown: a cost is unknown',
    );
  });
});
