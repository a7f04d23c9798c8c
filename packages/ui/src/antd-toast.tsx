import { ConfigProvider, notification } from 'antd';
import { antdThemeTokens, TOAST_DURATION_S } from '@yield/platform';

// antd's static holder lives on document.body, so a toast outlives the page that raised it (the
// activation page leaves 1.5 s after its 4.5 s success toast). Themed like every other remote.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider theme={{ token: antdThemeTokens }}>{children}</ConfigProvider>
  ),
});

export type ToastKind = 'success' | 'error';

export function showAntdToast(kind: ToastKind, title: string, description: string): void {
  notification[kind]({
    title,
    description,
    duration: TOAST_DURATION_S,
    placement: 'topRight',
    showProgress: false,
    role: kind === 'error' ? 'alert' : 'status',
  });
}
