import HighchartsReact from 'highcharts-react-official';
import type { HistoryPoint } from '@yield/contract';
import { baseChartOptions, Highcharts } from './highcharts-setup.ts';
import { formatDay, formatPercent, formatUsd } from '../lib/format.ts';

export interface PerformanceChartProps {
  history: readonly HistoryPoint[];
  height?: number;
}

const APR_COLOR = '#0f62fe';
const TVL_COLOR = '#94a3b8';

/** Daily APR (line, left axis) over TVL (area, right axis): is the yield steady, is money leaving? */
export default function PerformanceChart({ history, height = 300 }: PerformanceChartProps) {
  const options: Highcharts.Options = {
    ...baseChartOptions,
    chart: { ...baseChartOptions.chart, height },
    legend: {
      enabled: true,
      align: 'left',
      verticalAlign: 'top',
      itemStyle: { fontWeight: '500' },
    },
    xAxis: {
      type: 'datetime',
      tickPixelInterval: 110,
      labels: {
        formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
          return formatDay(Number(this.value));
        },
      },
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
            return formatUsd(Number(this.value)).replace(/\.0(?=[KMB])/, '');
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
            ? `APR: <b>${formatPercent(Number(p.y))}</b>`
            : `TVL: <b>${formatUsd(Number(p.y))}</b>`,
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
        color: TVL_COLOR,
        fillOpacity: 0.18,
        lineWidth: 1,
        data: history.map((p) => [p.timestamp, p.tvl]),
      },
      {
        type: 'line',
        name: 'APR',
        yAxis: 0,
        color: APR_COLOR,
        lineWidth: 2,
        data: history.map((p) => [p.timestamp, p.apr]),
      },
    ],
  };
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}
