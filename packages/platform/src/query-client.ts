import { QueryClient } from '@tanstack/react-query';

/**
 * Data fetching: retry 3 times, back-off 1 s doubling up to 30 s, unused data
 * discarded after 5 minutes, refetch on focus and reconnect.
 */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: 3,
        retryDelay,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: true,
        refetchOnReconnect: true,
      },
    },
  });
}
