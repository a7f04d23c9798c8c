import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useComparisonData } from './use-comparison-data.ts';
import { baseRates, baseRow, metricsOf, sourceRow } from '../../test/test-fixtures.ts';

const sources = [
  sourceRow({ id: 3, name: 'Liquity v1 - Stability Pool', detailSlug: 'liquity' }),
  baseRow('stablecoin'),
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('useComparisonData', () => {
  afterEach(() => vi.restoreAllMocks());

  it('fires the list calls together and keeps loading until both have settled', async () => {
    const calls: string[] = [];
    let releaseBaseRate: (r: Response) => void = () => {};
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
      const url = String(input);
      calls.push(url);
      if (url === '/api/sources') return Promise.resolve(json(sources));
      if (url === '/api/strategies') return Promise.resolve(json([metricsOf(3, 4.5, 2.7, 6e7)]));
      return new Promise<Response>((resolve) => (releaseBaseRate = resolve));
    });
    const { result } = renderHook(() => useComparisonData(), { wrapper });
    await waitFor(() =>
      expect(calls).toEqual(
        expect.arrayContaining(['/api/sources', '/api/strategies', '/api/baserate']),
      ),
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(result.current.loading).toBe(true);
    releaseBaseRate(
      json(
        baseRates({
          baserateStable: 4.9,
          baserateRiskAdjustedStable: 4,
          baserateDefi: 2.8,
          baserateRiskAdjustedDefi: 1.8,
        }),
      ),
    );
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.stablecoinRows.map((r) => r.yield30d)).toEqual([4.5, 4.9]);
  });

  it('renders regardless: failed strategies → empty figures, failed base rates → zeros, both logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) =>
      Promise.resolve(
        String(input) === '/api/sources'
          ? json(sources)
          : json({ error: { code: 'x', message: 'down' } }, 503),
      ),
    );
    const { result } = renderHook(() => useComparisonData(), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.stablecoinRows).toHaveLength(2);
    expect(result.current.stablecoinRows[0]).toMatchObject({ yield30d: null, tvl: null });
    expect(result.current.stablecoinRows[1]).toMatchObject({
      yield30d: 0,
      riskAdjustedYield30d: 0,
    });
    await waitFor(() => {
      expect(logged).toHaveBeenCalledWith('Failed to fetch strategies', expect.anything());
      expect(logged).toHaveBeenCalledWith('Failed to fetch base rates', expect.anything());
    });
  });
});
