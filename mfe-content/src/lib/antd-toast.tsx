import { ConfigProvider, notification } from 'antd';
import { antdThemeTokens, TOAST_DURATION_S } from '@yield/platform';

// The static holder lives on document.body: a toast is themed like every other remote's and
// survives the form that raised it.
ConfigProvider.config({
  holderRender: (children) => <ConfigProvider theme={{ token: antdThemeTokens }}>{children}</ConfigProvider>,
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
