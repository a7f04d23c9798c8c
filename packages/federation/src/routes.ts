import type { ExposedModule, RemoteName } from './registry.ts';

/**
 * Every route of the spec's route table and of decisions.md, with the exposed modules that render
 * it, top to bottom. Pure data: the shell routes with it, and the site server reads it to send
 * resource hints for a page's modules with the HTML.
 */
export type ModuleRef = { [R in RemoteName]: { remote: R; module: ExposedModule<R> } }[RemoteName];

export interface PageRouteData {
  path: string;
  /** Modules the page renders, in order; empty for the shell's own not-found page. */
  modules: ModuleRef[];
  /**
   * API reads the page makes as soon as it renders (`:param` filled from the path). The site
   * server preloads them with the HTML so the data arrives with the code, not after it.
   */
  data?: string[];
}

/** The comparison's three lists (mfe-leaderboard fires them together). */
const COMPARISON_DATA = ['/api/sources', '/api/strategies', '/api/baserate'];

const page = <R extends RemoteName>(
  path: string,
  remote: R,
  module: ExposedModule<R>,
): PageRouteData => ({
  path,
  modules: [{ remote, module } as ModuleRef],
});

export const HOME_PATH = '/';
export const NOT_FOUND_PATH = '*';

export const pageRouteData: PageRouteData[] = [
  {
    path: HOME_PATH,
    modules: [
      { remote: 'mfe_content', module: 'LandingHero' },
      { remote: 'mfe_leaderboard', module: 'ComparisonSection' },
      { remote: 'mfe_content', module: 'LandingSections' },
    ],
    data: COMPARISON_DATA,
  },
  { ...page('/options', 'mfe_leaderboard', 'ComparisonPage'), data: COMPARISON_DATA },
  {
    ...page('/options/:id', 'mfe_strategy', 'StrategyDetailPage'),
    data: ['/api/strategy-content/:id'],
  },
  page('/strategy/:id', 'mfe_strategy', 'NumericStrategyPage'),
  page('/strategy-detail/:id', 'mfe_strategy', 'NumericStrategyPage'),
  page('/vault', 'mfe_content', 'VaultPage'),
  page('/b2b', 'mfe_content', 'B2bPage'),
  page('/sources-of-yield', 'mfe_content', 'SourcesOfYieldPage'),
  page('/advantages', 'mfe_content', 'AdvantagesPage'),
  page('/risks', 'mfe_content', 'RisksPage'),
  page('/how-to', 'mfe_content', 'HowToPage'),
  page('/learn', 'mfe_content', 'LearnPage'),
  page('/methodology', 'mfe_content', 'MethodologyPage'),
  page('/help-center', 'mfe_content', 'HelpCenterPage'),
  page('/subscribe', 'mfe_content', 'SubscribePage'),
  page('/coming-soon', 'mfe_content', 'ComingSoonPage'),
  page('/privacy-policy', 'mfe_content', 'PrivacyPolicyPage'),
  page('/terms-of-service', 'mfe_content', 'TermsOfServicePage'),
  page('/cookies-policy', 'mfe_content', 'CookiesPolicyPage'),
  page('/security', 'mfe_content', 'SecurityPage'),
  page('/pricing', 'mfe_premium', 'PricingPage'),
  page('/tally-success', 'mfe_premium', 'TallySuccessPage'),
  page('/premium/:strategy', 'mfe_premium', 'PremiumStrategyPage'),
  page('/premium-email', 'mfe_premium', 'PremiumEmailPage'),
  { path: NOT_FOUND_PATH, modules: [] },
];

/**
 * Matches a URL path against the route patterns (`:param` is one segment, `*` anything), the
 * same way the shell's router ranks these static-or-one-param routes.
 */
export function matchPageRoute(
  pathname: string,
): PageRouteData & { params: Record<string, string> } {
  const segments = pathname.split('/').filter(Boolean);
  for (const route of pageRouteData) {
    if (route.path === NOT_FOUND_PATH) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    if (pattern.every((part, i) => part.startsWith(':') || part === segments[i])) {
      const params = Object.fromEntries(
        pattern.flatMap((part, i) => (part.startsWith(':') ? [[part.slice(1), segments[i]!]] : [])),
      );
      return { ...route, params };
    }
  }
  return { ...pageRouteData.find((route) => route.path === NOT_FOUND_PATH)!, params: {} };
}

/** The API URLs a matched page reads first, with its path parameters filled in. */
export function pageDataUrls(route: { data?: string[]; params: Record<string, string> }): string[] {
  return (route.data ?? []).map((template) =>
    template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(route.params[name] ?? '')),
  );
}
