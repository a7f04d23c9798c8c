import { screen, within } from '@testing-library/react';
import { detectedWarningFixture } from '@yield/fixtures';
import { ComparisonTable } from './ComparisonTable.tsx';
import { buildRows, chartPoints } from './model.ts';
import { renderInApp } from '../../test/test-utils.tsx';
import {
  baseRates,
  baseRow,
  metricsOf,
  RESOLV_INCIDENT,
  sourceRow,
} from '../../test/test-fixtures.ts';

const rows = buildRows(
  'stablecoin',
  [
    sourceRow({
      id: 2,
      name: 'Sky Spark - Savings Account',
      detailSlug: 'sky-spark',
      warnings: [
        detectedWarningFixture({
          kind: 'spike',
          openedOn: '2026-10-01',
          closedOn: '2026-10-05',
          text: 'Old.',
        }),
        detectedWarningFixture(),
        detectedWarningFixture({
          kind: 'depeg',
          openedOn: '2026-11-22',
          figures: { price: 0.97, deviationPct: -3 },
          text: 'The token traded at $0.97, 3% below its $1 peg.',
        }),
      ],
    }),
    sourceRow({
      id: 8,
      name: 'Resolv - USR Staking',
      incidents: [RESOLV_INCIDENT],
      warnings: [
        detectedWarningFixture({
          kind: 'spike',
          openedOn: '2026-11-20',
          text: 'A spike.',
          dismissed: { on: '2026-11-21', note: 'A one-day reward.' },
        }),
      ],
    }),
    baseRow('stablecoin'),
  ],
  [metricsOf(2, 3.9, 3.69, 4e8), metricsOf(8, 0.49, -6.27, 76e6)],
  baseRates({ baserateStable: 4.9, baserateRiskAdjustedStable: 3.99 }),
);

function renderTable(showPro: boolean, shown = rows) {
  return renderInApp(
    <ComparisonTable
      title="Stablecoins Yield"
      headingLevel={2}
      rows={shown}
      greatKeys={new Set()}
      showPro={showPro}
      shortNames={false}
      noteKind="sample"
      testId="stablecoins-table"
    />,
  );
}

describe.each([
  ['the simple view', false],
  ['the Pro view', true],
])('warnings detected from data in %s', (_view, showPro) => {
  it('badge beside the name and one note per open warning, labelled as detected, apart from incidents', () => {
    renderTable(showPro);
    const sky = screen.getByRole('row', { name: /Sky Spark/ });
    const badge = within(sky).getByTestId('warning-badge');
    expect(badge).toHaveTextContent('2 warnings, detected from data');
    expect(badge.getAttribute('title')).toBe(
      'Deposits leaving fast, detected from data since Nov 19, 2026: Deposits are leaving fast: the value locked fell 60% over 7 days.\n' +
        'Off its peg, detected from data since Nov 22, 2026: The token traded at $0.97, 3% below its $1 peg.',
    );
    const resolv = screen.getByRole('row', { name: /Resolv/ });
    expect(within(resolv).getByText('Incident')).toBeInTheDocument();
    expect(within(resolv).getByTestId('warning-badge')).toHaveTextContent('Warning');

    const notes = within(
      screen.getByRole('list', { name: 'Warnings detected from data in Stablecoins Yield' }),
    ).getAllByRole('listitem');
    expect(notes.map((n) => n.textContent)).toEqual([
      '◆ Sky Spark - Savings Account: Deposits leaving fast since Nov 19, 2026. Detected from data Deposits are leaving fast: the value locked fell 60% over 7 days. It is never marked GREAT while this warning is open. See the figures of Sky Spark - Savings Account',
      '◆ Sky Spark - Savings Account: Off its peg since Nov 22, 2026. Detected from data The token traded at $0.97, 3% below its $1 peg. It is never marked GREAT while this warning is open. See the figures of Sky Spark - Savings Account',
      '◆ Resolv - USR Staking: APR spike since Nov 20, 2026. Detected from data A spike. Dismissed by our team on Nov 21, 2026: A one-day reward. See the figures of Resolv - USR Staking',
    ]);
    expect(within(notes[0]!).getByRole('link')).toHaveAttribute('href', '/options/sky-spark');
    // The incident keeps its own list.
    expect(
      within(screen.getByRole('list', { name: 'Incidents in Stablecoins Yield' })).getAllByRole(
        'listitem',
      ),
    ).toHaveLength(1);
  });
});

it('shows nothing when no warning is open', () => {
  renderTable(
    false,
    rows.filter((r) => r.id !== 2 && r.id !== 8),
  );
  expect(screen.queryByTestId('warning-badge')).toBeNull();
  expect(screen.queryByRole('list', { name: /Warnings detected from data/ })).toBeNull();
});

it('marks the chart point of a source with an open, undismissed warning', () => {
  const points = chartPoints(rows);
  expect(points.find((p) => p.id === 2)).toMatchObject({ hasWarning: true });
  // Resolv's only warning was dismissed: its point is the incident's.
  expect(points.find((p) => p.id === 8)).toMatchObject({ hasWarning: false, hasIncident: true });
});

it('shows the two feeds disagreeing with both figures, and that it keeps the source from GREAT', () => {
  const text =
    "The two feeds disagree: the share price read from the chain gives a 7-day APR of 4.8%, DeFiLlama's feed 9.6%; the share price is used.";
  const shown = buildRows(
    'stablecoin',
    [
      sourceRow({
        id: 2,
        name: 'Sky Spark - Savings Account',
        detailSlug: 'sky-spark',
        warnings: [
          detectedWarningFixture({
            kind: 'feeds-disagree',
            openedOn: '2026-11-23',
            figures: { onchainApr7d: 4.8, defillamaApr7d: 9.6, gapPp: 4.8 },
            text,
          }),
        ],
      }),
      baseRow('stablecoin'),
    ],
    [metricsOf(2, 3.9, 3.69, 4e8)],
    baseRates({ baserateStable: 4.9, baserateRiskAdjustedStable: 3.99 }),
  );
  renderTable(false, shown);
  const notes = within(
    screen.getByRole('list', { name: 'Warnings detected from data in Stablecoins Yield' }),
  ).getAllByRole('listitem');
  expect(notes.map((n) => n.textContent)).toEqual([
    `◆ Sky Spark - Savings Account: Feeds disagree since Nov 23, 2026. Detected from data ${text} It is never marked GREAT while this warning is open. See the figures of Sky Spark - Savings Account`,
  ]);
  expect(chartPoints(shown).find((p) => p.id === 2)).toMatchObject({ hasWarning: true });
});
