/**
 * The one place this remote touches Highcharts. Only the lazily loaded chart module imports it,
 * so the library (a shared singleton with the other remotes) never sits on a page's critical path.
 */
import Highcharts from 'highcharts';

export { Highcharts };

export const baseChartOptions: Highcharts.Options = {
  credits: { enabled: false },
  title: { text: undefined },
  // The chart carries its own text alternative (caption, summary and data table); this avoids
  // the console warning about the accessibility module, which would cost ~30 KB more.
  accessibility: { enabled: false },
  chart: {
    backgroundColor: 'transparent',
    style: { fontFamily: 'inherit' },
    spacing: [12, 8, 8, 8],
  },
};
