import { memo } from 'react';
import { chartOptions, dailyAxis, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import { formatLocaleDate } from '@yield/ui';
import {
  AMIHUD_AXIS_MAX,
  AMIHUD_AXIS_TICKS,
  LIQUIDITY_AXIS_MAX,
  LIQUIDITY_AXIS_TICKS,
  type LiquiditySeries,
} from '../liquidity.ts';

/**
 * Exit liquidity (% of TVL, 0-5 left axis) and Amihud illiquidity (×1e11, 0-10 right axis).
 * The series arrive already clamped (liquidity 0-3%, Amihud about 3.2-7.51 ×1e-11).
 */
function LiquidityChart({ series, height = 300 }: { series: LiquiditySeries; height?: number }) {
  const options = chartOptions({
    chart: { height },
    legend: { enabled: true },
    xAxis: dailyAxis(formatLocaleDate),
    yAxis: [
      {
        min: 0,
        max: LIQUIDITY_AXIS_MAX,
        // Fixed ticks: Highcharts would otherwise round the 0-5 axis up to 0-6.
        tickPositions: LIQUIDITY_AXIS_TICKS,
        title: { text: 'Liquidity (% of TVL)' },
        labels: { format: '{value}%' },
      },
      {
        min: 0,
        max: AMIHUD_AXIS_MAX,
        tickPositions: AMIHUD_AXIS_TICKS,
        opposite: true,
        title: { text: 'Amihud illiquidity ×1e11' },
        gridLineWidth: 0,
      },
    ],
    tooltip: {
      shared: true,
      formatter(this: Highcharts.Point) {
        const rows = (this.points ?? [])
          .map((p) =>
            p.series.index === 0
              ? `Liquidity: <b>${Number(p.y).toFixed(2)}%</b>`
              : `Amihud ×1e11: <b>${Number(p.y).toFixed(2)}</b>`,
          )
          .join('<br/>');
        return `${formatLocaleDate(Number(this.x))}<br/>${rows}`;
      },
    },
    plotOptions: { series: { animation: false, marker: { enabled: false } } },
    series: [
      {
        type: 'line',
        name: 'Liquidity (%)',
        data: series.liquidity,
        yAxis: 0,
        color: colors.great,
        lineWidth: 2,
      },
      {
        type: 'line',
        name: 'Amihud ×1e11',
        data: series.amihud,
        yAxis: 1,
        color: colors.primary,
        dashStyle: 'ShortDash',
        lineWidth: 2,
      },
    ],
  });
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}

// Memoised: a parent re-render with the same data must not make Highcharts redraw the chart.
export default memo(LiquidityChart);
