/**
 * The one place the site touches Highcharts. Import it only from chart modules that are loaded
 * lazily (`lazy(() => import('./SomeChart.tsx'))`): Highcharts (~100 KB gzip, one federation
 * singleton for the shell and every remote) then never sits on a page's critical path. The rest
 * of the kit (`@yield/charts`) carries no Highcharts and may be imported anywhere.
 */
import Highcharts from 'highcharts';
import HighchartsReact from 'highcharts-react-official';
// The palette's CSS variables as a static file: without it Highcharts computes and injects them
// for every chart it draws (~70 ms per chart on a slow machine). See `palette` below.
import 'highcharts/css/highcharts-palette.css';

export { Highcharts, HighchartsReact };

/** Options every chart of the site starts from. */
export const baseChartOptions = {
  credits: { enabled: false },
  title: { text: undefined },
  // Every chart carries its own text alternative (figure caption, summary or data table); this
  // avoids the console warning about the accessibility module, which would cost ~30 KB more.
  accessibility: { enabled: false },
  // The palette CSS is the static file imported above, and the site has no dark theme: charts
  // stay light whatever the reader's system setting.
  palette: { injectCSS: false, colorScheme: 'light' },
  chart: {
    backgroundColor: 'transparent',
    style: { fontFamily: 'inherit' },
    spacing: [12, 8, 8, 8],
  },
} satisfies Highcharts.Options;

/**
 * The x axis of a daily series: one label per ~110 px, each day written by `formatDay` (a ms
 * timestamp in, a date out).
 */
export function dailyAxis(formatDay: (timestamp: number) => string): Highcharts.XAxisOptions {
  return {
    type: 'datetime',
    tickPixelInterval: 110,
    labels: {
      formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
        return formatDay(Number(this.value));
      },
    },
  };
}

/**
 * A chart's options on top of the base ones. Its `chart` entries are merged into the base's
 * (size, type, spacing, events), every other entry replaces the base's.
 */
export function chartOptions(options: Highcharts.Options): Highcharts.Options {
  return {
    ...baseChartOptions,
    ...options,
    chart: { ...baseChartOptions.chart, ...options.chart },
  };
}
