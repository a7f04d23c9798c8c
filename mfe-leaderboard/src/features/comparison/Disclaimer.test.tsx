import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Disclaimer, DISCLAIMER_STORAGE_KEY } from './Disclaimer.tsx';
import { renderInApp } from '../../test/test-utils.tsx';

describe('Disclaimer', () => {
  beforeEach(() => localStorage.clear());

  it('links to the terms and privacy policy, and stays closed once closed', async () => {
    const user = userEvent.setup();
    const first = renderInApp(<Disclaimer />);
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );

    await user.click(screen.getByRole('button', { name: 'Close disclaimer' }));
    expect(screen.queryByRole('complementary', { name: 'Disclaimer' })).not.toBeInTheDocument();
    expect(localStorage.getItem(DISCLAIMER_STORAGE_KEY)).toBe('false');
    first.unmount();

    renderInApp(<Disclaimer />);
    expect(screen.queryByRole('complementary', { name: 'Disclaimer' })).not.toBeInTheDocument();
  });
});
