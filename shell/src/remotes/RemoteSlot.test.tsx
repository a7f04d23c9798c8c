import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemoteModule } from './registry.ts';
import { RemoteSlot } from './RemoteSlot.tsx';

vi.mock('./registry.ts', () => ({
  loadRemoteModule: vi.fn(),
  fetchRemotesManifest: vi.fn(),
  retryNeedsReload: vi.fn(async () => false),
}));
const load = vi.mocked(loadRemoteModule);

beforeEach(() => {
  load.mockReset();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('RemoteSlot', () => {
  it('renders the exposed module once loaded', async () => {
    load.mockResolvedValue({ default: () => <h1>Remote page</h1> });
    render(<RemoteSlot remote="mfe_content" module="RisksPage" />);
    expect(await screen.findByRole('heading', { name: 'Remote page' })).toBeInTheDocument();
  });

  it('contains a remote that cannot be loaded and retries it on demand', async () => {
    load.mockRejectedValueOnce(new Error('remote down'));
    render(<RemoteSlot remote="mfe_content" module="VaultPage" />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This part of the page is unavailable',
    );

    load.mockResolvedValueOnce({ default: () => <h1>Back again</h1> });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Back again' })).toBeInTheDocument();
    expect(load).toHaveBeenLastCalledWith('mfe_content', 'VaultPage', { retry: true });
  });

  it('contains a remote page that throws while rendering', async () => {
    load.mockResolvedValue({
      default: () => {
        throw new Error('render failure');
      },
    });
    render(
      <>
        <p>Shell content</p>
        <RemoteSlot remote="mfe_premium" module="PricingPage" />
      </>,
    );
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByText('Shell content')).toBeInTheDocument();
  });
});
