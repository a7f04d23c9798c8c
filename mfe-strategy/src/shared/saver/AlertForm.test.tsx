import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AlertForm } from './AlertForm.tsx';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const SOURCES = [
  { id: 13, isBaseRate: false, name: 'Lido - stETH' },
  { id: 2, isBaseRate: false, name: 'Sky Spark - Savings Account' },
];
const CHECK_INBOX =
  'Check your inbox: we sent you a link to confirm the alert. Nothing is sent until you confirm.';

/** fetch answering GET /api/sources and POST /api/alerts with `alert`. */
function stubApi(alert: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    const url = typeof input === 'string' ? input : (input as Request).url;
    if (url.startsWith('/api/sources'))
      return Promise.resolve(new Response(JSON.stringify(SOURCES), { status: 200 }));
    return Promise.resolve(alert);
  });
}

describe('AlertForm', () => {
  afterEach(() => vi.restoreAllMocks());

  it('posts {email, sourceId, kind} and says to check the inbox', async () => {
    const user = userEvent.setup();
    const fetchSpy = stubApi(
      new Response(JSON.stringify({ success: true, message: CHECK_INBOX }), { status: 202 }),
    );
    render(<AlertForm sourceId={13} />, { wrapper });
    expect(await screen.findByText(/when it happens to Lido - stETH/)).toBeInTheDocument();
    expect(
      screen.getByRole('radio', { name: 'Its risk-adjusted APR falls below the DeFi Base Rate' }),
    ).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Its data stops arriving' }));
    await user.type(screen.getByLabelText('Email address'), ' saver@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));

    expect(await screen.findByRole('status')).toHaveTextContent(CHECK_INBOX);
    const post = fetchSpy.mock.calls.find(([url]) => url === '/api/alerts')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({
      email: 'saver@example.com',
      sourceId: 13,
      kind: 'stale',
    });
  });

  it('explains a refused address and a failure', async () => {
    const user = userEvent.setup();
    stubApi(
      new Response(JSON.stringify({ error: { code: 'invalid_email', message: 'no' } }), {
        status: 400,
      }),
    );
    render(<AlertForm sourceId={13} />, { wrapper });
    await user.type(screen.getByLabelText('Email address'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid email address.');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('aria-invalid', 'true');

    vi.restoreAllMocks();
    stubApi(
      new Response(JSON.stringify({ error: { code: 'data_unavailable', message: 'down' } }), {
        status: 503,
      }),
    );
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The alert could not be set up just now. Please try again later.',
    );
  });
  it('on /compare, lets the saver pick which compared source the alert is about', async () => {
    const user = userEvent.setup();
    const fetchSpy = stubApi(
      new Response(JSON.stringify({ success: true, message: CHECK_INBOX }), { status: 202 }),
    );
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
    const post = fetchSpy.mock.calls.find(([url]) => url === '/api/alerts')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({
      email: 'saver@example.com',
      sourceId: 2,
      kind: 'below-base',
    });
  });

  it('offers the warnings detected from data as a kind of alert', async () => {
    const user = userEvent.setup();
    const fetchSpy = stubApi(
      new Response(JSON.stringify({ success: true, message: CHECK_INBOX }), { status: 202 }),
    );
    render(<AlertForm sourceId={13} />, { wrapper });
    await user.click(
      await screen.findByRole('radio', {
        name: 'A warning is detected from its data (deposits leaving, off its peg, APR spike, feeds disagree)',
      }),
    );
    await user.type(screen.getByLabelText('Email address'), 'saver@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me alerts' }));
    expect(await screen.findByRole('status')).toHaveTextContent(CHECK_INBOX);
    const post = fetchSpy.mock.calls.find(([url]) => url === '/api/alerts')!;
    expect(JSON.parse(String(post[1]!.body))).toMatchObject({ kind: 'warning' });
  });

  it('on a strategy page, has no source choice', async () => {
    stubApi(new Response('{}', { status: 202 }));
    render(<AlertForm sourceId={13} />, { wrapper });
    expect(await screen.findByText(/when it happens to Lido - stETH/)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Source' })).toBeNull();
  });
});
