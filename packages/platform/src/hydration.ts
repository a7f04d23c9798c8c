/**
 * Hydration: the browser adopting a page's server markup (`hydrateRoot`) instead of rendering it
 * again. Its first render must produce exactly the server's markup, so state only the browser
 * knows (the stored premium token, a stored time range) is applied right after it.
 */
import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React renders on the server and while it hydrates the server's markup, true in every
 * other render (a page rendered by the browser alone is true from its first render). A component
 * that shows browser-only state gates it on this: hydration renders what the server rendered, then
 * React renders again at once with the browser's state.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * A value read from the browser (storage), `serverValue` where the server rendered it: on the
 * server, during hydration, and never again afterwards. `read` must return the same value for
 * the same stored state (a string or a number, not a new object).
 */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(never, read, () => serverValue);
}
