import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActivationForm } from './ActivationForm.tsx';
import { premiumErrorFixture, premiumSessionFixture } from '@yield/fixtures';
import { deferred, HttpResponse, serve } from '@yield/fixtures/msw';
import { renderWithProviders } from '../../test/harness.tsx';
import { toast } from '@yield/ui';

vi.mock('@yield/ui', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

afterEach(() => {
  vi.clearAllMocks();
});

function setup() {
  const onActivated = vi.fn();
  renderWithProviders(<ActivationForm inviteCode="YIELD-CODE-1" onActivated={onActivated} />);
  return { onActivated, input: screen.getByLabelText('Email address') };
}

describe('ActivationForm', () => {
  it('asks for a required email and says how the email is used', () => {
    const { input } = setup();
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toHaveAccessibleDescription(/premium updates and strategy reports/);
    expect(screen.getByRole('button', { name: 'Activate Premium Account' })).toBeEnabled();
  });

  it('leaves an invalid address to the browser check and sends nothing', async () => {
    const user = userEvent.setup();
    const login = serve('premiumLogin');
    const { input } = setup();
    await user.type(input, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Activate Premium Account' }));
    expect(input).toBeInvalid();
    expect(login.calls).toHaveLength(0);
  });

  it("reads 'Activating...' and is disabled while loading, then stays locked after success", async () => {
    const user = userEvent.setup();
    const answer = deferred<void>();
    const login = serve('premiumLogin', async () => {
      await answer.promise;
      return premiumSessionFixture({ token: 'x.y.z' });
    });
    const { onActivated, input } = setup();

    await user.type(input, '  saver@example.com ');
    await user.click(screen.getByRole('button', { name: 'Activate Premium Account' }));

    expect(await screen.findByRole('button', { name: 'Activating...' })).toBeDisabled();
    await waitFor(() => expect(login.calls).toHaveLength(1));
    expect(login.calls[0]?.url.pathname).toBe('/api/premiumLogin');
    expect(login.calls[0]?.body).toEqual({
      email: 'saver@example.com',
      inviteCode: 'YIELD-CODE-1',
    });

    answer.release();
    await waitFor(() => expect(onActivated).toHaveBeenCalledTimes(1));
    expect(onActivated.mock.calls[0]![0]).toMatchObject({ success: true, token: 'x.y.z' });
    expect(screen.getByRole('button', { name: 'Activate Premium Account' })).toBeDisabled();
  });

  it.each([
    [
      'a server refusal',
      () => HttpResponse.json(premiumErrorFixture('invalid_invite_code', 'x'), { status: 401 }),
    ],
    // Not an answer the contract allows: the form must still not take it for a session.
    ['success: false', () => HttpResponse.json({ success: false })],
    ['a network failure', () => HttpResponse.error()],
  ])('shows the activation failure toast on %s and returns to idle', async (_label, answer) => {
    const user = userEvent.setup();
    serve('premiumLogin', answer);
    const { onActivated, input } = setup();
    await user.type(input, 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Activate Premium Account' }));

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Error',
        'Failed to activate premium account. Please try again.',
      ),
    );
    expect(await screen.findByRole('button', { name: 'Activate Premium Account' })).toBeEnabled();
    expect(onActivated).not.toHaveBeenCalled();
  });
});
