import { render, screen } from '@testing-library/react';
import { ExternalLink } from './ExternalLink.tsx';

describe('ExternalLink', () => {
  it('opens another site in a new tab without access to this window, and says so', () => {
    render(
      <ExternalLink href="https://defillama.com/yields/pool/abc" className="x" data-testid="feed">
        USDC on DeFiLlama
      </ExternalLink>,
    );
    const link = screen.getByRole('link', { name: /^USDC on DeFiLlama\s*\(opens in a new tab\)$/ });
    expect(link).toHaveAttribute('href', 'https://defillama.com/yields/pool/abc');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveClass('x');
    expect(link).toHaveAttribute('data-testid', 'feed');
    expect(link.querySelector('.visually-hidden')).toHaveTextContent('(opens in a new tab)');
    expect(link).not.toHaveTextContent('↗');
  });

  it('shows an arrow only when asked, hidden from screen readers', () => {
    render(
      <ExternalLink href="https://example.org" arrow>
        Deposit Now
      </ExternalLink>,
    );
    const link = screen.getByRole('link', { name: /^Deposit Now\s*\(opens in a new tab\)$/ });
    const arrow = link.querySelector('[aria-hidden="true"]');
    expect(arrow).toHaveTextContent('↗');
  });

  it('is no link until its address is known', () => {
    render(<ExternalLink href={undefined}>Buy</ExternalLink>);
    expect(screen.queryByRole('link')).toBeNull();
    const placeholder = screen.getByText('Buy');
    expect(placeholder).toHaveAttribute('aria-disabled', 'true');
    expect(placeholder).not.toHaveAttribute('href');
    expect(placeholder).not.toHaveAttribute('target');
  });
});
