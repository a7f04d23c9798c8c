import type { HistoryPoint } from '@yield/contract';
import { colors } from '@yield/platform';
import { incidentPlotLines, type ChartIncident } from '@yield/charts';
import { chartOptions, dailyAxis, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { formatApr, formatDay, formatTvl } from '@yield/ui';

export interface PerformanceChartProps {
  history: readonly HistoryPoint[];
  height?: number;
  /** The source's incidents, marked on their date. */
  incidents?: readonly ChartIncident[];
}

/** Daily APR (line, left axis) over TVL (area, right axis): is the yield steady, is money leaving? */
export default function PerformanceChart({
  history,
  height = 300,
  incidents = [],
}: PerformanceChartProps) {
  const options = chartOptions({
    chart: { height },
    legend: {
      enabled: true,
      align: 'left',
      verticalAlign: 'top',
      itemStyle: { fontWeight: '500' },
    },
    xAxis: {
      ...dailyAxis(formatDay),
      plotLines: incidentPlotLines(incidents, { color: colors.danger }),
    },
    yAxis: [
      {
        title: { text: undefined },
        labels: {
          formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
            // Axis ticks are round numbers: "8%" reads faster than "8.00%".
            return `${Number(this.value)}%`;
          },
        },
      },
      {
        title: { text: undefined },
        opposite: true,
        gridLineWidth: 0,
        min: 0,
        labels: {
          formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
            return formatTvl(Number(this.value)).replace(/\.0(?=[KMB])/, '');
          },
        },
      },
    ],
    tooltip: {
      shared: true,
      formatter(this: Highcharts.Point) {
        const points = this.points ?? [this];
        const rows = points.map((p) =>
          p.series.name === 'APR'
            ? `APR: <b>${formatApr(Number(p.y))}</b>`
            : `TVL: <b>${formatTvl(Number(p.y))}</b>`,
        );
        return [formatDay(Number(this.x)), ...rows].join('<br/>');
      },
    },
    plotOptions: {
      series: { animation: false, marker: { enabled: false } },
    },
    series: [
      {
        type: 'area',
        name: 'TVL',
        yAxis: 1,
        color: colors.chartMuted,
        fillOpacity: 0.18,
        lineWidth: 1,
        data: history.map((p) => [p.timestamp, p.tvl]),
      },
      {
        type: 'line',
        name: 'APR',
        yAxis: 0,
        color: colors.primary,
        lineWidth: 2,
        data: history.map((p) => [p.timestamp, p.apr]),
      },
    ],
  });
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}
