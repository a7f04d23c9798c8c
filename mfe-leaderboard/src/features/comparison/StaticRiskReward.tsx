/**
 * The risk-versus-reward scatter drawn by the browser's layout alone, for phones. Highcharts
 * costs a phone ~470 ms of main-thread work (its module, its locale set-up and one drawing task
 * of ~320 ms) and the chart sits in the first screen of `/options`. This picture shows the same
 * axes, ticks, points and base-rate line at once; the first touch hands the chart to Highcharts
 * (ChartPanel), and a tap on a point selects it in the same gesture.
 */
import type { MouseEvent } from 'react';
import { colors } from '@yield/platform';
import { baseRateSlope, chartAxes, type ChartPoint } from './model.ts';
import { pointColor, pointRadius, pointSymbol, type PointSymbol } from './point-style.ts';
import styles from './StaticRiskReward.module.css';

/** The marker's outline in a box of `size` px (Highcharts' symbols of the same names). */
function symbolPath(symbol: PointSymbol, size: number): string {
  const s = size;
  const h = s / 2;
  switch (symbol) {
    case 'diamond':
      return `M${h} 0L${s} ${h}L${h} ${s}L0 ${h}Z`;
    case 'triangle':
      return `M${h} 0L${s} ${s}L0 ${s}Z`;
    case 'triangle-down':
      return `M0 0L${s} 0L${h} ${s}Z`;
    case 'square':
      return `M0 0H${s}V${s}H0Z`;
    case 'circle':
      return `M0 ${h}A${h} ${h} 0 1 0 ${s} ${h}A${h} ${h} 0 1 0 0 ${h}Z`;
  }
}

const tickLabel = (value: number) => `${value.toFixed(1)}%`;

export interface StaticRiskRewardProps {
  points: ChartPoint[];
  selectedKey: string | null;
  onSelect: (key: string | null) => void;
}

export function StaticRiskReward({ points, selectedKey, onSelect }: StaticRiskRewardProps) {
  const axes = chartAxes(points);
  const xSpan = axes.x.max - axes.x.min || 1;
  const ySpan = axes.y.max - axes.y.min || 1;
  // Percentages of the plot area: the picture follows the frame's width without measuring it.
  const left = (x: number) => ((x - axes.x.min) / xSpan) * 100;
  const top = (y: number) => ((axes.y.max - y) / ySpan) * 100;
  const slope = baseRateSlope(points);
  // The tap bubbles on to the frame, which hands the chart to Highcharts (ChartPanel): a tap on
  // a point selects it, a tap elsewhere on the plot clears the selection.
  const clickPlot = (event: MouseEvent) => {
    const point = (event.target as Element).closest('[data-point]');
    onSelect(point?.getAttribute('data-point') ?? null);
  };
  return (
    <div className={styles.staticChart} data-testid="chart-static">
      <span className={styles.staticYTitle}>Reward (30d APR)</span>
      <div className={styles.staticPlot} onClick={clickPlot}>
        <svg
          className={styles.staticLines}
          viewBox="0 0 100 100"
          preserveAspectRatio="none"
          aria-hidden="true"
        >
          {axes.y.tickPositions.map((y) => (
            <line key={`y${y}`} x1="0" x2="100" y1={top(y)} y2={top(y)} stroke={colors.border} />
          ))}
          {axes.x.tickPositions.map((x) => (
            <line key={`x${x}`} x1={left(x)} x2={left(x)} y1="0" y2="100" stroke={colors.border} />
          ))}
          {slope !== null ? (
            <line
              x1={left(0)}
              y1={top(0)}
              x2={left(axes.x.max)}
              y2={top(slope * axes.x.max)}
              stroke={colors.navy}
              strokeDasharray="4 3"
            />
          ) : null}
        </svg>
        {axes.y.tickPositions.map((y) => (
          <span key={`yl${y}`} className={styles.staticYLabel} style={{ top: `${top(y)}%` }}>
            {tickLabel(y)}
          </span>
        ))}
        {axes.x.tickPositions.map((x) => (
          <span key={`xl${x}`} className={styles.staticXLabel} style={{ left: `${left(x)}%` }}>
            {tickLabel(x)}
          </span>
        ))}
        {points.map((p) => {
          const selected = p.key === selectedKey;
          const size = pointRadius(true, selected) * 2;
          const stroke = selected ? 3 : 1;
          return (
            <svg
              key={p.key}
              className={styles.staticPoint}
              data-point={p.key}
              data-symbol={pointSymbol(p)}
              width={size + stroke * 2}
              height={size + stroke * 2}
              viewBox={`${-stroke} ${-stroke} ${size + stroke * 2} ${size + stroke * 2}`}
              style={{ left: `${left(p.risk)}%`, top: `${top(p.reward)}%` }}
            >
              <path
                d={symbolPath(pointSymbol(p), size)}
                fill={pointColor(p)}
                stroke={selected ? colors.text : colors.surface}
                strokeWidth={stroke}
              />
            </svg>
          );
        })}
      </div>
      <span className={styles.staticXTitle}>Risk (30d APR − risk-adjusted APR)</span>
    </div>
  );
}
