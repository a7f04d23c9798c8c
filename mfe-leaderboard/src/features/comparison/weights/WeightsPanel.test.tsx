import { useMemo } from 'react';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ComparisonTable } from '../ComparisonTable.tsx';
import { renderInApp } from '../../../test/test-utils.tsx';
import { FLUID, GAUNTLET, SKY, weightedTestRows } from './test-rows.ts';
import { useWeightedRanking } from './use-weighted-ranking.ts';
import { WeightsPanel } from './WeightsPanel.tsx';

const rows = weightedTestRows();

/** The board's wiring of the weights (ComparisonBoard.tsx) around one table. */
function Harness({ showPro = true, narrow = false }: { showPro?: boolean; narrow?: boolean }) {
  const tables = useMemo(() => [{ title: 'Stablecoins Yield', rows }], []);
  const weighted = useWeightedRanking({ showPro, narrow, tables });
  return (
    <>
      {weighted.panel ? <WeightsPanel {...weighted.panel} /> : null}
      <ComparisonTable
        title="Stablecoins Yield"
        headingLevel={2}
        rows={weighted.rows[0]!}
        rankRequest={weighted.rankRequest}
        ownRanking={weighted.ownRanking}
        greatKeys={new Set()}
        showPro={showPro}
        shortNames={false}
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
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent ?? '')
    .filter((name) => !name.startsWith('DeFi Base Rate'))
    .map((name) => name.replace(/Compare.*$/, ''));
}

function raHeader() {
  return screen.getAllByRole('columnheader').find((h) => /risk-adjusted/i.test(h.textContent))!;
}

describe('Your weights panel', () => {
  it('offers a labelled slider per charge, read as a percentage of the published charge', async () => {
    const user = userEvent.setup();
    renderInApp(<Harness />);
    const toggle = screen.getByRole('button', { name: 'Your weights' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('slider')).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const sliders = screen.getAllByRole('slider');
    expect(sliders).toHaveLength(6);
    const volatility = screen.getByRole('slider', { name: /^Volatility/ });
    expect(volatility).toHaveAttribute('aria-valuetext', '100% of the published charge');
    expect(volatility).toHaveValue('100');
    expect(screen.getByText('Published ranking (method ra30-v1).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset to the published ranking' })).toBeDisabled();
  });

  it('is used with the keyboard: the table re-ranks at once, the URL carries it, readers hear it', async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<Harness />);
    expect(raHeader()).toHaveTextContent(/^Risk-adjusted 30d APR/);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Your weights' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.tab(); // the reset button, disabled, is skipped
    expect(screen.getByRole('slider', { name: /^Volatility/ })).toHaveFocus();
    await user.tab();
    const incentives = screen.getByRole('slider', { name: /^Incentive tokens/ });
    expect(incentives).toHaveFocus();

    await user.keyboard('{ArrowLeft}');
    expect(incentives).toHaveValue('95');
    expect(incentives).toHaveAttribute('aria-valuetext', '95% of the published charge');
    expect(router.state.location.search).toBe('?w-incentives=95');
    // Ranked by the saver's risk-adjusted APR, best first.
    expect(bodyNames()).toEqual([FLUID, GAUNTLET, SKY, 'Young Vault']);

    await user.keyboard('{Home}');
    expect(incentives).toHaveValue('0');
    expect(router.state.location.search).toBe('?w-incentives=0');
    expect(bodyNames()).toEqual([GAUNTLET, FLUID, SKY, 'Young Vault']);
    expect(raHeader()).toHaveTextContent(/^Your risk-adjusted 30d APR/);
    expect(screen.getByTestId('own-ranking-note')).toHaveTextContent(
      'Your own ranking, not the published method: the risk-adjusted APR below uses your weights.',
    );
    expect(screen.getByTestId('weights-live')).toHaveTextContent(
      `Re-ranked with your weights: Stablecoins Yield led by ${GAUNTLET} at 5.10%.`,
    );
    expect(screen.getByTestId('weights-live')).toHaveAttribute('aria-live', 'polite');

    await user.keyboard('{End}');
    expect(router.state.location.search).toBe('?w-incentives=200');
    await user.keyboard('{PageDown}');
    expect(incentives).toHaveValue('175');
    await user.keyboard('{ArrowUp}{ArrowRight}');
    expect(incentives).toHaveValue('185');
  });

  it('opens a shared link with its ranking, and resets to the published one in one click', async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<Harness />, { path: '/options?w-incentives=0&ids=1' });
    expect(screen.getByRole('button', { name: 'Your weights' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByRole('slider', { name: /^Incentive tokens/ })).toHaveValue('0');
    expect(bodyNames()).toEqual([GAUNTLET, FLUID, SKY, 'Young Vault']);
    expect(raHeader()).toHaveTextContent(/^Your risk-adjusted 30d APR/);
    expect(screen.getByTestId('weights-live')).toHaveTextContent('');

    await user.click(screen.getByRole('button', { name: 'Reset to the published ranking' }));
    expect(router.state.location.search).toBe('?ids=1');
    expect(bodyNames()).toEqual([FLUID, GAUNTLET, SKY, 'Young Vault']);
    expect(raHeader()).toHaveTextContent(/^Risk-adjusted 30d APR/);
    expect(screen.queryByTestId('own-ranking-note')).toBeNull();
    expect(screen.getByTestId('weights-live')).toHaveTextContent(
      `Published ranking restored: Stablecoins Yield led by ${FLUID} at 5.00%.`,
    );
  });

  it('is not in the Standard view; under 1024 px only on a link with weights', async () => {
    const standard = renderInApp(<Harness showPro={false} />, { path: '/options?w-incentives=0' });
    expect(screen.queryByTestId('weights-panel')).toBeNull();
    // The Standard view shows the published figures, whatever the URL says.
    expect(raHeader()).toHaveTextContent(/^Risk-adjusted 30d APR/);
    standard.unmount();
    const narrow = renderInApp(<Harness showPro={false} narrow />);
    expect(screen.queryByTestId('weights-panel')).toBeNull();
    narrow.unmount();
    renderInApp(<Harness showPro={false} narrow />, { path: '/options?w-incentives=0' });
    expect(screen.getByTestId('weights-panel')).toBeInTheDocument();
    expect(bodyNames()[0]).toBe(GAUNTLET);
    await act(async () => {});
  });
});
