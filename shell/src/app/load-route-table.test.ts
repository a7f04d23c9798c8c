import { http, HttpResponse, requestsSeen, server, type JsonBodyType } from '@yield/fixtures/msw';
import { fetchRemotesManifest } from '../remotes/registry.ts';

vi.mock('../remotes/registry.ts', () => ({ fetchRemotesManifest: vi.fn() }));

const manifest = {
  mfe_content: '/remotes/mfe-content/remoteEntry.js',
  mfe_premium: 'https://premium.example.com/v3/remoteEntry.js',
};

/** Serves the remotes' page lists (not part of /api): these answers, and 404 for any other file. */
function servePageLists(lists: Record<string, JsonBodyType>) {
  server.use(
    ...Object.entries(lists).map(([url, body]) => http.get(url, () => HttpResponse.json(body))),
    http.get('*/pages.json', () => HttpResponse.json({}, { status: 404 })),
  );
}

/** Fresh modules per test: the lists are read once per page load. */
async function loadRouteTable() {
  vi.resetModules();
  return (await import('../app/route-table.tsx')).loadRouteTable();
}

beforeEach(() => {
  vi.mocked(fetchRemotesManifest).mockResolvedValue(manifest);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('loadRouteTable', () => {
  it("reads every remote's pages.json beside its remoteEntry.js, in remotes.json order", async () => {
    servePageLists({
      '*/remotes/mfe-content/pages.json': [
        { path: '/risks', module: './RisksPage', title: 'Risks' },
      ],
      'https://premium.example.com/v3/pages.json': {
        pages: [{ path: '/pricing', module: './PricingPage', title: 'Pricing' }],
      },
    });
    const table = await loadRouteTable();
    expect(requestsSeen()).toHaveLength(2);
    expect(table.complete).toBe(true);
    expect(table.pages.map((page) => `${page.remote}${page.path}`)).toEqual([
      'mfe_content/risks',
      'mfe_premium/pricing',
    ]);
    expect(console.error).not.toHaveBeenCalled();
  });

  it('leaves out only the pages of a remote whose list is missing or invalid, and logs why', async () => {
    servePageLists({
      '*/remotes/mfe-content/pages.json': [{ path: '/risks', module: 'RisksPage', title: 'Risks' }],
    });
    const table = await loadRouteTable();
    expect(table.pages).toEqual([]);
    expect(table.complete).toBe(false);
    expect(console.error).toHaveBeenCalledWith(
      '[pages]',
      expect.stringContaining('mfe_content: pages.json page 1: /risks: "RisksPage" is not'),
    );
    expect(console.error).toHaveBeenCalledWith(
      '[pages]',
      'mfe_premium: pages.json HTTP 404; its pages are left out',
    );
  });

  it('is an empty, incomplete table when the remotes manifest cannot be read', async () => {
    vi.mocked(fetchRemotesManifest).mockRejectedValue(new Error('HTTP 500'));
    const table = await loadRouteTable();
    expect(table).toMatchObject({ pages: [], complete: false });
  });
});
