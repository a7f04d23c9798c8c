import { screen, within } from '@testing-library/react';
import { PoolsMethod } from './PoolsMethod.tsx';
import { renderPage } from '../../test/render.tsx';
import fit from './rapool-v3-fit.json';

describe('PoolsMethod (the /methodology section on rapool-v3, in APR)', () => {
  it('names the method version, explains the expected figure before the charges, and lists the five charges', () => {
    renderPage(<PoolsMethod />);
    const section = screen.getByRole('region', { name: 'Pools: rapool-v3' });
    const text = section.textContent ?? '';
    expect(text.indexOf('Expected APR: what the pool will pay')).toBeGreaterThan(-1);
    expect(text.indexOf('Expected APR: what the pool will pay')).toBeLessThan(
      text.indexOf('The charges'),
    );
    expect(text).toContain('The risk-adjusted APR is the expected APR minus the charges');
    expect(text).not.toMatch(/risk-adjusted APY/i);
    const table = within(section).getByRole('table', {
      name: 'Pool risk charges and how each is computed',
    });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Impermanent loss', 'Reward token price', 'Outflow', 'Size', 'Safety']);
    expect(within(section).getByRole('link', { name: 'yield scanner' })).toHaveAttribute(
      'href',
      '/scanner',
    );
  });

  it('shows the fitted priors and the out-of-time figures of the fit', () => {
    renderPage(<PoolsMethod />);
    const section = screen.getByRole('region', { name: 'Pools: rapool-v3' });
    expect(section).toHaveTextContent(
      `went on to pay ${fit.coefficients.priors.rewardHeavy}% a year`,
    );
    const table = within(section).getByRole('table', {
      name: 'How well each figure ranked pools by what they paid next',
    });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual([
      `Expected${fit.spearman.expected.toFixed(3)}${(fit.top10.expected.disappoint * 100).toFixed(1)}%`,
      `Risk-adjusted${fit.spearman.riskAdjusted.toFixed(3)}${(fit.top10.riskAdjusted.disappoint * 100).toFixed(1)}%`,
      `Today\u2019s APY${fit.spearman.apy.toFixed(3)}${(fit.top10.apy.disappoint * 100).toFixed(1)}%`,
      `30-day average APR${fit.spearman.trailing30.toFixed(3)}N/A`,
      `BaselineN/A${(fit.top10.baseline.disappoint * 100).toFixed(1)}%`,
    ]);
  });
});
