import type { ToastKind } from './antd-toast.tsx';
import { loadOnce } from './load-once.ts';

/**
 * The one way remotes show the site's toasts. antd is the cost of a toast (~75-90 KB gzip and most
 * of the main-thread time of a form page on a phone), and a toast only ever follows a submit. So
 * it loads when a saver starts on a form (`warmUpToasts`), off the critical path, and is ready by
 * the time the server answers.
 */
const loadToasts = loadOnce(() => import('./antd-toast.tsx'));

function show(kind: ToastKind, title: string, description: string): void {
  loadToasts().then(
    (toasts) => toasts.showAntdToast(kind, title, description),
    (error: unknown) => console.error('toast could not load', title, description, error),
  );
}

/** The site's toasts (title and message): antd notifications, 4.5 s, theme of the other remotes. */
export const toast = {
  success: (title: string, description: string) => show('success', title, description),
  error: (title: string, description: string) => show('error', title, description),
};

/** Starts loading the toasts without waiting (a failure is retried when a toast is shown). */
export function warmUpToasts(): void {
  loadToasts().catch(() => undefined);
}
