import { memo, useMemo } from 'react';
import { incidentPlotLines, type ChartIncident } from '@yield/charts';
import { chartOptions, dailyAxis, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import { formatApr, formatLocaleDate } from '@yield/ui';

export interface CompareSeries {
  name: string;
  color: string;
  /** [timestamp ms, APR %] pairs, oldest first. */
  points: [number, number][];
  /** A benchmark: drawn grey, dotted or dashed and thinner, behind the sources. */
  benchmark?: 'ShortDot' | 'ShortDash';
}

export interface CompareChartProps {
  series: readonly CompareSeries[];
  incidents: readonly ChartIncident[];
  height: number;
}

/**
 * The daily APR of the compared sources (one line each) and of their DeFi Base Rate(s), with
 * the sources' incidents marked on their date. One shared tooltip per day.
 */
function CompareChart({ series, incidents, height }: CompareChartProps) {
  const options = useMemo<Highcharts.Options>(
    () =>
      chartOptions({
        chart: { height, type: 'line' },
        legend: { enabled: true, itemStyle: { fontWeight: '500' } },
        xAxis: {
          ...dailyAxis(formatLocaleDate),
          plotLines: incidentPlotLines(incidents, { color: colors.danger }),
        },
        yAxis: {
          title: { text: undefined },
          minRange: 0.5,
          labels: {
            formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
              return formatApr(Number(this.value));
            },
          },
        },
        tooltip: {
          shared: true,
          formatter(this: Highcharts.Point) {
            const rows = (this.points ?? [this]).map(
              (p) => `${p.series.name}: <b>${formatApr(Number(p.y))}</b>`,
            );
            return [formatLocaleDate(Number(this.x)), ...rows].join('<br/>');
          },
        },
        plotOptions: {
          series: { animation: false, marker: { enabled: false } },
        },
        series: series.map((s) => ({
          type: 'line' as const,
          name: s.name,
          color: s.color,
          data: s.points,
          lineWidth: s.benchmark ? 1.5 : 2,
          dashStyle: s.benchmark ?? ('Solid' as const),
          zIndex: s.benchmark ? 0 : 1,
        })),
      }),
    [series, incidents, height],
  );
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}

// Memoised: a parent re-render with the same data must not make Highcharts redraw the chart.
export default memo(CompareChart);
