import { filtersFromForm, filtersFromSearch, searchFromFilters } from './scanner-params.ts';

describe('scanner filters in the URL', () => {
  it('round-trips every filter and leaves defaults out', () => {
    const search = new URLSearchParams(
      'asset=USDC&chain=Ethereum&project=aave-v3&stablecoin=true&minTvl=1000000&sort=apy&includeOutliers=true',
    );
    const filters = filtersFromSearch(search);
    expect(filters).toEqual({
      asset: 'USDC',
      chain: 'Ethereum',
      project: 'aave-v3',
      stablecoin: true,
      minTvl: 1_000_000,
      sort: 'apy',
      includeOutliers: true,
    });
    expect(searchFromFilters(filters).toString()).toBe(search.toString());
    expect(searchFromFilters(filtersFromSearch(new URLSearchParams())).toString()).toBe('');
  });

  it('reads values the API would refuse as not given', () => {
    expect(
      filtersFromSearch(new URLSearchParams('sort=yield&minTvl=-5&stablecoin=maybe&asset=%20')),
    ).toEqual({ sort: 'riskAdjusted', includeOutliers: false });
  });

  it('reads a submitted form: empty controls are not filters, a ticked box is true', () => {
    const form = new FormData();
    form.set('asset', 'eth');
    form.set('chain', '');
    form.set('stablecoin', 'false');
    form.set('minTvl', '');
    form.set('sort', 'tvl');
    form.set('includeOutliers', 'on');
    expect(filtersFromForm(form)).toEqual({
      asset: 'eth',
      stablecoin: false,
      sort: 'tvl',
      includeOutliers: true,
    });
  });
});
