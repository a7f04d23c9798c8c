/**
 * The risk-versus-reward scatter (Highcharts). Loaded lazily: Highcharts never sits on the
 * critical path, and the tables render without waiting for it.
 */
import { useMemo } from 'react';
import { chartOptions, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import { baseRateSlope, chartAxes, formatApr, formatPoints, type ChartPoint } from './model.ts';
import { pointColor, pointRadius, pointSymbol } from './point-style.ts';

export interface RiskRewardChartProps {
  points: ChartPoint[];
  mobile: boolean;
  selectedKey: string | null;
  onSelect: (key: string | null) => void;
}

/** The theme's colours (the legend above the chart uses the same tokens in CSS). */
const COLORS = {
  base: colors.navy,
  grid: colors.border,
  text: colors.textMuted,
};

interface PointOptions extends Highcharts.PointOptionsObject {
  custom: {
    key: string;
    riskAdjusted: number;
    great: boolean;
    isBaseRate: boolean;
    hasIncident: boolean;
    hasWarning: boolean;
  };
}

function toPoint(p: ChartPoint, selectedKey: string | null, mobile: boolean): PointOptions {
  const selected = p.key === selectedKey;
  return {
    x: p.risk,
    y: p.reward,
    name: p.name,
    color: pointColor(p),
    marker: {
      symbol: pointSymbol(p),
      radius: pointRadius(mobile, selected),
      lineWidth: selected ? 3 : 1,
      lineColor: selected ? colors.text : colors.surface,
    },
    custom: {
      key: p.key,
      riskAdjusted: p.riskAdjusted,
      great: p.great,
      isBaseRate: p.isBaseRate,
      hasIncident: p.hasIncident,
      hasWarning: p.hasWarning,
    },
  };
}

export default function RiskRewardChart({
  points,
  mobile,
  selectedKey,
  onSelect,
}: RiskRewardChartProps) {
  const options = useMemo<Highcharts.Options>(() => {
    const axes = chartAxes(points);
    const slope = baseRateSlope(points);
    const slopeLine =
      slope !== null
        ? [
            [0, 0],
            [axes.x.max, slope * axes.x.max],
          ]
        : [];
    const axisLabelStyle = { color: COLORS.text, fontSize: mobile ? '11px' : '12px' };
    const pointLabels = {
      formatter: function (this: Highcharts.AxisLabelsFormatterContextObject) {
        // One decimal on phones, where five two-decimal labels do not fit under the chart.
        return `${Number(this.value).toFixed(mobile ? 1 : 2)}%`;
      },
    };
    return chartOptions({
      chart: {
        type: 'scatter',
        // 600x400; under 768 px the chart fills the width at a lower height. The frame caps the
        // width at 600 px; narrower columns get the full width they have.
        width: null,
        height: mobile ? 320 : 400,
        spacing: mobile ? [8, 4, 8, 4] : [12, 12, 12, 12],
        animation: false,
        events: {
          // A click on the plot background (not on a point) clears the selection.
          click: () => onSelect(null),
        },
      },
      legend: { enabled: false },
      xAxis: {
        min: axes.x.min,
        max: axes.x.max,
        tickPositions: axes.x.tickPositions,
        gridLineWidth: 1,
        gridLineColor: COLORS.grid,
        startOnTick: false,
        endOnTick: false,
        showLastLabel: true,
        title: { text: 'Risk (30d APR − risk-adjusted APR)', style: axisLabelStyle },
        labels: { style: axisLabelStyle, ...pointLabels },
      },
      yAxis: {
        min: axes.y.min,
        max: axes.y.max,
        tickPositions: axes.y.tickPositions,
        gridLineWidth: 1,
        gridLineColor: COLORS.grid,
        startOnTick: false,
        endOnTick: false,
        showLastLabel: true,
        title: { text: mobile ? 'Reward (30d APR)' : 'Reward (30-day APR)', style: axisLabelStyle },
        labels: { style: axisLabelStyle, ...pointLabels },
      },
      tooltip: {
        useHTML: false,
        outside: false,
        formatter: function (this: Highcharts.Point) {
          const custom = (this.options as PointOptions).custom;
          const tag = custom.isBaseRate
            ? 'Benchmark'
            : custom.hasIncident
              ? 'Active incident'
              : custom.great
                ? 'GREAT: beats the base rate per unit of risk'
                : '';
          return [
            `<b>${this.name}</b>`,
            custom.hasWarning ? '<i>Warning detected from data</i>' : '',
            `30d APR: ${formatApr(this.y ?? null)}`,
            `Risk: ${formatPoints(Number(this.x))}`,
            `Risk-adjusted APR: ${formatApr(custom.riskAdjusted)}`,
            tag ? `<i>${tag}</i>` : '',
          ]
            .filter(Boolean)
            .join('<br/>');
        },
      },
      plotOptions: {
        series: { animation: false, stickyTracking: false },
        scatter: {
          cursor: 'pointer',
          marker: {
            states: { hover: { enabled: true, radiusPlus: 4, lineWidthPlus: 1 } },
          },
          states: { inactive: { opacity: 0.6 } },
          point: {
            events: {
              click: function (this: Highcharts.Point) {
                onSelect((this.options as PointOptions).custom.key);
              },
            },
          },
        },
      },
      series: [
        {
          type: 'line',
          name: 'Base-rate reward per unit of risk',
          data: slopeLine,
          color: COLORS.base,
          dashStyle: 'Dash',
          lineWidth: 1,
          marker: { enabled: false },
          enableMouseTracking: false,
          states: { hover: { enabled: false }, inactive: { enabled: false } },
        },
        {
          type: 'scatter',
          name: 'Yield sources',
          data: points.map((p) => toPoint(p, selectedKey, mobile)),
        },
      ],
    });
  }, [points, mobile, selectedKey, onSelect]);

  return <HighchartsReact highcharts={Highcharts} options={options} />;
}
