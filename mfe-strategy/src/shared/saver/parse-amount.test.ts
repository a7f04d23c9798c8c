import { parseAmount } from './EarningsCalculator.tsx';

describe('parseAmount', () => {
  it('reads decimal amounts, with or without thousands separators', () => {
    expect(parseAmount('10000')).toBe(10_000);
    expect(parseAmount(' 2.5 ')).toBe(2.5);
    expect(parseAmount('1,000,000.25')).toBe(1_000_000.25);
    expect(parseAmount('1000000000000')).toBe(1e12);
  });
  it('refuses what the API refuses: empty, zero, negative, not a number, too large', () => {
    for (const text of ['', '0', '0.0', '-5', 'abc', 'NaN', '1e3', '1000000000001'])
      expect(parseAmount(text), text).toBeNull();
  });
});
