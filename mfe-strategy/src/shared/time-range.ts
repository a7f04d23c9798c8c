import { useCallback, useState } from 'react';
import { useBrowserValue } from '@yield/platform';
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

/**
 * The strategy's time range: the stored one until the saver picks another, written back on every
 * change. The server renders 30D; a page the browser hydrates shows 30D for its first render (the
 * server's markup) and the stored range in the render right after.
 */
export function useTimeRange(strategyName: string): [TimeRange, (range: TimeRange) => void] {
  const stored = useBrowserValue(() => readTimeRange(strategyName), DEFAULT_TIME_RANGE);
  const [chosen, setChosen] = useState<TimeRange | null>(null);
  const select = useCallback(
    (next: TimeRange) => {
      setChosen(next);
      writeTimeRange(strategyName, next);
    },
    [strategyName],
  );
  return [chosen ?? stored, select];
}
