import { memo } from 'react';
import HighchartsReact from 'highcharts-react-official';
import { baseChartOptions, Highcharts } from './highcharts-setup.ts';
import { formatDate, formatPercent, formatUsd, formatUsdTick } from '../lib/format.ts';

export type HistoryKind = 'apr' | 'tvl';

export interface HistoryChartProps {
  kind: HistoryKind;
  /** [timestamp ms, value] pairs, oldest first. Empty draws an empty chart (the caller overlays N/A). */
  points: [number, number][];
  height?: number;
  color?: string;
}

const SERIES_NAME: Record<HistoryKind, string> = { apr: 'APR', tvl: 'TVL' };

/** Distance between two neighbouring ticks (0 when there is only one). */
function tickStep(positions: readonly number[] | undefined): number {
  return positions && positions.length > 1 ? Math.abs(positions[1]! - positions[0]!) : 0;
}

function formatValue(kind: HistoryKind, value: number): string {
  return kind === 'apr' ? formatPercent(value) : formatUsd(value);
}

/** APR or TVL history as a line chart: x the locale date, y percent or compact dollars. */
function HistoryChart({ kind, points, height = 300, color = '#0f62fe' }: HistoryChartProps) {
  const options: Highcharts.Options = {
    ...baseChartOptions,
    chart: { ...baseChartOptions.chart, height, type: 'line' },
    legend: { enabled: false },
    xAxis: {
      type: 'datetime',
      labels: {
        formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
          return formatDate(Number(this.value));
        },
      },
      tickPixelInterval: 110,
    },
    yAxis: {
      title: { text: undefined },
      // A flat rate (a governance-set savings rate) still gets a readable axis around it.
      minRange: kind === 'apr' ? 0.5 : undefined,
      labels: {
        formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
          const value = Number(this.value);
          return kind === 'apr' ? formatPercent(value) : formatUsdTick(value, tickStep(this.axis.tickPositions));
        },
      },
    },
    tooltip: {
      formatter(this: Highcharts.Point) {
        return `${formatDate(Number(this.x))}<br/><b>${SERIES_NAME[kind]}: ${formatValue(kind, Number(this.y))}</b>`;
      },
    },
    plotOptions: {
      series: { animation: false, marker: { enabled: points.length <= 31, radius: 2.5 } },
    },
    series: [{ type: 'line', name: SERIES_NAME[kind], data: points, color, lineWidth: 2 }],
  };
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}

// Memoised: a parent re-render with the same data must not make Highcharts redraw the chart.
export default memo(HistoryChart);
