/**
 * A tab open across a release: the router (its release check before each navigation, as
 * app/router.tsx builds it), the remote registry and the page slots are the real ones; the
 * federation runtime is replaced by one that records what is registered and gives each release's
 * module, and the site's files are served by MSW.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { PageRoute } from '@yield/federation/pages';
import { http, HttpResponse, requestsSeen, server } from '@yield/fixtures/msw';

vi.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: vi.fn(),
  loadRemote: vi.fn(),
}));

const A = 'aaaaaaaaaaaa';
const B = 'bbbbbbbbbbbb';
const entryOf = (dir: string, id: string) => `/remotes/${dir}/${id}/remoteEntry.js`;

const contentPages = [
  { path: '/risks', module: './RisksPage', title: 'Risks' },
  { path: '/learn', module: './LearnPage', title: 'Learn' },
];
const premiumPages = [{ path: '/pricing', module: './PricingPage', title: 'Pricing' }];
const shared = (react = '^19.3.1') => [
  { name: 'react', requiredVersion: react, version: '19.3.1' },
  { name: '@yield/platform', requiredVersion: '^1.1.0', version: '1.1.0' },
];

/** What `/remotes.json` answers now (a test changes it to release a remote). */
let manifest: Record<string, string>;

/** Serves one release's pages.json and mf-manifest.json. */
function serveRelease(dir: string, id: string, pages: unknown[], sharedList = shared()) {
  server.use(
    http.get(`*/remotes/${dir}/${id}/pages.json`, () => HttpResponse.json({ pages })),
    http.get(`*/remotes/${dir}/${id}/mf-manifest.json`, () =>
      HttpResponse.json({ shared: sharedList }),
    ),
  );
}

const table = (): PageRoute[] => [
  ...contentPages.map((page) => ({
    path: page.path,
    title: page.title,
    remote: 'mfe_content',
    modules: [{ remote: 'mfe_content', module: page.module.slice(2) }],
    data: [],
  })),
  {
    path: '/pricing',
    title: 'Pricing',
    remote: 'mfe_premium',
    modules: [{ remote: 'mfe_premium', module: 'PricingPage' }],
    data: [],
  },
];

const requestsTo = (pathname: string) =>
  requestsSeen().filter((request) => request.url.pathname === pathname).length;

/**
 * Opens the tab at `path` with fresh modules (a page load): the federation runtime's module of
 * each remote names the release whose entry was registered last.
 */
async function openTab(path: string) {
  vi.resetModules();
  const runtime = await import('@module-federation/enhanced/runtime');
  const entries = new Map<string, string>();
  vi.mocked(runtime.registerRemotes).mockImplementation((remotes) => {
    for (const remote of remotes) entries.set(remote.name, (remote as { entry: string }).entry);
  });
  vi.mocked(runtime.loadRemote).mockImplementation(async (id: string) => {
    const [remote, module] = id.split('/');
    const release = /\/([0-9a-f]{12})\//.exec(entries.get(remote!)!)![1];
    return { default: () => <h1>{`${module} of ${release}`}</h1> };
  });
  const { checkingReleases, FIRST_RENDER_CHECKED } = await import('../app/router.tsx');
  const { pageRoutes } = await import('../app/route-table.tsx');
  const assign = vi.fn();
  const routes = pageRoutes({ pages: table(), complete: true, problems: [] });
  const router = createMemoryRouter(checkingReleases(routes, { assign }), {
    initialEntries: [path],
    ...FIRST_RENDER_CHECKED,
  });
  render(<RouterProvider router={router} />);
  const navigate = (to: string) => act(() => router.navigate(to));
  return { runtime: vi.mocked(runtime), assign, navigate, router };
}

beforeEach(() => {
  sessionStorage.clear();
  manifest = {
    mfe_content: entryOf('mfe-content', A),
    mfe_premium: entryOf('mfe-premium', A),
  };
  server.use(http.get('*/remotes.json', () => HttpResponse.json(manifest)));
  serveRelease('mfe-content', A, contentPages);
  serveRelease('mfe-premium', A, premiumPages);
  vi.spyOn(console, 'error');
});
afterEach(() => vi.restoreAllMocks());

describe('a tab open across releases', () => {
  it('reads the remotes manifest again on each navigation, not before the first render', async () => {
    const { navigate, runtime } = await openTab('/risks');
    expect(await screen.findByRole('heading', { name: `RisksPage of ${A}` })).toBeVisible();
    expect(requestsTo('/remotes.json')).toBe(1); // the page load's own read
    await navigate('/learn');
    expect(await screen.findByRole('heading', { name: `LearnPage of ${A}` })).toBeVisible();
    expect(requestsTo('/remotes.json')).toBe(2);
    await navigate('/risks');
    expect(await screen.findByRole('heading', { name: `RisksPage of ${A}` })).toBeVisible();
    expect(requestsTo('/remotes.json')).toBe(3);
    // Nothing changed: the remote registered once, no release's files read.
    expect(runtime.registerRemotes).toHaveBeenCalledTimes(1);
    expect(requestsTo(`/remotes/mfe-content/${A}/mf-manifest.json`)).toBe(0);
  });

  it('switches a loaded remote to its new release in place when its pages and shared libraries are the same', async () => {
    const { navigate, runtime, assign } = await openTab('/risks');
    expect(await screen.findByRole('heading', { name: `RisksPage of ${A}` })).toBeVisible();
    // The chunks the old release's runtime has seen (Rspack's chunk list of the remote).
    const chunkList = 'rspackChunkmfe_content';
    (window as unknown as Record<string, unknown>)[chunkList] = [[[119], {}]];
    serveRelease('mfe-content', B, contentPages);
    manifest = { ...manifest, mfe_content: entryOf('mfe-content', B) };

    await navigate('/learn');
    expect(await screen.findByRole('heading', { name: `LearnPage of ${B}` })).toBeVisible();
    // The new release's runtime starts from an empty list, not from the old release's chunks.
    expect(window).not.toHaveProperty(chunkList);
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mfe_content', entry: entryOf('mfe-content', B) }],
      { force: true },
    );
    // The module the tab had loaded from the old release is loaded anew from the new one.
    await navigate('/risks');
    expect(await screen.findByRole('heading', { name: `RisksPage of ${B}` })).toBeVisible();
    expect(requestsTo(`/remotes/mfe-content/${A}/mf-manifest.json`)).toBe(1);
    expect(requestsTo(`/remotes/mfe-content/${B}/mf-manifest.json`)).toBe(1);
    expect(assign).not.toHaveBeenCalled();
    expect(console.error).not.toHaveBeenCalled();
  });

  it('uses the new entry of a remote the tab never loaded, without reading its shared libraries', async () => {
    const { navigate, runtime, assign } = await openTab('/risks');
    await screen.findByRole('heading', { name: `RisksPage of ${A}` });
    serveRelease('mfe-premium', B, premiumPages);
    manifest = { ...manifest, mfe_premium: entryOf('mfe-premium', B) };

    await navigate('/pricing');
    expect(await screen.findByRole('heading', { name: `PricingPage of ${B}` })).toBeVisible();
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'mfe_premium', entry: entryOf('mfe-premium', B) }],
      { force: false },
    );
    expect(requestsTo(`/remotes/mfe-premium/${B}/mf-manifest.json`)).toBe(0);
    expect(assign).not.toHaveBeenCalled();
  });

  it('reloads the page once, quietly, when the shared libraries changed, and never again for that release', async () => {
    serveRelease('mfe-content', B, contentPages, shared('^19.4.0'));
    const first = await openTab('/risks');
    await screen.findByRole('heading', { name: `RisksPage of ${A}` });
    manifest = { ...manifest, mfe_content: entryOf('mfe-content', B) };

    // Never settles: the page is being replaced.
    act(() => void first.router.navigate('/learn'));
    await vi.waitFor(() => expect(first.assign).toHaveBeenCalledTimes(1));
    expect(first.assign).toHaveBeenCalledWith('http://localhost/learn');
    // The old page stays until the browser replaces it.
    expect(first.router.state.navigation.state).toBe('loading');
    expect(screen.getByRole('heading', { name: `RisksPage of ${A}` })).toBeVisible();

    // The reloaded page still started from the old release (a machine not yet switched): the
    // same release is not reloaded for again; the tab switches in place.
    cleanup();
    manifest = { ...manifest, mfe_content: entryOf('mfe-content', A) };
    const second = await openTab('/risks');
    await screen.findByRole('heading', { name: `RisksPage of ${A}` });
    manifest = { ...manifest, mfe_content: entryOf('mfe-content', B) };
    await second.navigate('/learn');
    expect(await screen.findByRole('heading', { name: `LearnPage of ${B}` })).toBeVisible();
    expect(second.assign).not.toHaveBeenCalled();
  });

  it("reloads once when a remote's new release changed its page list, loaded or not", async () => {
    serveRelease('mfe-premium', B, [
      ...premiumPages,
      { path: '/plans', module: './PlansPage', title: 'Plans' },
    ]);
    const { router, assign } = await openTab('/risks');
    await screen.findByRole('heading', { name: `RisksPage of ${A}` });
    manifest = { ...manifest, mfe_premium: entryOf('mfe-premium', B) };
    act(() => void router.navigate('/learn'));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/learn'));
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
