import { fetchRemotesManifest } from '../remotes/registry.ts';

vi.mock('../remotes/registry.ts', () => ({ fetchRemotesManifest: vi.fn() }));

const manifest = {
  mfe_content: '/remotes/mfe-content/remoteEntry.js',
  mfe_premium: 'https://premium.example.com/v3/remoteEntry.js',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/remotes/mfe-content/pages.json')) {
        return json([{ path: '/risks', module: './RisksPage', title: 'Risks' }]);
      }
      if (url === 'https://premium.example.com/v3/pages.json') {
        return json({ pages: [{ path: '/pricing', module: './PricingPage', title: 'Pricing' }] });
      }
      return json({}, 404);
    });
    const table = await loadRouteTable();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(table.complete).toBe(true);
    expect(table.pages.map((page) => `${page.remote}${page.path}`)).toEqual([
      'mfe_content/risks',
      'mfe_premium/pricing',
    ]);
    expect(console.error).not.toHaveBeenCalled();
  });

  it('leaves out only the pages of a remote whose list is missing or invalid, and logs why', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input).includes('mfe-content')
        ? json([{ path: '/risks', module: 'RisksPage', title: 'Risks' }])
        : json({}, 404),
    );
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
