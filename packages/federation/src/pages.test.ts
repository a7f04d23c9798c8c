import {
  buildRouteTable,
  exposedModules,
  pagesDocument,
  parsePages,
  type RemotePages,
} from './pages.ts';
import { pagesUrl } from './registry.ts';

describe('parsePages', () => {
  const risks = { path: '/risks', module: './RisksPage', title: 'Risks' };

  it('reads a bare list or { "pages": [...] }, naming own modules and other remotes\' ones', () => {
    const home = {
      path: '/',
      title: 'Home',
      modules: ['mfe_content/LandingHero', './ComparisonSection'],
      data: ['/api/sources'],
    };
    expect(parsePages([risks], 'mfe_content')).toEqual([
      {
        path: '/risks',
        title: 'Risks',
        remote: 'mfe_content',
        modules: [{ remote: 'mfe_content', module: 'RisksPage' }],
        data: [],
      },
    ]);
    expect(parsePages({ pages: [home] }, 'mfe_leaderboard')[0]!.modules).toEqual([
      { remote: 'mfe_content', module: 'LandingHero' },
      { remote: 'mfe_leaderboard', module: 'ComparisonSection' },
    ]);
  });

  it('takes react-router patterns: parameters, optional parameters, a final splat', () => {
    const paths = ['/options/:id', '/docs/:section?', '/guides/*', '/a-b/c.d~e'];
    const pages = paths.map((path) => ({ ...risks, path }));
    expect(parsePages(pages, 'mfe_content').map((page) => page.path)).toEqual(paths);
  });

  it.each([
    [{ pages: 'nope' }, 'is neither a list of pages'],
    [[null], 'page 1: is not an object'],
    [[{ ...risks, path: 'risks' }], 'path "risks" must start with "/"'],
    [[{ ...risks, path: '/risks/' }], 'must start with "/" and not end with one'],
    [[{ ...risks, path: '/*' }], 'path "/*" has an invalid segment "*"'],
    [[{ ...risks, path: '/a/*/b' }], 'has an invalid segment "*"'],
    [[{ ...risks, path: '/a b' }], 'has an invalid segment "a b"'],
    [[{ ...risks, title: ' ' }], '/risks: "title" is not a non-empty string'],
    [[{ path: '/risks', title: 'Risks' }], '/risks: needs either "module" or "modules"'],
    [[{ ...risks, modules: ['./X'] }], 'needs either "module" or "modules"'],
    [[{ ...risks, module: undefined, modules: [] }], '"modules" is not a non-empty list'],
    [[{ ...risks, module: 'RisksPage' }], '"RisksPage" is not "./Module" or "remote/Module"'],
    [[{ ...risks, module: './Risks-Page' }], 'is not "./Module" or "remote/Module"'],
    [[{ ...risks, module: 'a/b/C' }], 'is not "./Module" or "remote/Module"'],
    [[{ ...risks, data: '/api/x' }], '/risks: "data" is not a list'],
    [[{ ...risks, data: ['https://evil.example/x'] }], 'is not a path on this site'],
    [[{ ...risks, data: ['//evil.example/x'] }], 'is not a path on this site'],
    [
      [{ ...risks, data: ['/api/strategy-content/:id'] }],
      'names :id, which the path does not have',
    ],
  ])('refuses %j: %s', (document, message) => {
    expect(() => parsePages(document, 'mfe_content')).toThrow(message);
  });

  it('refuses a whole list with one bad page, naming every problem', () => {
    expect(() =>
      parsePages([risks, { ...risks, path: 'x' }, { ...risks, title: '' }], 'mfe_content'),
    ).toThrow(/^page 2: .*; page 3: /);
  });
});

describe('buildRouteTable', () => {
  const page = (remote: string, path: string) => ({
    path,
    title: path,
    remote,
    modules: [{ remote, module: 'Page' }],
    data: [],
  });

  it('keeps remotes.json order, gives a path two remotes declare to the first, and says so', () => {
    const table = buildRouteTable([
      { remote: 'a', pages: [page('a', '/x'), page('a', '/y')] },
      { remote: 'b', pages: [page('b', '/X'), page('b', '/z')] },
    ]);
    expect(table.pages.map((p) => `${p.remote}${p.path}`)).toEqual(['a/x', 'a/y', 'b/z']);
    expect(table.complete).toBe(true);
    expect(table.problems).toEqual(['b: /X is already a page of a; ignored']);
  });

  it('leaves out the pages of a remote whose list could not be read, and is then incomplete', () => {
    const table = buildRouteTable([
      { remote: 'a', pages: [page('a', '/x')] },
      { remote: 'b', error: 'HTTP 404' },
    ]);
    expect(table.pages.map((p) => p.path)).toEqual(['/x']);
    expect(table.complete).toBe(false);
    expect(table.problems).toEqual(['b: pages.json HTTP 404; its pages are left out']);
  });
});

describe('a remote declaration', () => {
  const declared: RemotePages = {
    pages: [
      { path: '/', title: 'Home', modules: ['mfe_content/LandingHero', './ComparisonSection'] },
      { path: '/options', title: 'Comparison', module: './ComparisonPage' },
      { path: '/compare', title: 'Comparison', module: './ComparisonPage' },
    ],
    sections: ['./Newsletter'],
  };

  it("exposes its own modules once each, pages' and sections', never another remote's", () => {
    expect(exposedModules(declared)).toEqual(['ComparisonSection', 'ComparisonPage', 'Newsletter']);
  });

  it('is written as { "pages": [...] } and read back as it was declared', () => {
    const document = JSON.parse(JSON.stringify(pagesDocument(declared))) as unknown;
    expect(document).toEqual({ pages: declared.pages });
    expect(parsePages(document, 'mfe_leaderboard').map((p) => p.path)).toEqual([
      '/',
      '/options',
      '/compare',
    ]);
  });
});

describe('pagesUrl', () => {
  it('is beside remoteEntry.js, without its query string', () => {
    expect(pagesUrl('https://cdn.example.com/board/v42/remoteEntry.js?retry=1').href).toBe(
      'https://cdn.example.com/board/v42/pages.json',
    );
    expect(pagesUrl(new URL('/remotes/mfe-content/remoteEntry.js', 'http://site.local')).href).toBe(
      'http://site.local/remotes/mfe-content/pages.json',
    );
  });
});
