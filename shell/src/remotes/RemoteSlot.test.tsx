import type { ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { adoptFirstPaint, forgetFirstPaint } from '@yield/platform';
import userEvent from '@testing-library/user-event';
import { http, server } from '@yield/fixtures/msw';
import { loadRemoteModule, loadedEntry, RemoteLoadError } from './registry.ts';
import { RemoteSlot } from './RemoteSlot.tsx';

vi.mock('./registry.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./registry.ts')>()),
  loadRemoteModule: vi.fn(),
  fetchRemotesManifest: vi.fn(),
  retryNeedsReload: vi.fn(async () => false),
  loadedEntry: vi.fn(),
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

describe("a boundary's error reports", () => {
  // Each test its own module: the slots' loaded modules are kept for the whole file.
  const beacon = vi.fn((_url: string, _data?: BodyInit | null) => true);

  beforeEach(() => {
    beacon.mockClear();
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
  });
  afterEach(() => {
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  });

  /** The reports sent with the beacon: path, content type and JSON body of each. */
  async function beaconed() {
    return Promise.all(
      beacon.mock.calls.map(async ([url, data]) => ({
        url,
        type: (data as Blob).type,
        body: JSON.parse(await (data as Blob).text()) as unknown,
      })),
    );
  }

  it('reports a remote that could not be loaded, once, with its release', async () => {
    vi.mocked(loadedEntry).mockReturnValue('/remotes/mfe-content/0a1b2c3d4e5f/remoteEntry.js');
    load.mockRejectedValue(
      new RemoteLoadError('mfe_content', 'OfflineVaultPage', new Error('ChunkLoadError: 404')),
    );
    render(<RemoteSlot remote="mfe_content" module="OfflineVaultPage" />);
    await screen.findByRole('alert');
    expect(await beaconed()).toEqual([
      {
        url: '/api/remote-errors',
        type: 'application/json',
        body: {
          remote: 'mfe_content',
          release: '0a1b2c3d4e5f',
          module: 'OfflineVaultPage',
          kind: 'load',
          message: 'Could not load mfe_content/OfflineVaultPage: ChunkLoadError: 404',
        },
      },
    ]);
  });

  it('reports a module that throws while rendering; a remote served elsewhere has no release id, and the message is cut at 500 characters', async () => {
    vi.mocked(loadedEntry).mockReturnValue(
      'https://cdn.example.com/remotes/mfe-premium/0a1b2c3d4e5f/remoteEntry.js',
    );
    load.mockResolvedValue({
      default: () => {
        throw new Error(`render failure ${'x'.repeat(600)}`);
      },
    });
    render(<RemoteSlot remote="mfe_premium" module="BrokenPricingPage" />);
    await screen.findByRole('button', { name: 'Retry' });
    const reports = await beaconed();
    expect(reports).toHaveLength(1);
    expect(reports[0]!.body).toEqual({
      remote: 'mfe_premium',
      release: null,
      module: 'BrokenPricingPage',
      kind: 'render',
      message: `render failure ${'x'.repeat(600)}`.slice(0, 500),
    });
  });

  it('posts the report with a keepalive fetch where there is no beacon', async () => {
    delete (navigator as { sendBeacon?: unknown }).sendBeacon;
    vi.mocked(loadedEntry).mockReturnValue('/remotes/mfe-strategy/00000000beef/remoteEntry.js');
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/remote-errors', async ({ request }) => {
        bodies.push(await request.json());
        return new Response(null, { status: 204 });
      }),
    );
    load.mockRejectedValue(new RemoteLoadError('mfe_strategy', 'OfflineStrategyPage', 'down'));
    render(<RemoteSlot remote="mfe_strategy" module="OfflineStrategyPage" />);
    await screen.findByRole('alert');
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      remote: 'mfe_strategy',
      release: '00000000beef',
      module: 'OfflineStrategyPage',
      kind: 'load',
      message: 'Could not load mfe_strategy/OfflineStrategyPage',
    });
  });
});
