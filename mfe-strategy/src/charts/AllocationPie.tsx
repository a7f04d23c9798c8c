import { memo } from 'react';
import HighchartsReact from 'highcharts-react-official';
import type { Holding } from '@yield/contract';
import { baseChartOptions, Highcharts } from './highcharts-setup.ts';

export interface AllocationPieProps {
  holdings: readonly Holding[];
  /** Spec section 9: pie size 200 by default, 250 on strategy pages. */
  size?: number;
  /** Total height: the pie plus room for its legend (the caller reserves the same height). */
  height: number;
}

/** Underlying assets as a pie with a hover tooltip and a legend. */
function AllocationPie({ holdings, size = 250, height }: AllocationPieProps) {
  const options: Highcharts.Options = {
    ...baseChartOptions,
    chart: { ...baseChartOptions.chart, type: 'pie', height },
    tooltip: {
      pointFormat: '<b>{point.percentage:.2f}%</b>',
    },
    legend: {
      enabled: true,
      layout: 'horizontal',
      align: 'center',
      verticalAlign: 'bottom',
      labelFormat: '{name} {y}%',
      itemStyle: { fontWeight: '500' },
    },
    plotOptions: {
      pie: {
        size,
        animation: false,
        allowPointSelect: false,
        showInLegend: true,
        dataLabels: { enabled: false },
        borderWidth: 2,
      },
    },
    series: [
      {
        type: 'pie',
        name: 'Allocation',
        data: holdings.map((h) => ({ name: h.name, y: h.percentage, color: h.color })),
      },
    ],
  };
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}

// Memoised: a parent re-render with the same data must not make Highcharts redraw the chart.
export default memo(AllocationPie);
