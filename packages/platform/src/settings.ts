import { useQuery } from '@tanstack/react-query';
import type { SiteSettings } from '@yield/contract';
import { settingsQuery } from './queries.ts';

/** Site settings and external URLs (operator data served by the API). */
export function useSiteSettings(): SiteSettings | undefined {
  return useQuery(settingsQuery).data;
}
