import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  getJson,
  type HistoryResponse,
  type RiskBreakdown,
  type StrategyContent,
  type TimeRange,
} from '@yield/platform';
import type { StrategySlug } from './strategies.ts';

export function useStrategyContent(slug: StrategySlug) {
  return useQuery({
    queryKey: ['strategy-content', slug],
    queryFn: () => getJson<StrategyContent>(`/api/strategy-content/${encodeURIComponent(slug)}`),
    staleTime: 5 * 60_000,
  });
}

/**
 * History of one strategy for one range. The previous range's data stays on screen while the next
 * loads, so switching ranges does not collapse the charts.
 */
export function useStrategyHistory(id: number, range: TimeRange) {
  return useQuery({
    queryKey: ['history', id, range],
    queryFn: () =>
      getJson<HistoryResponse>(`/api/history?id=${encodeURIComponent(String(id))}&range=${range}`),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useRiskBreakdown(id: number) {
  return useQuery({
    queryKey: ['breakdown', id],
    queryFn: () =>
      getJson<RiskBreakdown>(`/api/strategies/${encodeURIComponent(String(id))}/breakdown`),
    staleTime: 5 * 60_000,
  });
}
