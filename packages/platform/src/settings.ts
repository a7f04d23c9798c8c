import { useQuery } from '@tanstack/react-query';
import type { SiteSettings } from './api-types.ts';
import { getJson } from './api-client.ts';

export const settingsQuery = {
  queryKey: ['settings'] as const,
  queryFn: () => getJson<SiteSettings>('/api/settings'),
  staleTime: 5 * 60_000,
};

/** Site settings and external URLs (operator data served by the API). */
export function useSiteSettings(): SiteSettings | undefined {
  return useQuery(settingsQuery).data;
}
