import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CompareBar, selectionHint, toggleSelected, type CompareSelection } from './CompareBar.tsx';
import { ComparisonTable } from './ComparisonTable.tsx';
import { buildRows } from './model.ts';
import { renderInApp } from '../../test/test-utils.tsx';
import { baseRates, baseRow, metricsOf, sourceRow } from '../../test/test-fixtures.ts';

const rows = buildRows(
  'stablecoin',
  [
    sourceRow({ id: 3, name: 'Liquity v1 - Stability Pool', detailSlug: 'liquity' }),
    sourceRow({ id: 2, name: 'Sky Spark - Savings Account', detailSlug: 'sky-spark' }),
    sourceRow({ id: 8, name: 'Resolv - USR Staking' }),
    sourceRow({ id: 7, name: 'Fluid (InstaDapp) - GHO Lending' }),
    baseRow('stablecoin'),
  ],
  [
    metricsOf(3, 4.5, 2.75, 65_957_743),
    metricsOf(2, 3.9, 3.69, 4_987_454_211),
    metricsOf(8, 0.49, -6.27, 76_044_512),
    metricsOf(7, 5.1, 4.2, 120_000_000),
  ],
  baseRates({ baserateStable: 4.9, baserateRiskAdjustedStable: 3.99 }),
);

/** The table and its bar, sharing one selection as on the comparison. */
function Harness({ showPro = false }: { showPro?: boolean }) {
  const [ids, setIds] = useState<readonly number[]>([]);
  const selection: CompareSelection = { ids, toggle: (id) => setIds((s) => toggleSelected(s, id)) };
  return (
    <>
      <ComparisonTable
        title="Stablecoins Yield"
        headingLevel={2}
        rows={rows}
        greatKeys={new Set()}
        showPro={showPro}
        shortNames={false}
        noteKind="sample"
        testId="stablecoins-table"
        selection={selection}
      />
      <CompareBar
        selection={selection}
        names={ids.map((id) => rows.find((r) => r.id === id)!.name)}
        onClear={() => setIds([])}
      />
    </>
  );
}

const box = (name: string) => screen.getByRole('checkbox', { name: `Compare ${name}` });

describe('selecting rows to compare', () => {
  it('offers a box per source (none on the base rate), and Compare only from two', async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<Harness />);
    expect(screen.getAllByRole('checkbox')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Compare (0)' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Compare (0)' })).toHaveAccessibleDescription(
      'Tick 2 or 3 sources to compare them side by side.',
    );

    await user.click(box('Liquity v1 - Stability Pool'));
    // Ticking is not a row click: the page stays.
    expect(router.state.location.pathname).toBe('/options');
    expect(box('Liquity v1 - Stability Pool')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Compare (1)' })).toBeDisabled();
    expect(screen.getByTestId('compare-bar')).toHaveTextContent(
      '1 selected: tick one or two more to compare.',
    );

    // Keyboard: Tab to the next box, Space ticks it.
    box('Sky Spark - Savings Account').focus();
    await user.keyboard(' ');
    expect(box('Sky Spark - Savings Account')).toBeChecked();
    expect(router.state.location.pathname).toBe('/options');
    expect(screen.getByRole('link', { name: 'Compare (2)' })).toHaveAttribute(
      'href',
      '/compare?ids=3,2',
    );
  });

  it('stops at three: a fourth box is disabled until one is unticked', async () => {
    const user = userEvent.setup();
    renderInApp(<Harness showPro />);
    await user.click(box('Resolv - USR Staking'));
    await user.click(box('Liquity v1 - Stability Pool'));
    await user.click(box('Fluid (InstaDapp) - GHO Lending'));
    expect(screen.getByRole('link', { name: 'Compare (3)' })).toHaveAttribute(
      'href',
      '/compare?ids=8,3,7',
    );
    expect(box('Sky Spark - Savings Account')).toBeDisabled();
    expect(screen.getByTestId('compare-bar')).toHaveTextContent(
      '3 selected, the most that fit side by side.',
    );
    await user.click(box('Liquity v1 - Stability Pool'));
    expect(box('Sky Spark - Savings Account')).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Compare (2)' })).toHaveAttribute(
      'href',
      '/compare?ids=8,7',
    );
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryAllByRole('checkbox', { checked: true })).toHaveLength(0);
    expect(screen.getAllByRole('checkbox')).toHaveLength(4);
  });

  it('still opens the source page on a row click and on the name', async () => {
    const user = userEvent.setup();
    const { router } = renderInApp(<Harness />);
    await user.click(screen.getByText('$66.0M'));
    expect(router.state.location.pathname).toBe('/options/liquity');
  });
});

describe('toggleSelected and selectionHint', () => {
  it('keeps the order of ticking and never more than three', () => {
    expect(toggleSelected([], 3)).toEqual([3]);
    expect(toggleSelected([3, 2], 3)).toEqual([2]);
    expect(toggleSelected([3, 2, 13], 4)).toEqual([3, 2, 13]);
  });
  it('says what to do next', () => {
    expect(selectionHint(2)).toBe('2 selected: you can add one more.');
  });
});
