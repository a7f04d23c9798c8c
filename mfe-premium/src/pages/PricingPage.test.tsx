import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getDefaultStore } from 'jotai';
import { premiumTokenAtom } from '@yield/platform';
import PricingPage from './PricingPage.tsx';
import { premiumSessionFixture, settingsFixture } from '@yield/fixtures';
import { serve } from '@yield/fixtures/msw';
import { bootSession, premiumToken, renderRoute } from '../test/harness.tsx';

vi.mock('@yield/ui', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@yield/ui')>()),
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

/** Settings as the API serves them, with this test's premium forms. */
function serveSettings() {
  serve(
    'settings',
    settingsFixture({
      externalUrls: {
        premiumPurchaseForm: 'https://forms.example/purchase',
        premiumRequestForm: 'https://forms.example/request',
      },
    }),
  );
}

describe('PricingPage', () => {
  it('shows $299 per month and a Buy link opening the purchase form from settings in a new tab', async () => {
    bootSession(null);
    serveSettings();
    renderRoute({ path: '/pricing', element: <PricingPage />, at: '/pricing' });

    expect(screen.getByRole('heading', { level: 1, name: 'Premium Access' })).toBeInTheDocument();
    expect(screen.getByText('$299')).toBeInTheDocument();
    expect(screen.getByText('per month')).toBeInTheDocument();
    const buy = await screen.findByRole('link', { name: /^Buy/ });
    await waitFor(() => expect(buy).toHaveAttribute('href', 'https://forms.example/purchase'));
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByLabelText('Invite code')).toBeRequired();
  });

  it('stores token and user on a good code and goes to /premium-email with the code in navigation state', async () => {
    bootSession(null);
    const token = premiumToken();
    const user = { userId: 'user-1', email: null, accessLevel: 'premium' as const };
    serveSettings();
    serve('premiumInvite', premiumSessionFixture({ token, user }));
    renderRoute({ path: '/pricing', element: <PricingPage />, at: '/pricing' });

    await userEvent.type(screen.getByLabelText('Invite code'), 'YIELD-GOOD-CODE');
    await userEvent.click(screen.getByRole('button', { name: 'Log In to Premium' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/premium-email'));
    expect(JSON.parse(screen.getByTestId('location').dataset.state!)).toEqual({
      inviteCode: 'YIELD-GOOD-CODE',
    });
    expect(localStorage.getItem('premiumToken')).toBe(token);
    expect(JSON.parse(localStorage.getItem('premiumUser')!)).toEqual(user);
    expect(getDefaultStore().get(premiumTokenAtom)).toBe(token);
  });

  it('sends a premium visitor to /premium/strategy, clearing the pending session but keeping the token', async () => {
    const token = premiumToken();
    bootSession(token);
    localStorage.setItem(
      'premiumUser',
      JSON.stringify({ userId: 'user-1', email: null, accessLevel: 'premium' }),
    );
    serveSettings();
    renderRoute({ path: '/pricing', element: <PricingPage />, at: '/pricing' });

    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/premium/strategy'),
    );
    expect(localStorage.getItem('premiumUser')).toBeNull();
    expect(localStorage.getItem('premiumToken')).toBe(token);
  });

  it('explains why a visitor was sent here', () => {
    bootSession(null);
    serveSettings();
    renderRoute({
      path: '/pricing',
      element: <PricingPage />,
      at: { pathname: '/pricing', state: { notice: 'session-ended' } },
    });
    expect(screen.getByText(/Your premium session is no longer valid/)).toHaveAttribute(
      'role',
      'status',
    );
  });
});
