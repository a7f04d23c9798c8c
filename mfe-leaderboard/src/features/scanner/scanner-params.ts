/**
 * The scanner's filters as the page's URL (`/scanner?asset=USDC&chain=Ethereum&sort=apy`): the
 * one source of truth, so a link shares the same view and back/forward step through filter
 * changes. Defaults are left out of the URL; a value the API would refuse (an unknown sort, a
 * negative minimum TVL) reads as not given.
 */
import { SCANNER_SORT_KEYS, type ScannerSortKey } from '@yield/contract/constants';
import type { ScannerFilters } from '@yield/platform';

export const DEFAULT_SORT: ScannerSortKey = 'riskAdjusted';
const TEXT_FILTERS = ['asset', 'chain', 'project'] as const;
/** The API's own limits on the text filters (packages/contract/src/schemas.ts). */
const TEXT_MAX = { asset: 64, chain: 64, project: 100 } as const;

function isSortKey(value: string | null): value is ScannerSortKey {
  return (SCANNER_SORT_KEYS as readonly string[]).includes(value ?? '');
}

export function filtersFromSearch(search: URLSearchParams): ScannerFilters {
  const filters: ScannerFilters = {
    sort: isSortKey(search.get('sort')) ? (search.get('sort') as ScannerSortKey) : DEFAULT_SORT,
    includeOutliers: search.get('includeOutliers') === 'true',
  };
  for (const key of TEXT_FILTERS) {
    const value = search.get(key)?.trim();
    if (value) filters[key] = value.slice(0, TEXT_MAX[key]);
  }
  const stablecoin = search.get('stablecoin');
  if (stablecoin === 'true' || stablecoin === 'false') filters.stablecoin = stablecoin === 'true';
  const minTvl = search.get('minTvl');
  if (minTvl && /^\d{1,15}(\.\d{1,6})?$/.test(minTvl)) filters.minTvl = Number(minTvl);
  return filters;
}

export function searchFromFilters(filters: ScannerFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of TEXT_FILTERS) {
    const value = filters[key]?.trim();
    if (value) search.set(key, value);
  }
  if (filters.stablecoin !== undefined) search.set('stablecoin', String(filters.stablecoin));
  if (filters.minTvl !== undefined && filters.minTvl > 0)
    search.set('minTvl', String(filters.minTvl));
  if (filters.sort !== DEFAULT_SORT) search.set('sort', filters.sort);
  if (filters.includeOutliers) search.set('includeOutliers', 'true');
  return search;
}

/** The filters of a submitted filter form (its controls are named like the URL's parameters). */
export function filtersFromForm(form: FormData): ScannerFilters {
  const search = new URLSearchParams();
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string' && value !== '') search.set(key, value);
  }
  if (form.get('includeOutliers') === 'on') search.set('includeOutliers', 'true');
  return filtersFromSearch(search);
}
