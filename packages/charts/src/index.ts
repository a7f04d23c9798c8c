/**
 * The chart kit without Highcharts: safe on a page's critical path. Highcharts, its base options
 * and palette CSS are in `@yield/charts/highcharts`, for lazily loaded chart modules only.
 */
export { useDrawWhenNear, type DrawWhenNearOptions } from './draw-when-near.ts';
export {
  describeIncidents,
  INCIDENT_LINE_CLASS,
  incidentLabel,
  incidentPlotLines,
  incidentsWithin,
  incidentTimestamp,
  type ChartIncident,
} from './incidents.ts';
export { niceStep, niceTicks, type NiceTicksOptions } from './nice-ticks.ts';
