import { formatIsoDate, formatLastUpdated } from './dates.ts';
import { formatPercent, formatPoints, formatUsdCompact } from './format.ts';

describe('dates', () => {
  it('writes Last Updated as a long US date', () => {
    expect(formatLastUpdated(new Date(2026, 10, 22))).toBe('November 22, 2026');
  });
  it('reads API dates in UTC so they never shift a day', () => {
    expect(formatIsoDate('2026-11-21')).toBe('November 21, 2026');
    expect(formatIsoDate('not a date')).toBe('not a date');
  });
});

describe('format', () => {
  it('shows points and percents with two decimals and hides float noise', () => {
    expect(formatPoints(1.3550430849800884e-15)).toBe('0.00');
    expect(formatPoints(-6.2677)).toBe('-6.27');
    expect(formatPercent(3.92228)).toBe('3.92%');
  });
  it('compacts dollars', () => {
    expect(formatUsdCompact(4_962_970_536)).toBe('$4.96B');
    expect(formatUsdCompact(75_648_086)).toBe('$75.6M');
    expect(formatUsdCompact(12_345)).toBe('$12.3K');
    expect(formatUsdCompact(950)).toBe('$950');
  });
});
