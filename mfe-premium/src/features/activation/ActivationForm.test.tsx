import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActivationForm } from './ActivationForm.tsx';
import { deferredFetch, jsonResponse, renderWithProviders } from '../../test/harness.tsx';
import { toast } from '@yield/ui';

vi.mock('@yield/ui', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

afterEach(() => {
  vi.unstubAllGlobals();
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
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { input } = setup();
    await user.type(input, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Activate Premium Account' }));
    expect(input).toBeInvalid();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("reads 'Activating...' and is disabled while loading, then stays locked after success", async () => {
    const user = userEvent.setup();
    const { fetchMock, release } = deferredFetch();
    vi.stubGlobal('fetch', fetchMock);
    const { onActivated, input } = setup();

    await user.type(input, '  saver@example.com ');
    await user.click(screen.getByRole('button', { name: 'Activate Premium Account' }));

    expect(await screen.findByRole('button', { name: 'Activating...' })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/premiumLogin');
    expect(JSON.parse(String(init.body))).toEqual({
      email: 'saver@example.com',
      inviteCode: 'YIELD-CODE-1',
    });

    release(jsonResponse(200, { success: true, token: 'x.y.z' }));
    await waitFor(() => expect(onActivated).toHaveBeenCalledTimes(1));
    expect(onActivated.mock.calls[0]![0]).toMatchObject({ success: true, token: 'x.y.z' });
    expect(screen.getByRole('button', { name: 'Activate Premium Account' })).toBeDisabled();
  });

  it.each([
    [
      'a server refusal',
      () =>
        Promise.resolve(
          jsonResponse(401, {
            success: false,
            error: { code: 'invalid_invite_code', message: 'x' },
          }),
        ),
    ],
    ['success: false', () => Promise.resolve(jsonResponse(200, { success: false }))],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('shows the activation failure toast on %s and returns to idle', async (_label, answer) => {
    const user = userEvent.setup();
    vi.stubGlobal('fetch', vi.fn(answer));
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
