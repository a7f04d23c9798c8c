/**
 * A pool's daily APY (left axis, %) and TVL (right axis, dollars) as a Highcharts line chart.
 * Loaded on demand by PoolPage (its own chunk; Highcharts is the shared singleton).
 */
import { memo, useMemo } from 'react';
import { chartOptions, dailyAxis, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import type { PoolHistoryDay } from '@yield/contract';
import { formatApr, formatLocaleDate, formatTvl } from '@yield/ui';

function PoolHistoryChart({ days, height }: { days: readonly PoolHistoryDay[]; height: number }) {
  const options = useMemo<Highcharts.Options>(() => {
    const at = (d: PoolHistoryDay) => Date.parse(`${d.date}T00:00:00Z`);
    return chartOptions({
      chart: { height, type: 'line' },
      legend: { enabled: true },
      xAxis: dailyAxis(formatLocaleDate),
      yAxis: [
        {
          title: { text: 'APY' },
          labels: { formatter: (ctx) => formatApr(Number(ctx.value)) },
        },
        {
          title: { text: 'TVL' },
          opposite: true,
          labels: { formatter: (ctx) => formatTvl(Number(ctx.value)) },
        },
      ],
      tooltip: {
        shared: true,
        formatter(this: Highcharts.Point) {
          const day = days.find((d) => at(d) === this.x);
          if (!day) return false;
          return `${formatLocaleDate(Number(this.x))}<br/><b>APY: ${formatApr(day.apy)}</b><br/>TVL: ${formatTvl(day.tvlUsd)}`;
        },
      },
      plotOptions: {
        series: {
          animation: false,
          marker: { enabled: undefined, enabledThreshold: 3, radius: 2 },
        },
      },
      series: [
        {
          type: 'line',
          name: 'APY',
          data: days.map((d) => [at(d), d.apy]),
          color: colors.primary,
          lineWidth: 2,
        },
        {
          type: 'line',
          name: 'TVL',
          yAxis: 1,
          data: days.map((d) => [at(d), d.tvlUsd]),
          color: colors.great,
          lineWidth: 1.5,
        },
      ],
    });
  }, [days, height]);
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}

export default memo(PoolHistoryChart);
