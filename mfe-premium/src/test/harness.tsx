import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryRouter,
  RouterProvider,
  useLocation,
  type InitialEntry,
} from 'react-router-dom';
import { getDefaultStore } from 'jotai';
import { initSession, premiumTokenAtom } from '@yield/platform';

/** A token of the right shape (three parts, decodable payload). The signature is not checked here. */
export function makeToken(payload: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.c2lnbmF0dXJl`;
}

export function premiumToken(overrides: Record<string, unknown> = {}): string {
  return makeToken({
    sub: 'user-1',
    userId: 'user-1',
    email: null,
    accessLevel: 'premium',
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...overrides,
  });
}

/** Starts a test with this token stored, the way the shell boots (initSession). */
export function bootSession(token: string | null): void {
  // Resetting the atom writes through to localStorage, so it goes first.
  getDefaultStore().set(premiumTokenAtom, null);
  localStorage.clear();
  if (token) localStorage.setItem('premiumToken', token);
  initSession();
}

/** Shows where the router went and with which state, for assertions on redirects. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </output>
  );
}

export interface RenderRouteOptions {
  path: string;
  element: ReactNode;
  at: InitialEntry;
}

/** Renders one page under a memory router, with a probe page for every other path. */
export function renderRoute({ path, element, at }: RenderRouteOptions) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      {
        path,
        element: (
          <>
            {element}
            <LocationProbe />
          </>
        ),
      },
      { path: '*', element: <LocationProbe /> },
    ],
    { initialEntries: [at] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** Forms alone, with the query client their mutations need. */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}
