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
}

const page = <R extends RemoteName>(path: string, remote: R, module: ExposedModule<R>): PageRouteData => ({
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
  },
  page('/options', 'mfe_leaderboard', 'ComparisonPage'),
  page('/options/:id', 'mfe_strategy', 'StrategyDetailPage'),
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
export function matchPageRoute(pathname: string): PageRouteData {
  const segments = pathname.split('/').filter(Boolean);
  for (const route of pageRouteData) {
    if (route.path === NOT_FOUND_PATH) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    if (pattern.every((part, i) => part.startsWith(':') || part === segments[i])) return route;
  }
  return pageRouteData.find((route) => route.path === NOT_FOUND_PATH)!;
}
