import path from 'node:path';
import { loadRemotePages } from './create-config.ts';
import { buildRouteTable, exposedModules, pagesDocument, parsePages } from './pages.ts';
import { remoteNames, remoteRegistry } from './registry.ts';
import { matchPageRoute, pageDataUrls } from './routes.ts';

const workspace = path.resolve(import.meta.dirname, '../../..');

/** Each remote's declaration, read as its build reads it. */
const declared = Object.fromEntries(
  await Promise.all(
    remoteNames.map(
      async (name) =>
        [
          name,
          (await loadRemotePages(path.join(workspace, remoteRegistry[name].dir), name)).pages,
        ] as const,
    ),
  ),
);

/** The site's route table, as the shell and the site server build it from the pages.json files. */
const site = buildRouteTable(
  remoteNames.map((remote) => ({
    remote,
    pages: parsePages(JSON.parse(JSON.stringify(pagesDocument(declared[remote]!))), remote),
  })),
);

describe("the site's route table", () => {
  it.each([
    ['/', '/', 'mfe_content/LandingHero'],
    ['/options', '/options', 'mfe_leaderboard/ComparisonPage'],
    ['/options/lido', '/options/:id', 'mfe_strategy/StrategyDetailPage'],
    ['/strategy/3', '/strategy/:id', 'mfe_strategy/NumericStrategyPage'],
    ['/strategy-detail/3', '/strategy-detail/:id', 'mfe_strategy/NumericStrategyPage'],
    ['/vault', '/vault', 'mfe_content/VaultPage'],
    ['/b2b', '/b2b', 'mfe_content/B2bPage'],
    ['/sources-of-yield', '/sources-of-yield', 'mfe_content/SourcesOfYieldPage'],
    ['/advantages', '/advantages', 'mfe_content/AdvantagesPage'],
    ['/risks', '/risks', 'mfe_content/RisksPage'],
    ['/risks/', '/risks', 'mfe_content/RisksPage'],
    ['/how-to', '/how-to', 'mfe_content/HowToPage'],
    ['/learn', '/learn', 'mfe_content/LearnPage'],
    ['/methodology', '/methodology', 'mfe_content/MethodologyPage'],
    ['/help-center', '/help-center', 'mfe_content/HelpCenterPage'],
    ['/subscribe', '/subscribe', 'mfe_content/SubscribePage'],
    ['/coming-soon', '/coming-soon', 'mfe_content/ComingSoonPage'],
    ['/privacy-policy', '/privacy-policy', 'mfe_content/PrivacyPolicyPage'],
    ['/terms-of-service', '/terms-of-service', 'mfe_content/TermsOfServicePage'],
    ['/cookies-policy', '/cookies-policy', 'mfe_content/CookiesPolicyPage'],
    ['/security', '/security', 'mfe_content/SecurityPage'],
    ['/pricing', '/pricing', 'mfe_premium/PricingPage'],
    ['/tally-success', '/tally-success', 'mfe_premium/TallySuccessPage'],
    ['/premium/strategy', '/premium/:strategy', 'mfe_premium/PremiumStrategyPage'],
    ['/premium-email', '/premium-email', 'mfe_premium/PremiumEmailPage'],
  ])('%s is the page %s, first module %s', (pathname, pattern, first) => {
    const page = matchPageRoute(site, pathname);
    expect(page.path).toBe(pattern);
    expect(`${page.modules[0]!.remote}/${page.modules[0]!.module}`).toBe(first);
  });

  it.each(['/about', '/blog', '/options/lido/extra', '/strategy', '/nope'])(
    '%s is not a page',
    (pathname) => {
      expect(matchPageRoute(site, pathname)).toEqual({
        path: '*',
        title: null,
        modules: [],
        data: [],
        params: {},
      });
    },
  );

  it('renders on / the hero, the comparison and the landing sections, in that order', () => {
    expect(matchPageRoute(site, '/').modules).toEqual([
      { remote: 'mfe_content', module: 'LandingHero' },
      { remote: 'mfe_leaderboard', module: 'ComparisonSection' },
      { remote: 'mfe_content', module: 'LandingSections' },
    ]);
  });

  it('only names modules that their remote exposes', () => {
    expect(site.problems).toEqual([]);
    for (const page of site.pages) {
      for (const { remote, module } of page.modules) {
        expect(exposedModules(declared[remote]!)).toContain(module);
      }
    }
  });
});

describe('ranking', () => {
  const page = (remote: string, path: string) => ({
    path,
    title: path,
    remote,
    modules: [{ remote, module: path }],
    data: [],
  });

  it('ranks as react-router does: static beats a parameter, a parameter beats a splat', () => {
    // The less specific patterns come first, from the first remotes of remotes.json.
    const table = buildRouteTable([
      { remote: 'strategy', pages: [page('strategy', '/options/:id')] },
      { remote: 'docs', pages: [page('docs', '/docs/*')] },
      { remote: 'board', pages: [page('board', '/options/compare')] },
      { remote: 'content', pages: [page('content', '/docs/:section')] },
    ]);
    expect(matchPageRoute(table, '/options/compare').path).toBe('/options/compare');
    expect(matchPageRoute(table, '/options/lido')).toMatchObject({
      path: '/options/:id',
      params: { id: 'lido' },
    });
    expect(matchPageRoute(table, '/docs/intro').path).toBe('/docs/:section');
    expect(matchPageRoute(table, '/docs/intro/more')).toMatchObject({
      path: '/docs/*',
      params: { '*': 'intro/more' },
    });
  });
});

describe('pageDataUrls', () => {
  it('fills path parameters into the data a page reads first', () => {
    expect(pageDataUrls(matchPageRoute(site, '/options/lido'))).toEqual([
      '/api/strategy-content/lido',
    ]);
    expect(pageDataUrls(matchPageRoute(site, '/options/a b'))).toEqual([
      '/api/strategy-content/a%20b',
    ]);
    expect(pageDataUrls(matchPageRoute(site, '/options'))).toEqual([
      '/api/sources',
      '/api/strategies',
      '/api/baserate',
    ]);
    expect(pageDataUrls(matchPageRoute(site, '/'))).toEqual([
      '/api/sources',
      '/api/strategies',
      '/api/baserate',
    ]);
    expect(pageDataUrls(matchPageRoute(site, '/risks'))).toEqual([]);
  });
});
