import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Newsletter } from './Newsletter.tsx';
import { apiErrorFixture, mailSignupFixture } from '@yield/fixtures';
import { serve } from '@yield/fixtures/msw';
import { renderInApp } from '../../test/test-utils.tsx';

describe('Newsletter', () => {
  it('posts {email, source: newsletter}, opens the confirmation and clears the field', async () => {
    const user = userEvent.setup();
    const signup = serve('mailSignup', mailSignupFixture({ message: 'Check your inbox' }));
    renderInApp(<Newsletter headingLevel={2} />);
    const input = screen.getByLabelText('Email address');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('type', 'email');
    await user.type(input, 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));

    expect(await screen.findByText('Successfully Subscribed!')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Please confirm from your inbox: open the link in the e-mail we just sent you.',
      ),
    ).toBeInTheDocument();
    const [post] = signup.calls;
    expect(post?.url.pathname).toBe('/api/addToMailList');
    expect(post?.body).toEqual({
      email: 'saver@example.com',
      source: 'newsletter',
    });
    expect(input).toHaveValue('');
    // Closing with 'Got it!' is proven in the e2e spec: antd's close animation never ends in jsdom.
    expect(screen.getByRole('button', { name: 'Got it!' })).toBeInTheDocument();
  });

  it('shows the error toast when the server fails', async () => {
    const user = userEvent.setup();
    serve('mailSignup', apiErrorFixture('data_unavailable', 'down'), { status: 503 });
    renderInApp(<Newsletter headingLevel={2} />);
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(
      await screen.findByText('Failed to add to mailing list. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveValue('saver@example.com');
  });
});
