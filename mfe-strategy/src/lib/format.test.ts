import {
  formatDate,
  formatHolders,
  formatPercent,
  formatUsd,
  formatUsdTick,
  NOT_AVAILABLE,
} from './format.ts';

describe('formatUsd (strategy pages)', () => {
  it('shows whole dollars with grouping below 1,000', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(999.4)).toBe('$999');
    expect(formatUsd(12.6)).toBe('$13');
  });
  it('uses K, M with one decimal', () => {
    expect(formatUsd(1_000)).toBe('$1.0K');
    expect(formatUsd(65_957)).toBe('$66.0K');
    expect(formatUsd(1_000_000)).toBe('$1.0M');
    expect(formatUsd(65_957_743)).toBe('$66.0M');
  });
  it('uses B with one decimal on strategy pages (the comparison page uses two)', () => {
    expect(formatUsd(4_987_454_211)).toBe('$5.0B');
    expect(formatUsd(24_412_000_000)).toBe('$24.4B');
  });
  it('keeps the sign of a negative value', () => {
    expect(formatUsd(-2_500_000)).toBe('-$2.5M');
  });
  it('shows N/A for a missing figure, never 0', () => {
    expect(formatUsd(undefined)).toBe(NOT_AVAILABLE);
    expect(formatUsd(null)).toBe('N/A');
    expect(formatUsd(Number.NaN)).toBe('N/A');
  });
});

describe('formatPercent', () => {
  it('shows two decimals and a percent sign', () => {
    expect(formatPercent(4.525882960927295)).toBe('4.53%');
    expect(formatPercent(2)).toBe('2.00%');
    expect(formatPercent(-0.456)).toBe('-0.46%');
  });
  it('shows N/A for a missing figure', () => {
    expect(formatPercent(undefined)).toBe('N/A');
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe('N/A');
  });
});

describe('formatDate and formatHolders', () => {
  it('formats a timestamp as the locale date', () => {
    const ts = Date.UTC(2026, 10, 21, 12);
    expect(formatDate(ts)).toBe(new Date(ts).toLocaleDateString());
  });
  it('groups holder counts and picks singular/plural', () => {
    expect(formatHolders(12345)).toBe(`${(12345).toLocaleString()} holders`);
    expect(formatHolders(1)).toBe('1 holder');
    expect(formatHolders(null)).toBe('N/A');
  });
});

describe('formatUsdTick (TVL axis labels)', () => {
  it('adds decimals when the tick step is finer than the TVL format', () => {
    const ticks = [4.8e9, 4.85e9, 4.9e9, 4.95e9, 5e9].map((v) => formatUsdTick(v, 0.05e9));
    expect(ticks).toEqual(['$4.80B', '$4.85B', '$4.90B', '$4.95B', '$5.00B']);
    expect(new Set(ticks).size).toBe(ticks.length);
  });
  it('keeps one decimal when the step allows it', () => {
    expect(formatUsdTick(65_000_000, 2_500_000)).toBe('$65.0M');
    expect(formatUsdTick(24_500_000_000, 500_000_000)).toBe('$24.5B');
  });
  it('uses whole dollars below 1,000', () => {
    expect(formatUsdTick(750, 50)).toBe('$750');
  });
});
