/**
 * The value of 10,000 following each line, month by month (Highcharts, loaded lazily: the table
 * above it renders without waiting for it).
 */
import { useMemo } from 'react';
import { chartOptions, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import { formatDay } from '@yield/ui';

/** A month of a track record: the holding's end and the value of each line then. */
export interface ChartMonth {
  decidedOn: string;
  until: string;
  value: { riskAdjusted: number; rawApy: number; base: number };
}

const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

const DEFAULT_NAMES = {
  riskAdjusted: 'Top risk-adjusted pick',
  rawApy: 'Top APR pick',
  base: 'DeFi Base Rate',
};

export default function TrackRecordChart({
  months,
  startValue,
  money,
  names = DEFAULT_NAMES,
}: {
  months: readonly ChartMonth[];
  startValue: number;
  /** '$' for dollars; '' for a plain number (ETH and dollar picks counted together). */
  money: string;
  names?: { riskAdjusted: string; rawApy: string; base: string };
}) {
  const phone = typeof window !== 'undefined' && window.matchMedia?.('(max-width: 520px)').matches;
  const options = useMemo<Highcharts.Options>(() => {
    const first = months[0]!;
    const line = (pick: (m: ChartMonth) => number) => [
      [day(first.decidedOn), startValue],
      ...months.map((m) => [day(m.until), pick(m)]),
    ];
    return chartOptions({
      chart: { type: 'line', height: phone ? 260 : 300 },
      xAxis: {
        type: 'datetime',
        tickPixelInterval: 90,
        labels: {
          formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
            return formatDay(Number(this.value)).replace(/ \d+,/, '');
          },
          style: { color: colors.textMuted },
        },
        lineColor: colors.border,
      },
      yAxis: {
        title: { text: undefined },
        gridLineColor: colors.border,
        labels: {
          formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
            return `${money}${Number(this.value).toLocaleString('en-US')}`;
          },
          style: { color: colors.textMuted },
        },
      },
      legend: { itemStyle: { color: colors.text, fontWeight: '600' } },
      tooltip: {
        shared: true,
        valueDecimals: 2,
        valuePrefix: money,
        xDateFormat: '%b %e, %Y',
      },
      plotOptions: { series: { marker: { radius: 3 }, animation: false } },
      series: [
        {
          type: 'line',
          name: names.riskAdjusted,
          color: colors.great,
          // Under the APR line and wider, so both show where the two picks were the same.
          lineWidth: 5,
          zIndex: 1,
          data: line((m) => m.value.riskAdjusted),
        },
        {
          type: 'line',
          name: names.rawApy,
          color: colors.orange,
          lineWidth: 2,
          zIndex: 2,
          data: line((m) => m.value.rawApy),
        },
        {
          type: 'line',
          name: names.base,
          color: colors.navy,
          dashStyle: 'ShortDash',
          data: line((m) => m.value.base),
        },
      ],
    });
  }, [months, startValue, money, names, phone]);
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}
