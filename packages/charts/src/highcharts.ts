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
import { niceTicks } from './nice-ticks.ts';

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
    // Each axis ticks at its own round values; aligned ticks would bend a second axis to odd ones.
    alignTicks: false,
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
 * The ticks of a value axis: round values (`niceTicks`), about one per `tickPixelInterval` of the
 * axis (Highcharts' own default, 72 px, when it has none), covering the data so that it still
 * uses the plot (an axis that starts or ends on a tick grows to it; one that does not drops the
 * outer tick). Installed by `chartOptions` on every value axis that sets no ticks of its own.
 */
export function roundTickPositioner(this: Highcharts.Axis, min: number, max: number): number[] {
  const pixels = this.options?.tickPixelInterval ?? 72;
  const steps = this.len > 0 ? Math.min(8, Math.max(2, Math.round(this.len / pixels))) : 4;
  return niceTicks(min, max, { steps, cover: true });
}

type AxisOptions = Highcharts.XAxisOptions | Highcharts.YAxisOptions;

/** A value axis without ticks of its own gets round ones; dates and categories keep theirs. */
function withRoundTicks<T extends AxisOptions>(axis: T): T {
  const keepsOwn =
    axis.type === 'datetime' ||
    axis.type === 'category' ||
    axis.type === 'logarithmic' ||
    axis.categories !== undefined ||
    axis.tickPositions !== undefined ||
    axis.tickPositioner !== undefined ||
    axis.tickInterval !== undefined;
  return keepsOwn ? axis : { ...axis, tickPositioner: roundTickPositioner };
}

function roundAxes<T extends AxisOptions>(axes: T | T[] | undefined): T | T[] | undefined {
  if (axes === undefined) return undefined;
  return Array.isArray(axes) ? axes.map(withRoundTicks) : withRoundTicks(axes);
}

/**
 * A chart's options on top of the base ones. Its `chart` entries are merged into the base's
 * (size, type, spacing, events), every other entry replaces the base's. Every value axis ticks at
 * round values (`roundTickPositioner`) unless the chart sets its ticks itself.
 */
export function chartOptions(options: Highcharts.Options): Highcharts.Options {
  const merged: Highcharts.Options = {
    ...baseChartOptions,
    ...options,
    chart: { ...baseChartOptions.chart, ...options.chart },
  };
  // Axes a chart leaves to Highcharts' defaults get round ticks too (a pie ignores them).
  merged.xAxis = roundAxes(options.xAxis ?? {});
  merged.yAxis = roundAxes(options.yAxis ?? {});
  return merged;
}
