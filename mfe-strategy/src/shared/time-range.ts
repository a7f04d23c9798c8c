import { useCallback, useState } from 'react';
import { DEFAULT_TIME_RANGE, isTimeRange, type TimeRange } from '@yield/contract/constants';

/** The range is stored under the lower-cased strategy name followed by TimeRange. */
export function timeRangeStorageKey(strategyName: string): string {
  return `${strategyName.toLowerCase()}TimeRange`;
}

/** The remembered range, or 30D when none is stored or the stored value is not a valid range. */
export function readTimeRange(
  strategyName: string,
  storage: Storage | undefined = safeStorage(),
): TimeRange {
  try {
    const stored = storage?.getItem(timeRangeStorageKey(strategyName));
    return isTimeRange(stored) ? stored : DEFAULT_TIME_RANGE;
  } catch {
    // Storage can be blocked (private mode, disabled cookies): fall back to the default.
    return DEFAULT_TIME_RANGE;
  }
}

export function writeTimeRange(
  strategyName: string,
  range: TimeRange,
  storage: Storage | undefined = safeStorage(),
): void {
  try {
    storage?.setItem(timeRangeStorageKey(strategyName), range);
  } catch {
    // Not remembering the range is acceptable; breaking the page is not.
  }
}

function safeStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The strategy's time range, read once from storage and written back on every change. */
export function useTimeRange(strategyName: string): [TimeRange, (range: TimeRange) => void] {
  const [range, setRange] = useState<TimeRange>(() => readTimeRange(strategyName));
  const select = useCallback(
    (next: TimeRange) => {
      setRange(next);
      writeTimeRange(strategyName, next);
    },
    [strategyName],
  );
  return [range, select];
}
