/**
 * A chunk loaded on demand, once: every call shares the same import; a failed import is forgotten,
 * so the next call tries again (the toasts, the comparison's popover and dialog).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}
