import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { chartAxes, type ChartPoint } from './model.ts';
import { StaticRiskReward } from './StaticRiskReward.tsx';

function point(key: string, risk: number, reward: number, extra: Partial<ChartPoint> = {}) {
  return {
    key,
    id: Number(key.replace(/\D/g, '')) || 0,
    name: key,
    type: 'stablecoin',
    isBaseRate: false,
    risk,
    reward,
    riskAdjusted: reward - risk,
    great: false,
    hasIncident: false,
    hasWarning: false,
    detailSlug: null,
    ...extra,
  } as ChartPoint;
}

const points = [
  point('source-1', 0.2, 4, { great: true }),
  point('source-2', 2, 7),
  point('source-3', 6.8, 0.5, { hasIncident: true }),
  point('source-4', 3, 2, { hasWarning: true }),
  point('base-stablecoin', 0.9, 4.9, { isBaseRate: true }),
];

describe("StaticRiskReward (a phone's chart before its first tap)", () => {
  it('places every point by its risk and reward on the axes Highcharts would draw, with its shape', () => {
    const { container } = render(
      <StaticRiskReward points={points} selectedKey={null} onSelect={() => {}} />,
    );
    const axes = chartAxes(points);
    const marks = container.querySelectorAll<SVGElement>('[data-point]');
    expect(marks).toHaveLength(5);
    const symbols = Object.fromEntries(
      [...marks].map((m) => [m.getAttribute('data-point'), m.getAttribute('data-symbol')]),
    );
    expect(symbols).toEqual({
      'source-1': 'triangle',
      'source-2': 'circle',
      'source-3': 'square',
      'source-4': 'triangle-down',
      'base-stablecoin': 'diamond',
    });
    const second = container.querySelector<SVGElement>('[data-point="source-2"]')!;
    const left = ((2 - axes.x.min) / (axes.x.max - axes.x.min)) * 100;
    const top = ((axes.y.max - 7) / (axes.y.max - axes.y.min)) * 100;
    expect(parseFloat(second.style.left)).toBeCloseTo(left, 6);
    expect(parseFloat(second.style.top)).toBeCloseTo(top, 6);
    // Every tick of both axes is labelled with one decimal, as on a phone's Highcharts chart.
    const labels = [...container.querySelectorAll('span')].map((s) => s.textContent);
    for (const tick of [...axes.x.tickPositions, ...axes.y.tickPositions]) {
      expect(labels).toContain(`${tick.toFixed(1)}%`);
    }
    expect(container).toHaveTextContent('Reward (30d APR)');
    expect(container).toHaveTextContent('Risk (30d APR − risk-adjusted APR)');
    // The base rate's reward per unit of risk, as a dashed line from the origin.
    expect(container.querySelector('line[stroke-dasharray]')).not.toBeNull();
  });

  it('a tap on a point selects it, a tap on the plot clears, and the tap bubbles on', () => {
    const onSelect = vi.fn();
    const onFrameClick = vi.fn();
    const { container } = render(
      <div onClick={onFrameClick}>
        <StaticRiskReward points={points} selectedKey="source-2" onSelect={onSelect} />
      </div>,
    );
    fireEvent.click(container.querySelector('[data-point="source-1"] path')!);
    expect(onSelect).toHaveBeenLastCalledWith('source-1');
    fireEvent.click(container.querySelector('[data-testid="chart-static"] svg')!);
    expect(onSelect).toHaveBeenLastCalledWith(null);
    expect(onFrameClick).toHaveBeenCalledTimes(2);
    // The selected point is drawn larger, with a dark outline.
    const selected = container.querySelector('[data-point="source-2"]')!;
    const other = container.querySelector('[data-point="source-1"]')!;
    expect(Number(selected.getAttribute('width'))).toBeGreaterThan(
      Number(other.getAttribute('width')),
    );
  });
});
