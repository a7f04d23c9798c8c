/**
 * The query parameters each server-painted page reads. A page's first paint is rendered, and
 * cached, for its path and these parameters only, in one canonical order: `/?utm=1` and `/?utm=2`
 * are one page, `/compare?ids=3,%202&x=1` and `/compare?ids=3,2` another. Any other parameter
 * stays in the address bar for the browser, which renders the page itself after the paint.
 *
 * A page added to a remote's server renderer that reads the query must be listed here, or its
 * paint shows the page as without those parameters until the browser renders it.
 */
import { RISK_CHARGE_KEYS } from '@yield/contract/constants';

type Normalise = (params: URLSearchParams) => [string, string][];

/** Parameters kept as they are (trimmed), when given and not empty. */
const named =
  (...names: string[]): Normalise =>
  (params) =>
    names.flatMap((name) => {
      const value = params.get(name)?.trim();
      return value ? [[name, value] as [string, string]] : [];
    });

const PAGE_QUERY: Readonly<Record<string, Normalise>> = {
  // `?ids=3,2,13`: every `ids` value, split at commas, trimmed, empty parts dropped, order kept
  // (parseCompareIds in @yield/ui reads exactly that).
  ComparePage: (params) => {
    const parts = params
      .getAll('ids')
      .join(',')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    return parts.length > 0 ? [['ids', parts.join(',')]] : [];
  },
  // The saver's own weights (`?w-volatility=150`).
  ComparisonPage: named(...RISK_CHARGE_KEYS.map((key) => `w-${key}`)),
  // The scanner's filters (mfe-leaderboard scanner-params.ts).
  ScannerPage: named(
    'asset',
    'chain',
    'project',
    'stablecoin',
    'minTvl',
    'sort',
    'includeOutliers',
  ),
  // The page a "coming soon" link came from (folded into the sign-up's source).
  ComingSoonPage: named('page'),
};

/** `?a=1&b=2` with only the parameters `module` reads, normalised; '' when it reads none. */
export function pageSearch(module: string | undefined, search: string): string {
  const normalise = module && Object.hasOwn(PAGE_QUERY, module) ? PAGE_QUERY[module] : undefined;
  if (!normalise || search === '' || search === '?') return '';
  const kept = normalise(new URLSearchParams(search));
  return kept.length > 0 ? `?${new URLSearchParams(kept).toString()}` : '';
}
