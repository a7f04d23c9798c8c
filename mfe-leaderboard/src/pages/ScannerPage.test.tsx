import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { getDefaultStore } from 'jotai';
import type { ScannerAnswer } from '@yield/contract';
import { scannerFixture, scannerItemFixture } from '@yield/fixtures';
import { serve, type SeenRequest } from '@yield/fixtures/msw';
import { premiumTokenAtom } from '@yield/platform';
import ScannerPage from './ScannerPage.tsx';
import { baseRates } from '../test/test-fixtures.ts';

const item = scannerItemFixture;
const answer = scannerFixture;

/** The base rates, and the ranking as `scanner` answers each request. */
function serveApi(scanner: (url: URL) => ScannerAnswer) {
  serve('baseRates', baseRates({ baserateRiskAdjustedStable: 3.5, baserateRiskAdjustedDefi: 2 }));
  return serve('scanner', ({ url }) => scanner(url));
}

function renderScanner(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/scanner', element: <ScannerPage /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

let scanner: { calls: SeenRequest[] } = { calls: [] };
const serveRanking = (answer: (url: URL) => ScannerAnswer) => (scanner = serveApi(answer));
const scannerCalls = () =>
  scanner.calls.map(({ url, headers }) => ({ url, auth: headers.get('Authorization') }));
/** A request's query as an object (the order of the parameters does not matter). */
const queryOf = (url: URL) => Object.fromEntries(url.searchParams);

afterEach(() => {
  act(() => getDefaultStore().set(premiumTokenAtom, null));
});

describe('the scanner page', () => {
  it('reads its filters from the URL, shows the teaser with the call to action and the sample label', async () => {
    serveRanking(() => answer({}));
    renderScanner('/scanner?asset=USDC&chain=Ethereum&sort=apy');
    expect(await screen.findAllByTestId('scanner-row')).toHaveLength(10);
    expect(queryOf(scannerCalls()[0]!.url)).toEqual({
      asset: 'USDC',
      chain: 'Ethereum',
      sort: 'apy',
      offset: '0',
      limit: '100',
    });
    expect(scannerCalls()[0]!.auth).toBeNull();
    expect(screen.getByLabelText('Asset')).toHaveValue('USDC');
    expect(screen.getByLabelText('Chain')).toHaveValue('Ethereum');
    expect(screen.getByLabelText('Sort by')).toHaveValue('apy');
    const note = screen.getByTestId('scanner-data-note');
    expect(note).toHaveTextContent(
      'Sample data as of Nov 21, 2026: realistic examples, not live market figures.',
    );
    // It arrives with the list, under the form: the form painted before it never moves.
    const form = screen.getByRole('search', { name: 'Filter pools' });
    expect(form.compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const cta = screen.getByTestId('scanner-cta');
    expect(within(cta).getByRole('heading')).toHaveTextContent('See all 240 pools with Premium');
    expect(within(cta).getByRole('link', { name: 'Get Premium' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    expect(screen.queryByRole('button', { name: /Download CSV/ })).toBeNull();
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '241');
  });

  it('puts a changed filter into the URL (a new history entry) and asks the API again', async () => {
    const user = userEvent.setup();
    serveRanking(() => answer({}));
    const router = renderScanner('/scanner?asset=USDC');
    await screen.findAllByTestId('scanner-row');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'tvl');
    expect(router.state.location.search).toBe('?asset=USDC&sort=tvl');
    await user.selectOptions(screen.getByLabelText('Kind'), 'true');
    expect(router.state.location.search).toBe('?asset=USDC&stablecoin=true&sort=tvl');
    await user.clear(screen.getByLabelText('Chain'));
    await user.type(screen.getByLabelText('Chain'), 'Base{Enter}');
    expect(router.state.location.search).toBe('?asset=USDC&chain=Base&stablecoin=true&sort=tvl');
    await vi.waitFor(() =>
      expect(queryOf(scannerCalls().at(-1)!.url)).toEqual({
        asset: 'USDC',
        chain: 'Base',
        stablecoin: 'true',
        sort: 'tvl',
        offset: '0',
        limit: '100',
      }),
    );
    // Back: the previous filters, in the form too.
    await act(() => router.navigate(-1));
    expect(screen.getByLabelText('Chain')).toHaveValue('');
    expect(screen.getByLabelText('Kind')).toHaveValue('true');
  });

  it('opens a pool\u2019s charge breakdown from the keyboard, with the base rate of its kind', async () => {
    const user = userEvent.setup();
    serveRanking(() =>
      answer({ items: [item(1), item(2, { stablecoin: false, symbol: 'WETH' })] }),
    );
    renderScanner('/scanner');
    const rows = await screen.findAllByTestId('scanner-row');
    // vs base: 5.8 − 1.3 − 0.01 − 3.5 (stablecoin) and 5.8 − 1.3 − 0.02 − 2 (crypto).
    expect(rows[0]).toHaveTextContent('+0.99 pp');
    expect(rows[1]).toHaveTextContent('+2.48 pp');
    const button = within(rows[1]!).getByRole('button', { name: 'Charges of WETH on aave-v3' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByTestId('charge-breakdown');
    expect(button).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveTextContent('Expected APR over the next 30 days5.80%');
    expect(panel).toHaveTextContent('Reward token price charge−0.30 pp');
    expect(panel).toHaveTextContent(
      'Safety charge (safety 4 of 5, our dated project tier)−0.75 pp',
    );
    expect(panel).toHaveTextContent('Risk-adjusted crypto DeFi Base Rate2.00%');
    // The method's figures are APRs, and the page says so (the API's field is riskAdjustedApr).
    expect(panel).toHaveTextContent('Risk-adjusted APR4.48%');
    expect(screen.getByRole('columnheader', { name: 'Risk-adjusted APR' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Risk-adjusted APR' })).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/risk-adjusted APY/i);
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('charge-breakdown')).toBeNull();
  });

  it('with a premium token: sends it, shows every pool page by page, no call to action, a CSV button', async () => {
    const payload = btoa(
      JSON.stringify({ accessLevel: 'premium', exp: Math.floor(Date.now() / 1000) + 3600 }),
    );
    act(() => getDefaultStore().set(premiumTokenAtom, `x.${payload}.y`));
    serveRanking((url) => {
      const offset = Number(url.searchParams.get('offset'));
      return answer({
        teaser: false,
        total: 12,
        offset,
        limit: 100,
        items: Array.from({ length: 12 }, (_, i) => item(i + 1)),
      });
    });
    renderScanner('/scanner');
    expect(await screen.findAllByTestId('scanner-row')).toHaveLength(12);
    expect(scannerCalls()[0]!.auth).toBe(`Bearer x.${payload}.y`);
    expect(screen.queryByTestId('scanner-cta')).toBeNull();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeVisible();
  });
});
