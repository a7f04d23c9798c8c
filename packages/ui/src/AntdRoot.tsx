import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { antdThemeTokens, TOAST_DURATION_S } from '@yield/platform';

/**
 * Wraps a remote's page in the shared antd theme and an antd App (message/notification context).
 * Every exposed page of a remote that uses antd renders inside one of these.
 */
export function AntdRoot({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={{ token: antdThemeTokens }}>
      <App
        component={false}
        notification={{ placement: 'topRight', duration: TOAST_DURATION_S, showProgress: false }}
        message={{ duration: TOAST_DURATION_S }}
      >
        {children}
      </App>
    </ConfigProvider>
  );
}
