import { describe, expect, it } from 'vitest';
import {
  applyWeights,
  clampWeight,
  DEFAULT_WEIGHTS,
  isPublishedWeights,
  parseWeights,
  ranking,
  rankingAnnouncement,
  serializeWeights,
} from './model.ts';
import { FLUID, GAUNTLET, SKY, weightedTestRows } from './test-rows.ts';

const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe('weights in the URL', () => {
  it('reads each charge from its w-<charge> parameter', () => {
    expect(parseWeights(new URLSearchParams('w-volatility=150&w-safety=0'))).toEqual({
      ...DEFAULT_WEIGHTS,
      volatility: 150,
      safety: 0,
    });
  });

  it('is the published weights without parameters', () => {
    const weights = parseWeights(new URLSearchParams('ids=3,8&other=1'));
    expect(weights).toEqual(DEFAULT_WEIGHTS);
    expect(isPublishedWeights(weights)).toBe(true);
  });

  it('ignores values that are not numbers and unknown charges', () => {
    expect(
      parseWeights(
        new URLSearchParams('w-volatility=abc&w-safety=&w-size=1e&w-luck=50&w-outflow=NaN'),
      ),
    ).toEqual(DEFAULT_WEIGHTS);
  });

  it('clamps numbers outside 0-200 and rounds to the 5% grid', () => {
    expect(
      parseWeights(
        new URLSearchParams(
          'w-volatility=999&w-safety=-20&w-size=37&w-liquidity=42.4&w-incentives=%2050%20',
        ),
      ),
    ).toEqual({
      ...DEFAULT_WEIGHTS,
      volatility: 200,
      safety: 0,
      size: 35,
      liquidity: 40,
      incentives: 50,
    });
    expect(clampWeight(Infinity)).toBeNull();
    expect(clampWeight(201)).toBe(200);
    expect(clampWeight(2.5)).toBe(5);
  });

  it('writes only the weights that differ from 100% and keeps other parameters', () => {
    const next = serializeWeights(new URLSearchParams('ids=3&w-size=50'), {
      ...DEFAULT_WEIGHTS,
      volatility: 150,
      safety: 0,
    });
    expect(next.toString()).toBe('ids=3&w-volatility=150&w-safety=0');
    expect(serializeWeights(next, DEFAULT_WEIGHTS).toString()).toBe('ids=3');
  });

  it('reads back what it writes', () => {
    const weights = { ...DEFAULT_WEIGHTS, incentives: 0, outflow: 200, liquidity: 55 };
    expect(parseWeights(serializeWeights(new URLSearchParams(), weights))).toEqual(weights);
  });
});

describe("the saver's ranking", () => {
  it('keeps the published rows at every weight 100%', () => {
    const rows = weightedTestRows();
    expect(applyWeights(rows, DEFAULT_WEIGHTS)).toBe(rows);
    expect(names(ranking(rows))).toEqual([FLUID, GAUNTLET, SKY, 'Young Vault']);
  });

  it('re-ranks by APR minus each charge times its weight', () => {
    const rows = applyWeights(weightedTestRows(), { ...DEFAULT_WEIGHTS, incentives: 0 });
    expect(names(ranking(rows))).toEqual([GAUNTLET, FLUID, SKY, 'Young Vault']);
    const gauntlet = rows.find((r) => r.name === GAUNTLET)!;
    expect(gauntlet.riskAdjustedYield30d).toBeCloseTo(5.1, 12);
    expect(gauntlet.risk).toBeCloseTo(1.9, 12);
  });

  it('doubles and removes charges', () => {
    const rows = applyWeights(weightedTestRows(), {
      ...DEFAULT_WEIGHTS,
      volatility: 200,
      safety: 0,
    });
    const fluid = rows.find((r) => r.name === FLUID)!;
    // 6.9 − (2 × 0.7 + 0 × 0.75 + 0.1 + 0.3 + 0.05)
    expect(fluid.riskAdjustedYield30d).toBeCloseTo(5.05, 12);
    // The benchmark row follows the same weights: 4.9 − (0.4 + 0.2 + 0) = 4.3.
    expect(rows.find((r) => r.isBaseRate)!.riskAdjustedYield30d).toBeCloseTo(4.3, 12);
  });

  it('leaves a row without live figures as it is', () => {
    const rows = applyWeights(weightedTestRows(), { ...DEFAULT_WEIGHTS, safety: 0 });
    const young = rows.find((r) => r.name === 'Young Vault')!;
    expect(young.riskAdjustedYield30d).toBeNull();
  });

  it('says which source leads each table', () => {
    const rows = applyWeights(weightedTestRows(), { ...DEFAULT_WEIGHTS, incentives: 0 });
    expect(rankingAnnouncement([{ title: 'Stablecoins Yield', rows }], false)).toBe(
      `Re-ranked with your weights: Stablecoins Yield led by ${GAUNTLET} at 5.10%.`,
    );
    expect(
      rankingAnnouncement([{ title: 'Stablecoins Yield', rows: weightedTestRows() }], true),
    ).toBe(`Published ranking restored: Stablecoins Yield led by ${FLUID} at 5.00%.`);
  });
});
