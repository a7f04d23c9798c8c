import { act, renderHook } from '@testing-library/react';
import { isTimeRange } from '@yield/contract/constants';
import { readTimeRange, timeRangeStorageKey, useTimeRange, writeTimeRange } from './time-range.ts';

beforeEach(() => window.localStorage.clear());

describe('time range persistence', () => {
  it('keys the range by the lower-cased strategy name followed by TimeRange', () => {
    expect(timeRangeStorageKey('Lido Finance')).toBe('lido financeTimeRange');
    expect(timeRangeStorageKey('Liquity Protocol')).toBe('liquity protocolTimeRange');
  });

  it('defaults to 30D when nothing is stored', () => {
    expect(readTimeRange('Lido Finance')).toBe('30D');
  });

  it('reads back what was written, per strategy', () => {
    writeTimeRange('Lido Finance', '7D');
    writeTimeRange('Sky Spark Protocol', '180D');
    expect(window.localStorage.getItem('lido financeTimeRange')).toBe('7D');
    expect(readTimeRange('Lido Finance')).toBe('7D');
    expect(readTimeRange('Sky Spark Protocol')).toBe('180D');
    expect(readTimeRange('Gauntlet USD Alpha')).toBe('30D');
  });

  it('ignores a stored value that is not one of 7D/30D/90D/180D', () => {
    window.localStorage.setItem('lido financeTimeRange', '1Y');
    expect(readTimeRange('Lido Finance')).toBe('30D');
    expect(isTimeRange('90D')).toBe(true);
    expect(isTimeRange('90d')).toBe(false);
  });

  it('falls back to 30D when storage throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    } as unknown as Storage;
    expect(readTimeRange('Lido Finance', broken)).toBe('30D');
    expect(() => writeTimeRange('Lido Finance', '7D', broken)).not.toThrow();
  });

  it('useTimeRange starts from storage and remembers each change', () => {
    window.localStorage.setItem('lido financeTimeRange', '90D');
    const { result } = renderHook(() => useTimeRange('Lido Finance'));
    expect(result.current[0]).toBe('90D');
    act(() => result.current[1]('7D'));
    expect(result.current[0]).toBe('7D');
    expect(window.localStorage.getItem('lido financeTimeRange')).toBe('7D');
  });
});
