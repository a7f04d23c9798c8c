/**
 * The design tokens' colours as values, for code that cannot read CSS custom properties: antd's
 * theme and Highcharts (which paints SVG attributes). `styles/tokens.css` declares the same
 * colours as `--color-*` properties for stylesheets; `theme.test.ts` keeps the two equal.
 */
export const colors = {
  bg: '#f6f8fb',
  surface: '#ffffff',
  surfaceMuted: '#eef2f7',
  border: '#dde3ec',
  text: '#0f1b2d',
  textMuted: '#4a5a70',
  navy: '#0b1f3a',
  primary: '#0f62fe',
  primaryHover: '#0b4fd1',
  accent: '#10b981',
  great: '#059669',
  danger: '#dc2626',
  warning: '#d97706',
  yellow: '#ca8a04',
  blue: '#2563eb',
  orange: '#ea580c',
  /** A series drawn behind the main one (the TVL area under the premium report's APR line). */
  chartMuted: '#94a3b8',
} as const;

/** antd theme shared by every remote (antd itself is not shared; each remote wraps its tree). */
export const antdThemeTokens = {
  colorPrimary: colors.primary,
  colorSuccess: colors.great,
  colorError: colors.danger,
  colorWarning: colors.warning,
  colorText: colors.text,
  colorTextSecondary: colors.textMuted,
  borderRadius: 8,
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
} as const;

/** Toasts last 4-5 s; tooltips open after 700 ms and skip-delay 300 ms. */
export const TOAST_DURATION_S = 4.5;
export const TOOLTIP_OPEN_DELAY_S = 0.7;
export const TOOLTIP_SKIP_DELAY_S = 0.3;
