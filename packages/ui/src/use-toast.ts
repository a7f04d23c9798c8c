import { useMemo } from 'react';
import { App } from 'antd';
import { TOAST_DURATION_S } from '@yield/platform';

export interface Toast {
  /** A success toast: title and description (spec section 8 texts). */
  success(title: string, description: string): void;
  /** A destructive toast: title and description (spec section 8 texts). */
  error(title: string, description: string): void;
}

/** The one way remotes show the spec's toasts (antd notifications, 4.5 s). */
export function useToast(): Toast {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      success: (title, description) =>
        notification.success({ title, description, duration: TOAST_DURATION_S, role: 'status' }),
      error: (title, description) =>
        notification.error({ title, description, duration: TOAST_DURATION_S, role: 'alert' }),
    }),
    [notification],
  );
}
