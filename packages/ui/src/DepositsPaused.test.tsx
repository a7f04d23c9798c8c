import { render, screen } from '@testing-library/react';
import { DepositsPausedNote } from './DepositsPaused.tsx';

describe('DepositsPausedNote', () => {
  it('says since when deposits are closed, why, and links the page that says so', () => {
    render(
      <DepositsPausedNote
        paused={{
          since: '2026-03-22',
          note: 'Staking is paused after the exploit.',
          link: 'https://example.org/postmortem',
          verified: '2026-11-23',
        }}
      />,
    );
    const note = screen.getByTestId('deposits-paused');
    expect(note).toHaveTextContent(
      'Deposits paused since Mar 22, 2026. Staking is paused after the exploit.',
    );
    expect(note).toHaveTextContent('(checked Nov 23, 2026)');
    const link = screen.getByRole('link', { name: /^Read why/ });
    expect(link).toHaveAttribute('href', 'https://example.org/postmortem');
    expect(link).toHaveAttribute('target', '_blank');
  });
});
