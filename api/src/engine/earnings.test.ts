import { describe, expect, it } from 'vitest';
import { compoundedEarnings, compoundedGrowth } from './earnings.ts';

// Each expected value is worked out by hand in its comment.
describe('compoundedEarnings', () => {
  it('one day at 36.5% earns a thousandth', () => {
    // 1000 × (1 + 36.5/100/365 − 1) = 1000 × 0.001 = 1
    expect(compoundedEarnings(1000, [36.5])).toBeCloseTo(1, 12);
  });

  it('compounds: two days at 36.5% earn more than twice one day', () => {
    // 1000 × (1.001² − 1) = 1000 × 0.002001 = 2.001
    expect(compoundedEarnings(1000, [36.5, 36.5])).toBeCloseTo(2.001, 12);
  });

  it("takes each day's own APR", () => {
    // 1.0001 × 1.0002 × 1.0003 = 1.000600110006; × 100 → 0.0600110006
    expect(compoundedEarnings(100, [3.65, 7.3, 10.95])).toBeCloseTo(0.0600110006, 12);
  });

  it('a negative day loses', () => {
    // 365 × (1 − 36.5/100/365 − 1) = 365 × −0.001 = −0.365
    expect(compoundedEarnings(365, [-36.5])).toBeCloseTo(-0.365, 12);
  });

  it('no days or a zero APR earn nothing', () => {
    expect(compoundedEarnings(5000, [])).toBe(0);
    expect(compoundedEarnings(5000, [0, 0, 0])).toBe(0);
  });

  it('30 days at a flat 5% match (1 + 0.05/365)^30 − 1', () => {
    // r = 0.05/365 = 0.000136986; (1 + r)^30 − 1 ≈ 30r + 435r² = 0.00410959 + 0.00000816
    // = 0.00411776, × 10,000 → 41.1776
    const growth = compoundedGrowth(Array<number>(30).fill(5));
    expect(growth).toBeCloseTo(Math.pow(1 + 0.05 / 365, 30) - 1, 15);
    expect(compoundedEarnings(10_000, Array<number>(30).fill(5))).toBeCloseTo(41.1776, 3);
  });
});
