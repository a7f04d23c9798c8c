import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InviteCodeForm } from './InviteCodeForm.tsx';
import { deferredFetch, jsonResponse, renderWithProviders } from '../../test/harness.tsx';
import { toast, warmUpToasts } from '@yield/ui';

vi.mock('@yield/ui', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

afterEach(() => {
  vi.unstubAllGlobals();
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
    const { fetchMock, release } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { onLoggedIn, input } = setup();

    await user.type(input, 'yield-abcd-2345');
    // antd for the toasts starts loading as soon as the saver works on the form.
    expect(warmUpToasts).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Log In to Premium' }));

    const busy = await screen.findByRole('button', { name: 'Logging in...' });
    expect(busy).toBeDisabled();
    expect(input).toHaveAttribute('readonly');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/premium');
    expect(JSON.parse(String(init.body))).toEqual({ inviteCode: 'yield-abcd-2345' });

    const user1 = { userId: 'u1', email: null, accessLevel: 'premium' };
    release(jsonResponse(200, { success: true, token: 'a.b.c', user: user1 }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledTimes(1));
    expect(onLoggedIn.mock.calls[0]![0]).toEqual({ success: true, token: 'a.b.c', user: user1 });
    expect(onLoggedIn.mock.calls[0]![1]).toBe('yield-abcd-2345');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('does not submit twice while a login is in flight', async () => {
    const user = userEvent.setup();
    const { fetchMock } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { input } = setup();
    await user.type(input, 'CODE-123456{Enter}');
    await screen.findByRole('button', { name: 'Logging in...' });
    await user.type(input, '{Enter}');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'a wrong code (401)',
      () =>
        Promise.resolve(
          jsonResponse(401, {
            success: false,
            error: { code: 'invalid_invite_code', message: 'The invite code is invalid' },
          }),
        ),
    ],
    [
      'a rate limit (429)',
      () =>
        Promise.resolve(
          jsonResponse(429, {
            success: false,
            error: { code: 'rate_limited', message: 'Too many attempts' },
          }),
        ),
    ],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['success without a token', () => Promise.resolve(jsonResponse(200, { success: true }))],
  ])(
    "shows the 'Error' / 'The code is invalid' toast on %s and returns to idle",
    async (_label, answer) => {
      const user = userEvent.setup();
      vi.stubGlobal('fetch', vi.fn(answer));
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
