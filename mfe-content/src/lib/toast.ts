import type { ToastKind } from './antd-toast.tsx';

type ToastModule = typeof import('./antd-toast.tsx');
let loading: Promise<ToastModule> | null = null;

/**
 * antd is most of the weight of a page with a form (~75 KB gzip, most of /subscribe's main-thread
 * time), and a toast only ever follows a submit. It loads when the saver starts typing, off the
 * critical path, and is ready by the time the server answers.
 */
export function loadToasts(): Promise<ToastModule> {
  loading ??= import('./antd-toast.tsx').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Starts loading without waiting; a failure is retried when a toast is shown. */
export function warmUpToasts(): void {
  loadToasts().catch(() => undefined);
}

function show(kind: ToastKind, title: string, description: string): void {
  loadToasts().then(
    (toasts) => toasts.showAntdToast(kind, title, description),
    (error: unknown) => console.error('toast could not load', title, description, error),
  );
}

/** The spec's toasts (section 8 texts): antd notifications, 4.5 s. */
export const toast = {
  success: (title: string, description: string) => show('success', title, description),
  error: (title: string, description: string) => show('error', title, description),
};
