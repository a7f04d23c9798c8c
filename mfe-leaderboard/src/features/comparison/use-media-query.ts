import { useCallback, useSyncExternalStore } from 'react';

/** Breakpoints that change the comparison's layout. */
export const NARROW_QUERY = '(max-width: 1023.98px)';
export const CHART_MOBILE_QUERY = '(max-width: 767.98px)';
export const SHORT_NAMES_QUERY = '(max-width: 599.98px)';

/** Whether a media query matches, read synchronously on first render so nothing jumps. */
export function useMediaQuery(query: string): boolean {
  return useMediaQueryOrUnknown(query) ?? false;
}

/**
 * The same, or null where there is no screen to ask (the server's first paint): the caller then
 * renders every variant and lets CSS media queries pick one.
 */
export function useMediaQueryOrUnknown(query: string): boolean | null {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore<boolean | null>(
    subscribe,
    () => window.matchMedia(query).matches,
    () => null,
  );
}
