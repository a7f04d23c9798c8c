import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PremiumEmailPage, { ACTIVATION_REDIRECT_MS } from './PremiumEmailPage.tsx';
import { premiumSessionFixture } from '@yield/fixtures';
import { serve } from '@yield/fixtures/msw';
import { bootSession, premiumToken, renderRoute } from '../test/harness.tsx';
import { toast } from '@yield/ui';

vi.mock('@yield/ui', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

describe('PremiumEmailPage', () => {
  it('redirects to /pricing without an invite code in navigation state', async () => {
    bootSession(null);
    serve('settings');
    renderRoute({ path: '/premium-email', element: <PremiumEmailPage />, at: '/premium-email' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
    expect(screen.queryByRole('heading', { name: 'Almost There!' })).toBeNull();
  });

  it('activates, stores the new token, toasts success and goes home 1.5 s later', async () => {
    bootSession(premiumToken());
    const activated = premiumToken({ email: 'saver@example.com' });
    serve('settings');
    serve('premiumLogin', premiumSessionFixture({ token: activated }));
    renderRoute({
      path: '/premium-email',
      element: <PremiumEmailPage />,
      at: { pathname: '/premium-email', state: { inviteCode: 'YIELD-GOOD-CODE' } },
    });

    expect(screen.getByRole('heading', { level: 1, name: 'Almost There!' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email address'), 'saver@example.com');
    const clickedAt = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Activate Premium Account' }));

    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Success!',
        'Your premium account has been activated. Welcome!',
      ),
    );
    expect(localStorage.getItem('premiumToken')).toBe(activated);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/), {
      timeout: 3000,
    });
    // The redirect timer starts after the click, so at least the full delay has passed.
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(ACTIVATION_REDIRECT_MS);
  });
});
