import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen, within } from '@testing-library/react';
import { NetYieldMethod, netExample } from './NetYieldMethod.tsx';
import { renderPage } from '../../test/render.tsx';

/** The rows of the worked example's table in docs/methodology.md, "Net yield". */
function docsExampleRows(): string[][] {
  const docs = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/methodology.md'),
    'utf8',
  );
  const section = docs.slice(docs.indexOf('## Net yield'));
  const table = section.slice(
    section.indexOf('Worked example'),
    section.indexOf('The pure computation'),
  );
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('NetYieldMethod (the /methodology section on the net yield of a deposit)', () => {
  it('states the rule, the three formulas, each cost and where it is read, and unknown costs', () => {
    renderPage(<NetYieldMethod />);
    const section = screen.getByRole('region', {
      name: 'Net yield: what a deposit keeps after its costs',
    });
    const text = section.textContent ?? '';
    expect(text).toContain('every cost is taken out at the deposit');
    const formulas = within(section).getByRole('list', { name: "The net figure's formulas" });
    const [net, netApr, breakEven] = within(formulas)
      .getAllByRole('listitem')
      .map((item) => (item.textContent ?? '').replace(/\s+/g, ' '));
    expect(net).toBe(
      'Net amount = (amount − entry − exit − gas in − gas out) × (1 + APR / 100 / 365)^days',
    );
    expect(netApr).toBe('Net APR = (net amount / amount − 1) × 365 / days × 100');
    expect(breakEven).toMatch(
      /^Break-even day = the first whole day d ≥ 0 on which \(amount − costs\) × \(1 \+ APR \/ 100 \/ 365\)\^d reaches the amount deposited/,
    );
    expect(text).toContain('convertToShares(A) minus previewDeposit(A)');
    expect(text).toContain('convertToAssets(s) minus previewRedeem(s)');
    expect(text).toContain('checked linear');
    expect(text).toContain('eth_feeHistory');
    expect(text).toContain('60,095 and 55,517 units');
    expect(text).toContain('shown as unknown, with why');
    expect(text).toContain('never taken as zero');
  });

  it('shows the worked example of docs/methodology.md, row for row', () => {
    renderPage(<NetYieldMethod />);
    const table = screen.getByRole('table', { name: 'Worked example of a net yield' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    const docs = docsExampleRows();
    expect(docs).toHaveLength(8);
    expect(rows).toEqual(docs);
  });

  it('computes the example under the rule (costs out at the deposit, then daily compounding)', () => {
    const r = netExample();
    expect(r.costs).toBeCloseTo(151.8827, 4);
    expect(r.net).toBeCloseTo(9_888.6695, 4);
    expect(r.netApr).toBeCloseTo(-13.55, 2);
    expect(r.breakEven).toBe(112);
    const start = 10_000 - r.costs;
    expect(start * (1 + 0.05 / 365) ** 112).toBeGreaterThanOrEqual(10_000);
    expect(start * (1 + 0.05 / 365) ** 111).toBeLessThan(10_000);
  });
});
