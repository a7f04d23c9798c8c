import type { ToastKind } from './antd-toast.tsx';

type ToastModule = typeof import('./antd-toast.tsx');
let loading: Promise<ToastModule> | null = null;

/**
 * antd is the cost of a toast (~90 KB gzip and most of the main-thread time of /pricing on a
 * phone), and a toast only ever follows a submit. So it loads when a saver starts on a form, off
 * the critical path, and is ready by the time the server answers.
 */
export function preloadToasts(): Promise<ToastModule> {
  loading ??= import('./antd-toast.tsx').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

function show(kind: ToastKind, title: string, description: string): void {
  preloadToasts().then(
    (toasts) => toasts.showAntdToast(kind, title, description),
    (error: unknown) => console.error('toast could not load', title, description, error),
  );
}

/** The spec's toasts (section 8 texts): antd notifications, 4.5 s, theme of the other remotes. */
export const toast = {
  success: (title: string, description: string) => show('success', title, description),
  error: (title: string, description: string) => show('error', title, description),
};

/** Starts loading the toasts without waiting (a failure is retried when a toast is shown). */
export function warmUpToasts(): void {
  preloadToasts().catch(() => undefined);
}
