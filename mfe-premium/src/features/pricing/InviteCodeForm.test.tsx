import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InviteCodeForm } from './InviteCodeForm.tsx';
import { premiumErrorFixture, premiumSessionFixture } from '@yield/fixtures';
import { deferred, HttpResponse, serve } from '@yield/fixtures/msw';
import { renderWithProviders } from '../../test/harness.tsx';
import { toast, warmUpToasts } from '@yield/ui';

vi.mock('@yield/ui', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

afterEach(() => {
  vi.clearAllMocks();
});

function setup() {
  const onLoggedIn = vi.fn();
  renderWithProviders(<InviteCodeForm onLoggedIn={onLoggedIn} />);
  const input = screen.getByLabelText('Invite code');
  return { onLoggedIn, input };
}

describe('InviteCodeForm', () => {
  it('starts idle with a required code input and the Log In to Premium button', () => {
    const { input } = setup();
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('type', 'text');
    const button = screen.getByRole('button', { name: 'Log In to Premium' });
    expect(button).toBeEnabled();
  });

  it("reads 'Logging in...' and is disabled while submitting, then reports the session", async () => {
    const user = userEvent.setup();
    const user1 = { userId: 'u1', email: null, accessLevel: 'premium' as const };
    const answer = deferred<void>();
    const invite = serve('premiumInvite', async () => {
      await answer.promise;
      return premiumSessionFixture({ token: 'a.b.c', user: user1 });
    });
    const { onLoggedIn, input } = setup();

    await user.type(input, 'yield-abcd-2345');
    // antd for the toasts starts loading as soon as the saver works on the form.
    expect(warmUpToasts).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Log In to Premium' }));

    const busy = await screen.findByRole('button', { name: 'Logging in...' });
    expect(busy).toBeDisabled();
    expect(input).toHaveAttribute('readonly');
    await waitFor(() => expect(invite.calls).toHaveLength(1));
    expect(invite.calls[0]?.url.pathname).toBe('/api/premium');
    expect(invite.calls[0]?.body).toEqual({ inviteCode: 'yield-abcd-2345' });

    answer.release();
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
    expect(onLoggedIn.mock.calls[0]![0]).toEqual({ success: true, token: 'a.b.c', user: user1 });
    expect(onLoggedIn.mock.calls[0]![1]).toBe('yield-abcd-2345');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('does not submit twice while a login is in flight', async () => {
    const user = userEvent.setup();
    const never = deferred<void>();
    const invite = serve('premiumInvite', async () => {
      await never.promise;
      return premiumSessionFixture();
    });
    const { input } = setup();
    await user.type(input, 'CODE-123456{Enter}');
    await screen.findByRole('button', { name: 'Logging in...' });
    await waitFor(() => expect(invite.calls).toHaveLength(1));
    await user.type(input, '{Enter}');
    expect(invite.calls).toHaveLength(1);
  });

  it.each([
    [
      'a wrong code (401)',
      () =>
        HttpResponse.json(
          premiumErrorFixture('invalid_invite_code', 'The invite code is invalid'),
          { status: 401 },
        ),
    ],
    [
      'a rate limit (429)',
      () =>
        HttpResponse.json(premiumErrorFixture('rate_limited', 'Too many attempts'), {
          status: 429,
        }),
    ],
    ['a network failure', () => HttpResponse.error()],
    // Not an answer the contract allows: the form must still not take it for a session.
    ['success without a token', () => HttpResponse.json({ success: true })],
  ])(
    "shows the 'Error' / 'The code is invalid' toast on %s and returns to idle",
    async (_label, answer) => {
      const user = userEvent.setup();
      serve('premiumInvite', answer);
      const { onLoggedIn, input } = setup();

      await user.type(input, 'WRONG-CODE-1');
      await user.click(screen.getByRole('button', { name: 'Log In to Premium' }));

      await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', 'The code is invalid'));
      expect(toast.error).toHaveBeenCalledTimes(1);
      expect(toast.success).not.toHaveBeenCalled();
      const button = await screen.findByRole('button', { name: 'Log In to Premium' });
      expect(button).toBeEnabled();
      expect(input).not.toHaveAttribute('readonly');
      expect(onLoggedIn).not.toHaveBeenCalled();
    },
  );
});
