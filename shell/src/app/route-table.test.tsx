import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { buildRouteTable, type PageRoute, type RouteTable } from '@yield/federation/pages';
import { loadRemoteModule } from '../remotes/registry.ts';
import { buildRoutes } from './router.tsx';
import { HttpResponse, serve } from '@yield/fixtures/msw';

vi.mock('../remotes/registry.ts', () => ({
  // Each module renders its own name, so a test sees which modules a path rendered.
  loadRemoteModule: vi.fn(async (remote: string, module: string) => ({
    default: () => <h2>{`${remote}/${module}`}</h2>,
  })),
  fetchRemotesManifest: vi.fn(),
  retryNeedsReload: vi.fn(async () => false),
}));

const page = (remote: string, path: string, ...modules: string[]): PageRoute => ({
  path,
  title: path,
  remote,
  modules: modules.map((ref) => {
    const [owner, module] = ref.includes('/') ? ref.split('/') : [remote, ref];
    return { remote: owner!, module: module! };
  }),
  data: [],
});

/** A table as read from pages.json files, the less specific patterns first. */
const table = buildRouteTable([
  { remote: 'mfe_strategy', pages: [page('mfe_strategy', '/options/:id', 'StrategyDetailPage')] },
  {
    remote: 'mfe_leaderboard',
    pages: [
      page(
        'mfe_leaderboard',
        '/',
        'mfe_content/LandingHero',
        'ComparisonSection',
        'mfe_content/LandingSections',
      ),
      page('mfe_leaderboard', '/options/compare', 'ComparisonPage'),
    ],
  },
  {
    remote: 'mfe_content',
    pages: [
      page('mfe_content', '/guides/risks', 'RisksPage'),
      page('mfe_content', '/risks', 'RisksPage'),
    ],
  },
]);

function open(path: string, routes: RouteTable = table) {
  const router = createMemoryRouter(buildRoutes(routes), { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.mocked(loadRemoteModule).mockClear();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // Offline: the header's and footer's settings never arrive.
  serve('settings', () => HttpResponse.error());
});
afterEach(() => vi.restoreAllMocks());

describe('routes from the run-time route table', () => {
  it('renders the page a remote declares, inside the header and footer', async () => {
    open('/guides/risks');
    expect(await screen.findByRole('heading', { name: 'mfe_content/RisksPage' })).toBeVisible();
    expect(document.querySelector('header.site-header')).toHaveAttribute('data-variant', 'full');
    expect(document.querySelector('footer.site-footer')).toBeInTheDocument();
  });

  it("keeps the shell's header rule for any page: slim under /options/", async () => {
    open('/options/compare');
    expect(
      await screen.findByRole('heading', { name: 'mfe_leaderboard/ComparisonPage' }),
    ).toBeVisible();
    expect(document.querySelector('header.site-header')).toHaveAttribute('data-variant', 'slim');
    expect(document.querySelector('footer.site-footer')).toBeInTheDocument();
  });

  it('hides the footer where the rules say, whichever remote serves the page', async () => {
    open('/risks');
    await screen.findByRole('heading', { name: 'mfe_content/RisksPage' });
    expect(document.querySelector('footer.site-footer')).not.toBeInTheDocument();
  });

  it('ranks as react-router does: a static path beats a parameter declared before it', async () => {
    open('/options/compare');
    await screen.findByRole('heading', { name: 'mfe_leaderboard/ComparisonPage' });
    expect(loadRemoteModule).not.toHaveBeenCalledWith(
      'mfe_strategy',
      'StrategyDetailPage',
      expect.anything(),
    );
    open('/options/lido');
    expect(
      await screen.findByRole('heading', { name: 'mfe_strategy/StrategyDetailPage' }),
    ).toBeVisible();
  });

  it('composes a page of several modules, in order, from several remotes', async () => {
    open('/');
    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { name: 'mfe_content/LandingSections' });
    expect(
      within(main)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual([
      'mfe_content/LandingHero',
      'mfe_leaderboard/ComparisonSection',
      'mfe_content/LandingSections',
    ]);
  });

  it('shows the not-found page for a path no page matches, and logs it', async () => {
    open('/nope');
    expect(await screen.findByText('Oops! Page not found')).toBeVisible();
    expect(console.error).toHaveBeenCalledWith(
      '404 Error: User attempted to access non-existent route:',
      '/nope',
    );
  });

  it("contains an unknown path when a remote's page list is missing: Retry loads the page again", async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const incomplete = buildRouteTable([
      { remote: 'mfe_content', error: 'HTTP 503' },
      { remote: 'mfe_premium', pages: [page('mfe_premium', '/pricing', 'PricingPage')] },
    ]);
    open('/risks', incomplete);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This part of the page is unavailable',
    );
    expect(screen.queryByText('Oops! Page not found')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalled();
  });
});
