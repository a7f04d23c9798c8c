/**
 * The one place this remote touches Highcharts. Imported only by the lazily loaded chart modules,
 * so the library (a shared singleton with the other remotes) never sits on a page's critical path.
 */
import Highcharts from 'highcharts';
// The palette's CSS variables as a static file: without it Highcharts computes and injects them
// for every chart it draws (~70 ms per chart on a slow machine).
import 'highcharts/css/highcharts-palette.css';

export { Highcharts };

/** Options every chart of this remote starts from. */
export const baseChartOptions: Highcharts.Options = {
  credits: { enabled: false },
  title: { text: undefined },
  // The charts carry their own text alternative (aria-label + figure caption); this avoids the
  // console warning about the accessibility module, which would cost ~30 KB more.
  accessibility: { enabled: false },
  // The site has no dark theme: keep charts light whatever the reader's system setting.
  palette: { injectCSS: false, colorScheme: 'light' },
  chart: {
    backgroundColor: 'transparent',
    style: { fontFamily: 'inherit' },
    spacing: [12, 8, 8, 8],
  },
};
