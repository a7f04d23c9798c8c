import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SiteSettings } from '@yield/contract';

export const TEST_SETTINGS: SiteSettings = {
  siteTitle: 'Pigi',
  siteUrl: 'https://pigi.test',
  siteSlogan: 'Global Yield Leaderboard',
  siteHeader: 'Compare yields after risk',
  siteDescription: 'Yields ranked after risk.',
  siteContactEmail: 'help@pigi.test',
  socials: { x: 'https://x.test/pigi', telegram: 'https://t.test/pigi' },
  externalUrls: {
    premiumPurchaseForm: 'https://forms.test/buy',
    premiumRequestForm: 'https://forms.test/request',
    businessSignupForm: 'https://forms.test/business',
    apiDocs: 'https://docs.test',
  },
  warnings: {
    verified: '2026-11-23',
    outflow7d: 30,
    outflow30d: 50,
    depegStable: 1,
    depegLst: 2,
    spikeSigma: 4,
    closeAfterDays: 3,
  },
  data: { sample: true, asOf: '2026-11-21', stale: false },
};

export type FetchHandler = (url: string, init?: RequestInit) => Response | Promise<Response>;

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Unit tests stand in for the network with a handler; settings are always served. */
export function stubFetch(handler: FetchHandler = () => jsonResponse({})) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({ url, init });
    if (url === '/api/settings') return jsonResponse(TEST_SETTINGS);
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function renderPage(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={ui} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
