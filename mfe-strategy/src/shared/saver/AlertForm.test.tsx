import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { alertSubscribeFixture, apiErrorFixture, sourceRowFixture } from '@yield/fixtures';
import { serve, type Answer, type ServeOptions } from '@yield/fixtures/msw';
import { AlertForm } from './AlertForm.tsx';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const SOURCES = [
  sourceRowFixture({ id: 13, name: 'Lido - stETH' }),
  sourceRowFixture({ id: 2, name: 'Sky Spark - Savings Account' }),
];
const CHECK_INBOX =
  'Check your inbox: we sent you a link to confirm the alert. Nothing is sent until you confirm.';

/** GET /api/sources, and POST /api/alerts answered with `alert` (its success by default). */
function serveApi(alert?: Answer<'alertSubscribe'>, options?: ServeOptions) {
  serve('sources', SOURCES);
  return serve('alertSubscribe', alert, options);
}

describe('AlertForm', () => {
  it('posts {email, sourceId, kind} and says to check the inbox', async () => {
    const user = userEvent.setup();
    const alerts = serveApi(alertSubscribeFixture({ message: CHECK_INBOX }));
    render(<AlertForm sourceId={13} />, { wrapper });
    expect(await screen.findByText(/when it happens to Lido - stETH/)).toBeInTheDocument();
    expect(
      screen.getByRole('radio', { name: 'Its risk-adjusted APR falls below the DeFi Base Rate' }),
    ).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Its data stops arriving' }));
    await user.type(screen.getByLabelText('Email address'), ' saver@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));

    expect(await screen.findByRole('status')).toHaveTextContent(CHECK_INBOX);
    const post = alerts.calls.find(({ url }) => url.pathname === '/api/alerts')!;
    expect(post.body).toEqual({
      email: 'saver@example.com',
      sourceId: 13,
      kind: 'stale',
    });
  });

  it('explains a refused address and a failure', async () => {
    const user = userEvent.setup();
    serveApi(apiErrorFixture('invalid_email', 'no'), { status: 400 });
    render(<AlertForm sourceId={13} />, { wrapper });
    await user.type(screen.getByLabelText('Email address'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid email address.');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('aria-invalid', 'true');

    serveApi(apiErrorFixture('data_unavailable', 'down'), { status: 503 });
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The alert could not be set up just now. Please try again later.',
    );
  });
  it('on /compare, lets the saver pick which compared source the alert is about', async () => {
    const user = userEvent.setup();
    const alerts = serveApi(alertSubscribeFixture({ message: CHECK_INBOX }));
    render(<AlertForm sourceId={13} choices={[13, 2]} />, { wrapper });
    const select = await screen.findByRole('combobox', { name: 'Source' });
    expect(
      await screen.findByRole('option', { name: 'Sky Spark - Savings Account' }),
    ).toBeInTheDocument();
    expect(select).toHaveValue('13');
    await user.selectOptions(select, '2');
    expect(screen.getByText(/when it happens to Sky Spark - Savings Account/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('status')).toHaveTextContent(CHECK_INBOX);
    const post = alerts.calls.find(({ url }) => url.pathname === '/api/alerts')!;
    expect(post.body).toEqual({
      email: 'saver@example.com',
      sourceId: 2,
      kind: 'below-base',
    });
  });

  it('offers the warnings detected from data as a kind of alert', async () => {
    const user = userEvent.setup();
    const alerts = serveApi(alertSubscribeFixture({ message: CHECK_INBOX }));
    render(<AlertForm sourceId={13} />, { wrapper });
    await user.click(
      await screen.findByRole('radio', {
        name: 'A warning is detected from its data (deposits leaving, off its peg, APR spike, feeds disagree)',
      }),
    );
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('status')).toHaveTextContent(CHECK_INBOX);
    const post = alerts.calls.find(({ url }) => url.pathname === '/api/alerts')!;
    expect(post.body).toMatchObject({ kind: 'warning' });
  });

  it('on a strategy page, has no source choice', async () => {
    serveApi();
    render(<AlertForm sourceId={13} />, { wrapper });
    expect(await screen.findByText(/when it happens to Lido - stETH/)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Source' })).toBeNull();
  });
});
