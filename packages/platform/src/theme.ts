/** antd theme shared by every remote (antd itself is not shared; each remote wraps its tree). */
export const antdThemeTokens = {
  colorPrimary: '#0f62fe',
  colorSuccess: '#059669',
  colorError: '#dc2626',
  colorWarning: '#d97706',
  colorText: '#0f1b2d',
  colorTextSecondary: '#4a5a70',
  borderRadius: 8,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
} as const;

/** Spec section 9: toasts last 4-5 s; tooltips open after 700 ms and skip-delay 300 ms. */
export const TOAST_DURATION_S = 4.5;
export const TOOLTIP_OPEN_DELAY_S = 0.7;
export const TOOLTIP_SKIP_DELAY_S = 0.3;
