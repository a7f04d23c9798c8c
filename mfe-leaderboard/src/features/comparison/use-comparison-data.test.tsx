import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useComparisonData } from './use-comparison-data.ts';
import { apiErrorFixture } from '@yield/fixtures';
import { deferred, requestsSeen, serve, serveOthers } from '@yield/fixtures/msw';
import { baseRates, baseRow, metricsOf, sourceRow } from '../../test/test-fixtures.ts';

const sources = [
  sourceRow({ id: 3, name: 'Liquity v1 - Stability Pool', detailSlug: 'liquity' }),
  baseRow('stablecoin'),
];

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('useComparisonData', () => {
  afterEach(() => vi.restoreAllMocks());

  it('fires the list calls together and keeps loading until both have settled', async () => {
    const baseRate = deferred<void>();
    serve('sources', sources);
    serve('strategies', [metricsOf(3, 4.5, 2.7, 6e7)]);
    serve('baseRates', async () => {
      await baseRate.promise;
      return baseRates({
        baserateStable: 4.9,
        baserateRiskAdjustedStable: 4,
        baserateDefi: 2.8,
        baserateRiskAdjustedDefi: 1.8,
      });
    });
    const { result } = renderHook(() => useComparisonData(), { wrapper });
    await waitFor(() =>
      expect(requestsSeen().map(({ url }) => url.pathname)).toEqual(
        expect.arrayContaining(['/api/sources', '/api/strategies', '/api/baserate']),
      ),
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(result.current.loading).toBe(true);
    baseRate.release();
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.stablecoinRows.map((r) => r.yield30d)).toEqual([4.5, 4.9]);
  });

  it('renders regardless: failed strategies → empty figures, failed base rates → zeros, both logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    serve('sources', sources);
    serveOthers(503, apiErrorFixture('data_unavailable', 'down'));
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
