import { vi } from 'vitest';
import {
  NOT_AVAILABLE,
  formatAmount,
  formatApr,
  formatCount,
  formatDay,
  formatProvenance,
  formatStale,
  formatHolders,
  formatLocaleDate,
  formatPoints,
  formatSignedPoints,
  formatTvl,
  formatTvlTick,
} from './format.ts';

describe('formatTvl', () => {
  it('shows whole dollars with grouping below 1,000 and K/M with one decimal', () => {
    expect(formatTvl(0)).toBe('$0');
    expect(formatTvl(12.6)).toBe('$13');
    expect(formatTvl(950)).toBe('$950');
    expect(formatTvl(999.4)).toBe('$999');
    expect(formatTvl(1_000)).toBe('$1.0K');
    expect(formatTvl(12_345)).toBe('$12.3K');
    expect(formatTvl(65_957)).toBe('$66.0K');
    expect(formatTvl(75_600_000)).toBe('$75.6M');
  });

  it('shows B with one decimal on strategy pages and two on the comparison page', () => {
    expect(formatTvl(4_963_000_000)).toBe('$5.0B');
    expect(formatTvl(24_412_000_000)).toBe('$24.4B');
    expect(formatTvl(4_963_000_000, 2)).toBe('$4.96B');
  });

  it('moves to the next unit instead of showing 1000.0K', () => {
    expect(formatTvl(999_960)).toBe('$1.0M');
  });

  it('keeps the sign of a negative value', () => {
    expect(formatTvl(-2_500_000)).toBe('-$2.5M');
  });

  it('reads N/A without a figure', () => {
    expect(formatTvl(null)).toBe(NOT_AVAILABLE);
    expect(formatTvl(undefined)).toBe('N/A');
    expect(formatTvl(Number.NaN)).toBe('N/A');
  });
});

describe('formatTvlTick (dollar axis labels)', () => {
  it('adds decimals when the tick step is finer than the TVL format', () => {
    const ticks = [4.8e9, 4.85e9, 4.9e9, 4.95e9, 5e9].map((v) => formatTvlTick(v, 0.05e9));
    expect(ticks).toEqual(['$4.80B', '$4.85B', '$4.90B', '$4.95B', '$5.00B']);
  });
  it('keeps one decimal when the step allows it', () => {
    expect(formatTvlTick(65_000_000, 2_500_000)).toBe('$65.0M');
    expect(formatTvlTick(24_500_000_000, 500_000_000)).toBe('$24.5B');
  });
  it('uses whole dollars below 1,000', () => {
    expect(formatTvlTick(750, 50)).toBe('$750');
  });
});

describe('formatApr', () => {
  it('shows two decimals with a percent sign, negatives as they are', () => {
    expect(formatApr(4.567)).toBe('4.57%');
    expect(formatApr(4.525882960927295)).toBe('4.53%');
    expect(formatApr(2)).toBe('2.00%');
    expect(formatApr(-1.2)).toBe('-1.20%');
  });
  it('never shows float noise as -0.00%', () => {
    expect(formatApr(-1e-15)).toBe('0.00%');
  });
  it('reads N/A without a figure', () => {
    expect(formatApr(null)).toBe('N/A');
    expect(formatApr(Number.POSITIVE_INFINITY)).toBe('N/A');
  });
});

describe('formatSignedPoints (a difference to the base rate)', () => {
  it('signs a difference with + or a true minus sign, N/A for none', () => {
    expect(formatSignedPoints(0.754)).toBe('+0.75 pp');
    expect(formatSignedPoints(-1.2)).toBe('\u22121.20 pp');
    expect(formatSignedPoints(0)).toBe('0.00 pp');
    expect(formatSignedPoints(null)).toBe('N/A');
  });
});

describe('formatPoints (risk charges, percentage points a year)', () => {
  it('shows two decimals and the unit pp', () => {
    expect(formatPoints(0.75)).toBe('0.75 pp');
    expect(formatPoints(2.0349)).toBe('2.03 pp');
    expect(formatPoints(-6.2677)).toBe('-6.27 pp');
  });
  it('shows float noise as 0.00 pp', () => {
    expect(formatPoints(1.3550430849800884e-15)).toBe('0.00 pp');
    expect(formatPoints(-1e-15)).toBe('0.00 pp');
  });
  it('reads N/A without a figure', () => {
    expect(formatPoints(undefined)).toBe('N/A');
  });
});

describe('formatHolders', () => {
  it('groups holder counts and picks singular or plural', () => {
    expect(formatHolders(12345)).toBe(`${(12345).toLocaleString()} holders`);
    expect(formatHolders(1)).toBe('1 holder');
    expect(formatHolders(null)).toBe('N/A');
  });
});

describe('formatCount', () => {
  it('groups a whole count as US English does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 240, 1234567, 20000, -4321, 99.6]) {
      expect(formatCount(n)).toBe(Math.round(n).toLocaleString('en-US'));
    }
  });
});

describe('formatDay', () => {
  it('writes an API day in US English, short or long', () => {
    expect(formatDay('2026-11-21')).toBe('Nov 21, 2026');
    expect(formatDay('2026-11-21', 'long')).toBe('November 21, 2026');
  });
  it('reads days and timestamps in UTC, so they never shift a day', () => {
    expect(formatDay(Date.UTC(2026, 10, 21))).toBe('Nov 21, 2026');
    expect(formatDay(Date.UTC(2026, 10, 21, 23, 59))).toBe('Nov 21, 2026');
  });
  it('writes a Date as its local day', () => {
    expect(formatDay(new Date(2026, 10, 22, 23, 30), 'long')).toBe('November 22, 2026');
    expect(formatDay(new Date(2026, 10, 22, 0, 10))).toBe('Nov 22, 2026');
  });
  it('returns what is not a date as it is', () => {
    expect(formatDay('not a date')).toBe('not a date');
  });
  it("says every month and day as Intl's US English does", () => {
    for (const month of ['short', 'long'] as const) {
      const intl = new Intl.DateTimeFormat('en-US', {
        year: 'numeric',
        month,
        day: 'numeric',
        timeZone: 'UTC',
      });
      for (let m = 0; m < 12; m++) {
        for (const d of [1, 9, 28]) {
          const time = Date.UTC(2026, m, d);
          expect(formatDay(time, month)).toBe(intl.format(time));
        }
      }
    }
  });
});

describe('formatLocaleDate', () => {
  it("is the reader's locale date", () => {
    const ts = Date.UTC(2026, 10, 21, 12);
    expect(formatLocaleDate(ts)).toBe(new Date(ts).toLocaleDateString());
  });
});

describe('formatProvenance', () => {
  it('names DeFiLlama and the data date for an imported series', () => {
    expect(formatProvenance({ kind: 'defillama', asOf: '2026-11-23' })).toBe(
      'Data: DeFiLlama, as of Nov 23, 2026',
    );
  });
  it('keeps the sample label, with the same date format', () => {
    expect(formatProvenance({ kind: 'sample', asOf: '2026-11-21' })).toBe(
      'Sample data as of Nov 21, 2026',
    );
    expect(formatProvenance({ kind: 'sample', asOf: null })).toBe('Sample data');
  });
  it('dates rows an operator typed without naming a provider', () => {
    expect(formatProvenance({ kind: 'operator', asOf: '2026-11-20' })).toBe(
      'Data as of Nov 20, 2026',
    );
    expect(formatProvenance({ kind: 'defillama', asOf: null })).toBe('Data: DeFiLlama');
  });
  it('says No live data for a series without live data, with no date', () => {
    expect(formatProvenance({ kind: 'none', asOf: null })).toBe('No live data');
    expect(formatProvenance({ kind: 'none', asOf: '2026-11-21' })).toBe('No live data');
  });
});

describe('formatStale', () => {
  it('says since when a series has not been updated', () => {
    expect(formatStale({ asOf: '2026-11-20' })).toBe('Stale: no new data since Nov 20, 2026');
    expect(formatStale({ asOf: null })).toBe('Stale: no data yet');
  });
});

describe('formatAmount', () => {
  it('dollars with cents and grouping, ether with four decimals', () => {
    expect(formatAmount(1234.567, 'USD')).toBe('$1,234.57');
    expect(formatAmount(0.041234, 'ETH')).toBe('0.0412 ETH');
    expect(formatAmount(12_000, 'ETH')).toBe('12,000.0000 ETH');
  });
  it('signs a difference; a loss keeps its minus, zero has none', () => {
    expect(formatAmount(6.16, 'USD', true)).toBe('+$6.16');
    expect(formatAmount(-6.16, 'USD', true)).toBe('-$6.16');
    expect(formatAmount(-0.00001, 'ETH', true)).toBe('0.0000 ETH');
    expect(formatAmount(-2, 'ETH')).toBe('-2.0000 ETH');
  });
  it('reads as US English number formatting does, without building a number format', () => {
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    const toLocale = vi.spyOn(Number.prototype, 'toLocaleString');
    const values = [0, 0.005, 0.5, 1, 9.995, 999.999, 1000, 1234.567, 99_999.99, 1_000_000, 7.1e9];
    const written = values.flatMap((v) => [formatAmount(v, 'USD'), formatAmount(v / 7, 'ETH')]);
    expect(numberFormat).not.toHaveBeenCalled();
    expect(toLocale).not.toHaveBeenCalled();
    numberFormat.mockRestore();
    toLocale.mockRestore();
    const us = (v: number, d: number) =>
      Number(v.toFixed(d)).toLocaleString('en-US', {
        minimumFractionDigits: d,
        maximumFractionDigits: d,
      });
    expect(written).toEqual(values.flatMap((v) => [`$${us(v, 2)}`, `${us(v / 7, 4)} ETH`]));
  });
  it('no figure reads N/A', () => {
    expect(formatAmount(Number.NaN, 'USD')).toBe(NOT_AVAILABLE);
    expect(formatAmount(undefined, 'ETH')).toBe(NOT_AVAILABLE);
  });
});
