import { matchRoutes } from 'react-router-dom';
import { remoteRegistry } from '@yield/federation/registry';

vi.mock('../remotes/registry.ts', () => ({
  loadRemoteModule: vi.fn(),
  fetchRemotesManifest: vi.fn(),
}));

const { pageRoutes } = await import('./route-table.tsx');

function resolve(path: string) {
  const matches = matchRoutes(pageRoutes, path);
  const route = matches?.at(-1)?.route;
  if (!route) throw new Error(`no route for ${path}`);
  return route.source;
}

describe('route table', () => {
  it.each([
    ['/options', 'mfe_leaderboard', 'ComparisonPage'],
    ['/options/liquity', 'mfe_strategy', 'StrategyDetailPage'],
    ['/options/anything-else', 'mfe_strategy', 'StrategyDetailPage'],
    ['/strategy/3', 'mfe_strategy', 'NumericStrategyPage'],
    ['/strategy-detail/7', 'mfe_strategy', 'NumericStrategyPage'],
    ['/vault', 'mfe_content', 'VaultPage'],
    ['/b2b', 'mfe_content', 'B2bPage'],
    ['/sources-of-yield', 'mfe_content', 'SourcesOfYieldPage'],
    ['/advantages', 'mfe_content', 'AdvantagesPage'],
    ['/risks', 'mfe_content', 'RisksPage'],
    ['/how-to', 'mfe_content', 'HowToPage'],
    ['/learn', 'mfe_content', 'LearnPage'],
    ['/methodology', 'mfe_content', 'MethodologyPage'],
    ['/help-center', 'mfe_content', 'HelpCenterPage'],
    ['/subscribe', 'mfe_content', 'SubscribePage'],
    ['/coming-soon', 'mfe_content', 'ComingSoonPage'],
    ['/privacy-policy', 'mfe_content', 'PrivacyPolicyPage'],
    ['/terms-of-service', 'mfe_content', 'TermsOfServicePage'],
    ['/cookies-policy', 'mfe_content', 'CookiesPolicyPage'],
    ['/security', 'mfe_content', 'SecurityPage'],
    ['/pricing', 'mfe_premium', 'PricingPage'],
    ['/tally-success', 'mfe_premium', 'TallySuccessPage'],
    ['/premium/4', 'mfe_premium', 'PremiumStrategyPage'],
    ['/premium-email', 'mfe_premium', 'PremiumEmailPage'],
  ])('%s is served by %s/%s', (path, remote, module) => {
    expect(resolve(path)).toEqual({ kind: 'remote', remote, module });
  });

  it('serves / from the shell home composition', () => {
    expect(resolve('/')).toEqual({ kind: 'shell', page: 'home' });
  });

  it.each(['/about', '/blog', '/nope', '/options/lido/extra'])('%s is not found', (path) => {
    expect(resolve(path)).toEqual({ kind: 'shell', page: 'not-found' });
  });

  it('only maps to modules a remote exposes', () => {
    for (const { source } of pageRoutes) {
      if (source.kind !== 'remote') continue;
      expect(remoteRegistry[source.remote].exposes as readonly string[]).toContain(source.module);
    }
  });
});
