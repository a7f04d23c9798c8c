import { matchPageRoute, pageDataUrls, pageRouteData } from './routes.ts';
import { remoteRegistry } from './registry.ts';

describe('matchPageRoute', () => {
  it.each([
    ['/', '/'],
    ['/options', '/options'],
    ['/options/lido', '/options/:id'],
    ['/strategy/3', '/strategy/:id'],
    ['/strategy-detail/3', '/strategy-detail/:id'],
    ['/premium/strategy', '/premium/:strategy'],
    ['/risks', '/risks'],
    ['/options/lido/extra', '*'],
    ['/about', '*'],
  ])('%s → %s', (path, pattern) => {
    expect(matchPageRoute(path).path).toBe(pattern);
  });

  it('renders on / the hero, the comparison and the landing sections, in that order', () => {
    expect(matchPageRoute('/').modules).toEqual([
      { remote: 'mfe_content', module: 'LandingHero' },
      { remote: 'mfe_leaderboard', module: 'ComparisonSection' },
      { remote: 'mfe_content', module: 'LandingSections' },
    ]);
  });

  it('only names modules that their remote exposes', () => {
    for (const route of pageRouteData) {
      for (const { remote, module } of route.modules) {
        expect(remoteRegistry[remote].exposes as readonly string[]).toContain(module);
      }
    }
  });
});

describe('pageDataUrls', () => {
  it('fills path parameters into the data a page reads first', () => {
    expect(pageDataUrls(matchPageRoute('/options/lido'))).toEqual(['/api/strategy-content/lido']);
    expect(pageDataUrls(matchPageRoute('/options/a b'))).toEqual(['/api/strategy-content/a%20b']);
    expect(pageDataUrls(matchPageRoute('/options'))).toEqual([
      '/api/sources',
      '/api/strategies',
      '/api/baserate',
    ]);
    expect(pageDataUrls(matchPageRoute('/risks'))).toEqual([]);
  });
});
