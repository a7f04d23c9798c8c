import { memo } from 'react';
import type { Holding } from '@yield/contract';
import { chartOptions, Highcharts, HighchartsReact } from '@yield/charts/highcharts';

export interface AllocationPieProps {
  holdings: readonly Holding[];
  /** Pie diameter: 200 px by default, 250 on strategy pages. */
  size?: number;
  /** Total height: the pie plus room for its legend (the caller reserves the same height). */
  height: number;
}

/** Underlying assets as a pie with a hover tooltip and a legend. */
function AllocationPie({ holdings, size = 250, height }: AllocationPieProps) {
  const options = chartOptions({
    chart: { type: 'pie', height },
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
  });
  return <HighchartsReact highcharts={Highcharts} options={options} />;
}

// Memoised: a parent re-render with the same data must not make Highcharts redraw the chart.
export default memo(AllocationPie);
