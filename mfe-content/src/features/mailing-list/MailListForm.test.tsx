import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MailListForm } from './MailListForm.tsx';
import { toast } from '@yield/ui';
import { apiErrorFixture } from '@yield/fixtures';
import { HttpResponse, serve } from '@yield/fixtures/msw';
import { renderPage } from '../../test/render.tsx';

// antd's rendering of a toast is covered end to end (e2e/tests/content.spec.ts); here we check
// which toast the form asks for.
vi.mock('@yield/ui', () => ({
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

function renderForm() {
  return renderPage(<MailListForm source="subscribe" buttonLabel="Subscribe" />);
}

afterEach(() => {
  vi.clearAllMocks();
});

describe('MailListForm', () => {
  it('posts the address with its source, shows the success toast and clears the field', async () => {
    serve('settings');
    const signup = serve('mailSignup');
    const user = userEvent.setup();
    renderForm();
    const input = screen.getByLabelText('Email address');
    await user.type(input, 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));

    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Success!',
        "You've been added to our mailing list. Please confirm from your inbox: open the link in the e-mail we just sent you.",
      ),
    );
    expect(toast.error).not.toHaveBeenCalled();
    expect(input).toHaveValue('');
    const [post] = signup.calls;
    expect(post?.method).toBe('POST');
    expect(post?.body).toEqual({
      email: 'saver@example.com',
      source: 'subscribe',
    });
  });

  it('shows the error toast on a server error and keeps the address', async () => {
    serve('settings');
    serve('mailSignup', apiErrorFixture('invalid_email', 'nope'), { status: 400 });
    const user = userEvent.setup();
    renderForm();
    const input = screen.getByLabelText('Email address');
    await user.type(input, 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Error',
        'Failed to add to mailing list. Please try again later.',
      ),
    );
    expect(toast.success).not.toHaveBeenCalled();
    expect(input).toHaveValue('saver@example.com');
  });

  it('shows the error toast when the network fails', async () => {
    serve('settings');
    serve('mailSignup', () => HttpResponse.error());
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Error',
        'Failed to add to mailing list. Please try again later.',
      ),
    );
  });

  it('uses the browser email check and a required field', () => {
    serve('settings');
    renderForm();
    const input = screen.getByLabelText('Email address');
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
  });
});
