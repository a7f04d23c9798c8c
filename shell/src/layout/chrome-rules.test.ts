import { FOOTER_HIDDEN_PATHS, headerVariant, isFooterHidden } from './chrome-rules.ts';

describe('headerVariant', () => {
  it.each([
    ['/strategy/3', 'slim'],
    ['/strategy-detail/3', 'slim'],
    ['/options/lido', 'slim'],
    ['/options', 'full'],
    ['/', 'full'],
    ['/pricing', 'full'],
    ['/strategy', 'full'],
    ['/premium/4', 'full'],
  ])('%s → %s', (path, variant) => {
    expect(headerVariant(path)).toBe(variant);
  });
});

describe('isFooterHidden', () => {
  it('hides the footer on every path that has none', () => {
    expect(FOOTER_HIDDEN_PATHS).toEqual([
      '/about',
      '/blog',
      '/privacy-policy',
      '/terms-of-service',
      '/cookies-policy',
      '/help-center',
      '/security',
      '/risks',
    ]);
    for (const path of FOOTER_HIDDEN_PATHS) expect(isFooterHidden(path)).toBe(true);
    expect(isFooterHidden('/risks/')).toBe(true);
  });

  it.each(['/', '/options', '/learn', '/pricing', '/advantages', '/options/lido'])(
    'shows the footer on %s',
    (path) => {
      expect(isFooterHidden(path)).toBe(false);
    },
  );
});
