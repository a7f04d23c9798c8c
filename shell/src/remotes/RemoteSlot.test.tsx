import type { ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { adoptFirstPaint, forgetFirstPaint } from '@yield/platform';
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

  describe('with a first paint from the server', () => {
    afterEach(() => {
      forgetFirstPaint();
      document.body.innerHTML = '';
    });

    function arriveWith(module: string, markup: string) {
      const root = document.createElement('div');
      root.innerHTML = `<div data-first-paint="mfe_content/${module}">${markup}</div>`;
      adoptFirstPaint(root, new QueryClient());
    }

    it('keeps the server markup on screen, inert, until the module has loaded', async () => {
      arriveWith('MethodologyPage', '<h1 class="title">Understanding the Risks</h1>');
      let resolve!: (module: { default: () => ReactElement }) => void;
      load.mockReturnValue(new Promise((r) => (resolve = r)));
      const { container } = render(<RemoteSlot remote="mfe_content" module="MethodologyPage" />);
      const painted = container.querySelector('[data-first-paint="mfe_content/MethodologyPage"]')!;
      expect(painted.innerHTML).toBe('<h1 class="title">Understanding the Risks</h1>');
      expect(painted).toHaveAttribute('inert');
      expect(painted).toHaveAttribute('aria-hidden', 'true');
      expect(container.querySelector('.remote-loading')).toBeNull();

      resolve({ default: () => <h1>Understanding the Risks</h1> });
      expect(await screen.findByRole('heading', { name: 'Understanding the Risks' })).toBeVisible();
      expect(container.querySelector('[data-first-paint]')).toBeNull();
    });

    it('shows the spinner for other modules, and for every module once the page changed', () => {
      arriveWith('SecurityPage', '<h1>Security</h1>');
      load.mockReturnValue(new Promise(() => {}));
      const other = render(<RemoteSlot remote="mfe_content" module="B2bPage" />);
      expect(other.container.querySelector('.remote-loading')).not.toBeNull();
      other.unmount();
      forgetFirstPaint();
      const later = render(<RemoteSlot remote="mfe_content" module="SecurityPage" />);
      expect(later.container.querySelector('[data-first-paint]')).toBeNull();
      expect(later.container.querySelector('.remote-loading')).not.toBeNull();
    });
  });
});
