/**
 * The value of 10,000 following each line, month by month (Highcharts, loaded lazily: the table
 * above it renders without waiting for it).
 */
import { useMemo } from 'react';
import { chartOptions, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import type { TrackRecord } from '@yield/contract';
import { formatDay } from '@yield/ui';

type TypeRecord = TrackRecord['types'][number];

const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

export default function TrackRecordChart({
  record,
  startValue,
}: {
  record: TypeRecord;
  startValue: number;
}) {
  const phone = typeof window !== 'undefined' && window.matchMedia?.('(max-width: 520px)').matches;
  const options = useMemo<Highcharts.Options>(() => {
    const first = record.months[0]!;
    const line = (pick: (m: TypeRecord['months'][number]) => number) => [
      [day(first.decidedOn), startValue],
      ...record.months.map((m) => [day(m.until), pick(m)]),
    ];
    const money = record.type === 'stablecoin' ? '$' : '';
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
          name: 'Top risk-adjusted pick',
          color: colors.great,
          // Under the APR line and wider, so both show where the two picks were the same.
          lineWidth: 5,
          zIndex: 1,
          data: line((m) => m.value.riskAdjusted),
        },
        {
          type: 'line',
          name: 'Top APR pick',
          color: colors.orange,
          lineWidth: 2,
          zIndex: 2,
          data: line((m) => m.value.rawApy),
        },
        {
          type: 'line',
          name: 'DeFi Base Rate',
          color: colors.navy,
          dashStyle: 'ShortDash',
          data: line((m) => m.value.base),
        },
      ],
    });
  }, [record, startValue, phone]);
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}
