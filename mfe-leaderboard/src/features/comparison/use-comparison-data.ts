import { useCallback, useEffect, useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { baseRatesQuery, sourcesQuery, strategiesQuery } from '@yield/platform';
import { buildRows, ZERO_BASE_RATES, type ComparisonRow } from './model.ts';

export interface ComparisonData {
  /** True until the strategies and the base rates have both settled (success or failure). */
  loading: boolean;
  stablecoinRows: ComparisonRow[];
  cryptoRows: ComparisonRow[];
  /** The static yield list could not be loaded: nothing to rank. */
  sourcesFailed: boolean;
  retrySources: () => void;
}

/**
 * The comparison's data: the yield list, the live metrics and the base rates, all fetched at once
 * through the shell's shared query client (its retry, back-off, gc and refetch rules apply).
 * A failed metrics call leaves an empty list and a failed base-rate call leaves zeros: the page
 * renders either way. `enabled: false` holds the calls back (the comparison
 * starts them once its title block has painted).
 */
export function useComparisonData({ enabled = true }: { enabled?: boolean } = {}): ComparisonData {
  const [sources, strategies, baseRates] = useQueries({
    queries: [
      { ...sourcesQuery, enabled },
      { ...strategiesQuery, enabled },
      { ...baseRatesQuery, enabled },
    ],
  });

  const strategiesFailed = strategies.isError && strategies.data === undefined;
  const baseRatesFailed = baseRates.isError && baseRates.data === undefined;
  useEffect(() => {
    if (strategiesFailed) console.error('Failed to fetch strategies', strategies.error);
  }, [strategiesFailed, strategies.error]);
  useEffect(() => {
    if (baseRatesFailed) console.error('Failed to fetch base rates', baseRates.error);
  }, [baseRatesFailed, baseRates.error]);

  const sourceList = sources.data;
  const metrics = strategies.data;
  const rates = baseRates.data;
  const rows = useMemo(() => {
    const list = sourceList ?? [];
    const live = metrics ?? [];
    const rateValues = rates ?? ZERO_BASE_RATES;
    return {
      stablecoin: buildRows('stablecoin', list, live, rateValues),
      crypto: buildRows('defi', list, live, rateValues),
    };
  }, [sourceList, metrics, rates]);

  const refetchSources = sources.refetch;
  const retrySources = useCallback(() => void refetchSources(), [refetchSources]);
  const loading = sources.isPending || strategies.isPending || baseRates.isPending;
  const sourcesFailed = sources.isError && sourceList === undefined;
  // One stable object while nothing changes: background refetch flags do not re-render the board.
  return useMemo(
    () => ({
      loading,
      stablecoinRows: rows.stablecoin,
      cryptoRows: rows.crypto,
      sourcesFailed,
      retrySources,
    }),
    [loading, rows, sourcesFailed, retrySources],
  );
}
