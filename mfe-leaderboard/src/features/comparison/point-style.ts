import { colors } from '@yield/platform';
import type { ChartPoint } from './model.ts';

/** A point's marker: shape as well as colour (the legend above the chart uses the same tokens). */
export type PointSymbol = 'diamond' | 'triangle' | 'square' | 'triangle-down' | 'circle';

/** Diamond = base rate, triangle = GREAT, square = incident, triangle down = a data warning. */
export function pointSymbol(p: ChartPoint): PointSymbol {
  return p.isBaseRate
    ? 'diamond'
    : p.great
      ? 'triangle'
      : p.hasIncident
        ? 'square'
        : p.hasWarning
          ? 'triangle-down'
          : 'circle';
}

export function pointColor(p: ChartPoint): string {
  return p.isBaseRate
    ? colors.navy
    : p.hasIncident
      ? colors.danger
      : p.great
        ? colors.great
        : p.hasWarning
          ? colors.warning
          : colors.primary;
}

/** Marker radius in px: phones draw a little smaller; a selected point grows by 3. */
export function pointRadius(mobile: boolean, selected: boolean): number {
  return (mobile ? 6 : 7) + (selected ? 3 : 0);
}
