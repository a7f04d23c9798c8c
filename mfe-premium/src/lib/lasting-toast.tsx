import { ConfigProvider, notification } from 'antd';
import { antdThemeTokens, TOAST_DURATION_S } from '@yield/platform';

let themed = false;

/**
 * A success toast that outlives the page that raised it. `useToast()` renders inside the page's
 * AntdRoot, so a page that navigates away 1.5 s later (premium activation) would cut its 4.5 s
 * toast short; antd's static holder lives on document.body instead, themed the same way.
 */
export function lastingSuccessToast(title: string, description: string): void {
  if (!themed) {
    ConfigProvider.config({
      holderRender: (children) => (
        <ConfigProvider theme={{ token: antdThemeTokens }}>{children}</ConfigProvider>
      ),
    });
    themed = true;
  }
  notification.success({
    title,
    description,
    duration: TOAST_DURATION_S,
    placement: 'topRight',
    showProgress: false,
    role: 'status',
  });
}
