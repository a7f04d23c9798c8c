/**
 * A page the browser hydrates: the shell's server frame with a module's markup in its slot, then
 * the browser's tree (as bootstrap.tsx builds it) hydrating it. React's recoverable errors
 * (a mismatch between the two renders) and any console.error fail the test.
 */
import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import type { RouteTable } from '@yield/federation/pages';
import {
  adoptFirstPaint,
  createQueryClient,
  firstPaintKey,
  type FirstPaintContext,
  initSession,
  useBrowserValue,
} from '@yield/platform';
import { buildRoutes, checkingReleases, FIRST_RENDER_CHECKED } from '../app/router.tsx';
import { renderFrame } from '../server.tsx';
import { HydrationBox } from './hydration.tsx';
import { loadRemoteModule } from './registry.ts';

vi.mock('./registry.ts', () => ({
  loadRemoteModule: vi.fn(),
  fetchRemotesManifest: vi.fn(),
  retryNeedsReload: vi.fn(async () => false),
}));
const load = vi.mocked(loadRemoteModule);

const settings = {
  siteTitle: 'Pigi',
  siteUrl: 'https://pigi.example',
  siteSlogan: 'Global Yield Leaderboard',
  siteHeader: 'Compare crypto yields',
  siteDescription: 'Every yield source ranked.',
  siteContactEmail: 'support@pigi.example',
  socials: { x: 'https://x.example/pigi', telegram: 'https://t.example/pigi' },
  externalUrls: {
    premiumPurchaseForm: 'https://forms.example/a',
    premiumRequestForm: 'https://forms.example/b',
    businessSignupForm: 'https://forms.example/c',
    apiDocs: '/api/docs',
  },
  data: { sample: false, asOf: '2026-11-21', stale: false },
} as unknown as FirstPaintContext['settings'];

const ref = { remote: 'mfe_strategy', module: 'StrategyDetailPage' };
const key = firstPaintKey(ref.remote, ref.module);
const table: RouteTable = {
  pages: [
    { path: '/options/:id', title: 'Strategy', remote: ref.remote, modules: [ref], data: [] },
  ],
  complete: true,
  problems: [],
};

/** Stands in for the strategy page: a stored range (browser-only state) and a button. */
function StrategyModule() {
  const range = useBrowserValue(() => localStorage.getItem('lidoTimeRange') ?? '30D', '30D');
  return (
    <main>
      <h1>Lido Finance</h1>
      <button type="button" aria-pressed="true">
        {range}
      </button>
    </main>
  );
}

/** A token the browser keeps: three parts, premium, valid for an hour. */
function premiumToken(): string {
  const payload = btoa(
    JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, accessLevel: 'premium' }),
  ).replace(/=+$/, '');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.c2ln`;
}

let container: HTMLElement;
let root: Root | null = null;
let recoverable: unknown[];
let consoleErrors: unknown[][];

beforeAll(() => {
  // React's act() in this environment (testing-library is not used here).
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

beforeEach(() => {
  localStorage.clear();
  recoverable = [];
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args) => void consoleErrors.push(args));
  load.mockReset();
  container = document.createElement('div');
  container.id = 'root';
  document.body.append(container);
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container.remove();
});

/** What the site server sends inside `<div id="root">` for /options/lido. */
function serverPage(hydrate: string[]): string {
  const moduleHtml = renderToString(<StrategyModule />);
  return renderFrame(
    { path: '/options/lido', pattern: '/options/:id', settings },
    { [key]: moduleHtml },
    { modules: [ref] },
    hydrate,
  );
}

/** The browser's side, as bootstrap.tsx does it for a page marked for hydration. */
async function hydrate(html: string) {
  container.innerHTML = html;
  let resolveModule!: (value: { default: typeof StrategyModule }) => void;
  load.mockReturnValue(new Promise((resolve) => (resolveModule = resolve)));
  initSession();
  const queryClient = createQueryClient();
  adoptFirstPaint(container, queryClient);
  queryClient.setQueryData(['settings'], settings);
  const router = createMemoryRouter(checkingReleases(buildRoutes(table)), {
    initialEntries: ['/options/lido'],
    ...FIRST_RENDER_CHECKED,
  });
  const painted = container.querySelector('h1');
  await act(async () => {
    root = hydrateRoot(
      container,
      <QueryClientProvider client={queryClient}>
        <HydrationBox slot={key}>
          <RouterProvider router={router} />
        </HydrationBox>
      </QueryClientProvider>,
      { onRecoverableError: (error) => void recoverable.push(error) },
    );
  });
  return { painted, loadModule: () => act(async () => resolveModule({ default: StrategyModule })) };
}

describe('a hydrated page', () => {
  it("adopts the server's frame and module markup: same nodes, no recoverable error", async () => {
    const { painted, loadModule } = await hydrate(serverPage([key]));
    // The module's code is still loading: its server markup stays, the page still marked.
    expect(container.querySelector('h1')).toBe(painted);
    expect(container.querySelector('[data-hydrating]')).not.toBeNull();
    await loadModule();
    expect(recoverable).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(container.querySelector('h1')).toBe(painted);
    expect(container.querySelector('[data-hydrating]')).toBeNull();
    expect(container.querySelector('[data-first-paint]')).toBeNull();
    expect(container.querySelector('[inert]')).toBeNull();
  });

  it('applies the stored range and the premium header right after hydration', async () => {
    localStorage.setItem('lidoTimeRange', '7D');
    localStorage.setItem('premiumToken', premiumToken());
    const { painted, loadModule } = await hydrate(serverPage([key]));
    await loadModule();
    expect(recoverable).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(container.querySelector('h1')).toBe(painted);
    expect(container.querySelector('main button')).toHaveTextContent('7D');
    expect(container.querySelector('.site-nav')).toHaveTextContent('Log Out');
  });

  it('reports a mismatch: the server markup of a page rendered over (an inert copy) does not hydrate', async () => {
    const { loadModule } = await hydrate(serverPage([]));
    await loadModule();
    expect(recoverable.length + consoleErrors.length).toBeGreaterThan(0);
  });
});
