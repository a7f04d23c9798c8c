import { formatApr, formatTvl } from './format.ts';

describe('formatTvl (spec section 9)', () => {
  it('shows whole dollars with grouping below 1,000 and K/M with one decimal', () => {
    expect(formatTvl(950)).toBe('$950');
    expect(formatTvl(1_000)).toBe('$1.0K');
    expect(formatTvl(75_600_000)).toBe('$75.6M');
  });

  it('shows B with one decimal on strategy pages and two on the comparison page', () => {
    expect(formatTvl(4_963_000_000)).toBe('$5.0B');
    expect(formatTvl(4_963_000_000, 2)).toBe('$4.96B');
  });

  it('moves to the next unit instead of showing 1000.0K', () => {
    expect(formatTvl(999_960)).toBe('$1.0M');
  });

  it('reads N/A without a figure', () => {
    expect(formatTvl(null)).toBe('N/A');
    expect(formatTvl(undefined)).toBe('N/A');
    expect(formatTvl(Number.NaN)).toBe('N/A');
  });
});

describe('formatApr', () => {
  it('shows two decimals with a percent sign, negatives as they are', () => {
    expect(formatApr(4.567)).toBe('4.57%');
    expect(formatApr(-1.2)).toBe('-1.20%');
    expect(formatApr(null)).toBe('N/A');
  });
});
