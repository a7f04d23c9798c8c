import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { antdThemeTokens } from '@yield/platform';

/**
 * Wraps a remote's antd components in the shared theme. Toasts do not need it: they render from
 * antd's static holder (`toast` in this package), themed the same way.
 */
export function AntdRoot({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={{ token: antdThemeTokens }}>{children}</ConfigProvider>;
}
