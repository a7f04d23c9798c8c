import { screen, within } from '@testing-library/react';
import { PoolsMethod } from './PoolsMethod.tsx';
import { renderPage } from '../test/render.tsx';

describe('PoolsMethod (the /methodology section on rapool-v1)', () => {
  it('names the method version, says what sigma and mu are before charging by them, and lists the five charges', () => {
    renderPage(<PoolsMethod />);
    const section = screen.getByRole('region', { name: 'Pools: rapool-v1' });
    const text = section.textContent ?? '';
    // DeFiLlama's fields are explained (a definition list item each) before the charge table.
    const sigmaDefined = text.indexOf('sigma: how much');
    const muDefined = text.indexOf('mu: the pool');
    const sigmaUsed = text.indexOf('sigma × 19');
    expect(muDefined).toBeGreaterThan(-1);
    expect(sigmaDefined).toBeGreaterThan(-1);
    expect(sigmaUsed).toBeGreaterThan(sigmaDefined);
    const table = within(section).getByRole('table', {
      name: 'Pool risk charges and how each is computed',
    });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Volatility', 'Incentives', 'Impermanent loss', 'Size', 'Safety']);
    expect(within(section).getByRole('link', { name: 'yield scanner' })).toHaveAttribute(
      'href',
      '/scanner',
    );
  });
});
