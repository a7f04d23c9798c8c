import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ComparisonTable } from './ComparisonTable.tsx';
import { buildRows } from './model.ts';
import { renderInApp } from '../../test/test-utils.tsx';
import {
  baseRates,
  baseRow,
  metricsOf,
  RESOLV_INCIDENT,
  sourceRow,
} from '../../test/test-fixtures.ts';

const rowsSources = [
  sourceRow({ id: 7, name: 'Fluid (InstaDapp) - GHO Lending', rating: 4 }),
  baseRow('stablecoin'),
];

const rows = buildRows(
  'stablecoin',
  [
    sourceRow({
      id: 3,
      name: 'Liquity v1 - Stability Pool',
      rating: 4,
      token: 'LUSD',
      yieldToken: 'LUSD',
      detailSlug: 'liquity',
    }),
    sourceRow({
      id: 2,
      name: 'Sky Spark - Savings Account',
      rating: 5,
      token: 'USDS',
      yieldToken: 'sUSDS',
      detailSlug: 'sky-spark',
    }),
    sourceRow({
      id: 8,
      name: 'Resolv - USR Staking',
      rating: 1,
      incidents: [RESOLV_INCIDENT],
    }),
    baseRow('stablecoin'),
  ],
  [
    metricsOf(3, 4.5, 2.75, 65_957_743),
    metricsOf(2, 3.9, 3.69, 4_987_454_211),
    metricsOf(8, 0.49, -6.27, 76_044_512),
  ],
  baseRates({ baserateStable: 4.9, baserateRiskAdjustedStable: 3.99 }),
);

function bodyNames() {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
}

function renderTable(props: Partial<Parameters<typeof ComparisonTable>[0]> = {}) {
  return renderInApp(
    <ComparisonTable
      title="Stablecoins Yield"
      headingLevel={2}
      rows={rows}
      greatKeys={new Set(['source-2'])}
      showPro={false}
      shortNames={false}
      noteKind="sample"
      testId="stablecoins-table"
      {...props}
    />,
  );
}

describe('ComparisonTable', () => {
  it('sorts by Overall Rating descending, flips on the active header, starts others ascending, base row last', async () => {
    const user = userEvent.setup();
    renderTable();
    expect(bodyNames()).toEqual([
      'Sky Spark - Savings Account',
      'Liquity v1 - Stability Pool',
      'Resolv - USR Staking⚠ Incident',
      'DeFi Base RateBenchmark',
    ]);
    await user.click(screen.getByRole('columnheader', { name: /Overall Rating/ }));
    expect(bodyNames()[0]).toBe('Resolv - USR Staking⚠ Incident');
    expect(bodyNames().at(-1)).toBe('DeFi Base RateBenchmark');
    await user.click(screen.getByRole('columnheader', { name: /Overall Rating/ }));
    expect(bodyNames()[0]).toBe('Sky Spark - Savings Account');

    await user.click(screen.getByRole('columnheader', { name: /TVL/ }));
    expect(screen.getByRole('columnheader', { name: /TVL/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(bodyNames()).toEqual([
      'Liquity v1 - Stability Pool',
      'Resolv - USR Staking⚠ Incident',
      'Sky Spark - Savings Account',
      'DeFi Base RateBenchmark',
    ]);
  });

  it('sorts from the keyboard: each header is a button, Enter flips it, aria-sort follows', async () => {
    const user = userEvent.setup();
    renderTable();
    const rating = screen.getByRole('columnheader', { name: /Overall Rating/ });
    expect(rating).toHaveAttribute('aria-sort', 'descending');
    within(rating).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(rating).toHaveAttribute('aria-sort', 'ascending');
    expect(bodyNames()[0]).toBe('Resolv - USR Staking⚠ Incident');

    await user.tab();
    await user.tab();
    const tvl = screen.getByRole('columnheader', { name: /TVL/ });
    expect(within(tvl).getByRole('button')).toHaveFocus();
    await user.keyboard(' ');
    expect(tvl).toHaveAttribute('aria-sort', 'ascending');
    expect(rating).not.toHaveAttribute('aria-sort');
    expect(bodyNames().at(-1)).toBe('DeFi Base RateBenchmark');
  });

  it('shows the standard columns, formats, GREAT tag and the incident explanation', () => {
    renderTable();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Overall Rating', 'Risk-adjusted 30d APR', 'TVL']);
    expect(screen.getByText('$4.99B')).toBeInTheDocument();
    expect(screen.getByText('$66.0M')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /3\.69%: explain/ })).toBeInTheDocument();
    expect(screen.getByText('GREAT')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
    expect(screen.getByText(/Unbacked USR was minted\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Read the incident report/ })).toHaveAttribute(
      'target',
      '_blank',
    );
  });

  it('adds the Pro columns, with a differing yield token in red', () => {
    renderTable({ showPro: true });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Name',
      'Token',
      'Yield Token',
      'Overall Rating',
      '30d APR',
      'Risk-adjusted 30d APR',
      'TVL',
      'Safety',
      'Liquidity',
      'Exit',
    ]);
    // The fixtures' sources exit instantly; the note is the cell's title.
    expect(screen.getAllByText('Instant')[0]).toHaveAttribute('title', 'Withdraw at any time.');
    expect(screen.getByText('sUSDS').closest('span')).toHaveClass(/differentToken/);
    expect(screen.getAllByText('LUSD', { selector: 'td' })).toHaveLength(2);
    expect(screen.getAllByRole('img', { name: /Safety 3 out of 5/ }).length).toBeGreaterThan(0);
  });

  it('shortens names under 600 px', () => {
    renderTable({ shortNames: true });
    expect(screen.getByRole('link', { name: 'Liquity v1' })).toBeInTheDocument();
    expect(screen.queryByText('Liquity v1 - Stability Pool')).not.toBeInTheDocument();
  });

  it('navigates on a row click and on the name link', async () => {
    const user = userEvent.setup();
    const { router } = renderTable();
    expect(screen.getByRole('link', { name: 'Resolv - USR Staking' })).toHaveAttribute(
      'href',
      '/premium/8',
    );
    await user.click(screen.getByText('$66.0M'));
    expect(router.state.location.pathname).toBe('/options/liquity');
  });

  it('marks a stale source with its date, keeps its figures, and tags rows of another kind of data', () => {
    const live = {
      kind: 'defillama' as const,
      asOf: '2026-11-20',
      stale: true,
      pool: '66985a81-9c51-46ca-9977-42b4fe7bc6df',
      importedAt: '2026-11-23T08:00:00.000Z',
      series: 'ethena-susde',
    };
    const mixed = buildRows(
      'stablecoin',
      [sourceRow({ id: 5, name: 'Ethena - sUSDe', provenance: live }), ...rowsSources],
      [metricsOf(5, 9.5, 6.25, 3.5e9, { status: 'stale', great: true, provenance: live })],
      baseRates({ baserateStable: 4.9, baserateRiskAdjustedStable: 3.99 }),
    );
    renderTable({ rows: mixed, noteKind: 'defillama', greatKeys: new Set() });
    expect(screen.getByText('Stale', { selector: 'span' })).toHaveAttribute(
      'title',
      'Stale: no new data since Nov 20, 2026',
    );
    expect(screen.getByRole('button', { name: /6\.25%: explain/ })).toBeInTheDocument();
    expect(screen.getByText('$3.50B')).toBeInTheDocument();
    expect(screen.getByTestId('stale-note')).toHaveTextContent(
      'Stale. Ethena - sUSDe: no new data since Nov 20, 2026. Its figures are those of that day, and it is never marked GREAT while it is stale.',
    );
    // The other rows are still sample data: tagged, since the page speaks for DeFiLlama data.
    expect(screen.getAllByTestId('row-data-tag').map((t) => t.textContent)).toEqual([
      'Sample data',
      'Sample data',
    ]);
  });

  it('tags nothing while every row is of the kind the page note names', () => {
    renderTable();
    expect(screen.queryByTestId('row-data-tag')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stale-note')).not.toBeInTheDocument();
  });

  it('after an import, lists a source without live data last, tagged No live data, without figures; the base rate names its components', () => {
    const live = {
      kind: 'defillama' as const,
      asOf: '2026-11-23',
      stale: false,
      pool: '66985a81-9c51-46ca-9977-42b4fe7bc6df',
      importedAt: '2026-11-23T08:00:00.000Z',
    };
    const none = { kind: 'none' as const, asOf: null, stale: false };
    const imported = buildRows(
      'stablecoin',
      [
        sourceRow({ id: 3, name: 'Liquity v1 - Stability Pool', rating: 5, provenance: none }),
        sourceRow({ id: 5, name: 'Ethena - sUSDe', rating: 2, provenance: live }),
        baseRow('stablecoin', { provenance: live }),
      ],
      [
        metricsOf(3, 0, 0, 0, { status: 'insufficient_data', asOf: null, provenance: none }),
        metricsOf(5, 9.5, 6.25, 3.5e9, { provenance: live }),
      ],
      baseRates({
        baserateStable: 4.9,
        baserateRiskAdjustedStable: 3.99,
        provenance: {
          stablecoin: {
            ...live,
            components: [
              { ...live, series: 'aave-v3-usdc' },
              { ...none, series: 'spark-dai' },
            ],
          },
          defi: live,
        },
      }),
    );
    renderTable({ rows: imported, noteKind: 'defillama', greatKeys: new Set() });
    // Rated higher, but not ranked: after the live row, before the benchmark.
    expect(bodyNames()).toEqual([
      'Ethena - sUSDe',
      'Liquity v1 - Stability PoolNo live data',
      'DeFi Base RateBenchmark',
    ]);
    const liquity = screen.getByRole('row', { name: /Liquity/ });
    expect(within(liquity).getByTestId('row-data-tag')).toHaveTextContent('No live data');
    // A dash in each figure cell (risk-adjusted APR, TVL), no N/A and no breakdown to open.
    expect(within(liquity).getAllByLabelText('No live data')).toHaveLength(2);
    expect(liquity).not.toHaveTextContent('N/A');
    expect(within(liquity).queryByRole('button', { name: /explain/ })).not.toBeInTheDocument();
    expect(liquity).not.toHaveTextContent(/\d\.\d\d%|\$/);
    expect(screen.queryByText('Sample data')).not.toBeInTheDocument();
    expect(screen.getByTestId('base-components-note')).toHaveTextContent(
      'DeFi Base Rate: the mean of aave-v3-usdc. Left out, without live data: spark-dai.',
    );
  });
});
