import { render, screen, within } from '@testing-library/react';
import type { Incident, Provenance } from '@yield/contract';
import { detectedWarningFixture } from '@yield/fixtures';
import {
  DetectedWarnings,
  dismissalNote,
  WarningBadge,
  warningBlocksGreat,
  WarningLines,
} from './DetectedWarnings.tsx';
import { IncidentBadge } from './IncidentBadge.tsx';
import { ProvenanceLine } from './ProvenanceLine.tsx';

const dismissed = detectedWarningFixture({
  kind: 'spike',
  openedOn: '2026-11-20',
  text: 'A spike.',
  dismissed: { on: '2026-11-21', note: 'A one-day reward.' },
});

describe('detected warnings', () => {
  it('badge: one for all open warnings, their sentences in its tooltip, said to be detected', () => {
    render(<WarningBadge warnings={[detectedWarningFixture(), dismissed]} className="amber" />);
    const badge = screen.getByTestId('warning-badge');
    expect(badge).toHaveTextContent('2 warnings, detected from data');
    expect(badge).toHaveClass('amber');
    expect(badge.getAttribute('title')).toBe(
      'Deposits leaving fast, detected from data since Nov 19, 2026: Deposits are leaving fast: the value locked fell 60% over 7 days.\n' +
        'APR spike, detected from data since Nov 20, 2026: A spike.',
    );
  });

  it('badge: nothing without warnings, "Warning" for one', () => {
    const { container, rerender } = render(<WarningBadge warnings={[]} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<WarningBadge warnings={[detectedWarningFixture()]} />);
    expect(screen.getByTestId('warning-badge')).toHaveTextContent(
      /^◆ Warning, detected from data$/,
    );
  });

  it('notices: only the open ones, labelled "Detected from data", a dismissal keeps its dated note', () => {
    render(
      <DetectedWarnings
        warnings={[
          detectedWarningFixture({ closedOn: '2026-11-01', openedOn: '2026-10-20' }),
          detectedWarningFixture(),
          dismissed,
        ]}
        classNames={{ list: 'list', notice: 'notice', label: 'label' }}
      />,
    );
    const notes = within(screen.getByTestId('detected-warnings')).getAllByRole('note');
    expect(notes).toHaveLength(2);
    expect(notes[0]).toHaveTextContent(
      'Deposits leaving fast Detected from data since Nov 19, 2026Deposits are leaving fast',
    );
    expect(notes[0]).toHaveClass('notice');
    expect(notes[0]).toHaveAttribute('data-warning', 'outflow');
    expect(within(notes[0]!).getByText('Detected from data')).toHaveClass('label');
    expect(notes[1]).toHaveTextContent('Dismissed by our team on Nov 21, 2026: A one-day reward.');
  });

  it('notices: nothing when every warning is closed', () => {
    const { container } = render(
      <DetectedWarnings warnings={[detectedWarningFixture({ closedOn: '2026-11-22' })]} />,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('lines: one per warning for a breakdown', () => {
    const { container } = render(
      <WarningLines warnings={[detectedWarningFixture()]} className="line" />,
    );
    expect(container.querySelector('p.line')).toHaveTextContent(
      'Deposits leaving fast (detected from data) since Nov 19, 2026: Deposits are leaving fast',
    );
  });

  it('an open, undismissed outflow blocks GREAT; a dismissed or spike one does not', () => {
    expect(warningBlocksGreat(detectedWarningFixture())).toBe(true);
    expect(warningBlocksGreat(detectedWarningFixture({ kind: 'spike' }))).toBe(false);
    expect(
      warningBlocksGreat({ ...detectedWarningFixture(), dismissed: dismissed.dismissed }),
    ).toBe(false);
    expect(dismissalNote(detectedWarningFixture())).toBeNull();
  });
});

describe('IncidentBadge', () => {
  const incident = {
    date: '2026-11-05',
    summary: 'Unbacked USR was minted.',
  } satisfies Pick<Incident, 'date' | 'summary'>;

  it('says "Incident", with the date and summary in its tooltip', () => {
    render(<IncidentBadge incident={incident} className="red" />);
    const badge = screen.getByTestId('incident-badge');
    expect(badge).toHaveTextContent('⚠ Incident');
    expect(badge).toHaveClass('red');
    expect(badge).toHaveAttribute('title', 'Incident on Nov 5, 2026: Unbacked USR was minted.');
  });

  it('is nothing without an incident', () => {
    const { container } = render(<IncidentBadge incident={undefined} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('ProvenanceLine', () => {
  const imported: Provenance = {
    kind: 'defillama',
    asOf: '2026-11-19',
    stale: true,
  } as Provenance;

  it('says where the figures come from and flags stale data with its date and the page note', () => {
    render(
      <ProvenanceLine
        provenance={imported}
        stale
        staleClassName="flag"
        staleNote="It is never marked GREAT while it is stale."
      />,
    );
    expect(screen.getByTestId('provenance-line')).toHaveTextContent(
      'Data: DeFiLlama, as of Nov 19, 2026. Stale: no new data since Nov 19, 2026. It is never marked GREAT while it is stale.',
    );
    expect(screen.getByTestId('stale-flag')).toHaveClass('flag');
  });

  it('without the stale flag when the row is not stale; compact joins with a dot', () => {
    const { rerender } = render(
      <ProvenanceLine provenance={{ ...imported, kind: 'sample', asOf: '2026-11-21' }} />,
    );
    expect(screen.getByTestId('provenance-line')).toHaveTextContent(
      /^Sample data as of Nov 21, 2026\.$/,
    );
    expect(screen.queryByTestId('stale-flag')).toBeNull();
    rerender(<ProvenanceLine provenance={imported} stale compact />);
    expect(screen.getByTestId('provenance-line')).toHaveTextContent(
      /^Data: DeFiLlama, as of Nov 19, 2026 · Stale: no new data since Nov 19, 2026$/,
    );
  });
});
