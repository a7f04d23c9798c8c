/**
 * Incidents on history charts: every chart that plots a source's daily history marks the
 * source's incidents on their date with this one helper (a vertical line labelled with what
 * happened), so the mark looks and reads the same everywhere. Types only from Highcharts: this
 * module is part of the kit's critical-path entry.
 */
import type { XAxisPlotLinesOptions } from 'highcharts';

/** An incident as a chart needs it (the API's `Incident`, optionally named after its source). */
export interface ChartIncident {
  /** The UTC day, YYYY-MM-DD, as the API sends it. */
  date: string;
  /** What happened, in a word or two ("exploit"). */
  kind: string;
  /** The source it happened to, when the chart shows several sources. */
  source?: string;
}

/** The class name of every incident line (for styles and tests). */
export const INCIDENT_LINE_CLASS = 'incident-line';

/** UTC midnight of an incident's day, in ms: the timestamp of that day's history point. */
export function incidentTimestamp(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** One incident's words on the chart: "Resolv USR: exploit", or "exploit" alone. */
export function incidentLabel(incident: ChartIncident): string {
  return incident.source ? `${incident.source}: ${incident.kind}` : incident.kind;
}

/**
 * The x-axis plot lines that mark `incidents` on their date: one dashed line per day (incidents
 * of the same day share it, their labels joined), labelled "⚠ <what happened>" at the top of the
 * plot. The label stays short (the kind only: a source's name beside a line near the right edge
 * wraps into a column of words); the chart's caption names the source (`describeIncidents`). Give it the incidents within the chart's days (`incidentsWithin`): Highcharts keeps a
 * line for a day off the axis in its drawing, and the chart's text names exactly what it marks.
 */
export function incidentPlotLines(
  incidents: readonly ChartIncident[],
  { color }: { color: string },
): XAxisPlotLinesOptions[] {
  const byDay = new Map<number, string[]>();
  for (const incident of incidents) {
    const day = incidentTimestamp(incident.date);
    if (Number.isNaN(day)) continue;
    byDay.set(day, [...new Set([...(byDay.get(day) ?? []), incident.kind])]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, labels]) => ({
      value: day,
      color,
      width: 2,
      dashStyle: 'ShortDash',
      zIndex: 4,
      className: INCIDENT_LINE_CLASS,
      label: {
        text: `⚠ ${labels.join(', ')}`,
        rotation: 0,
        align: 'left',
        x: 4,
        y: 14,
        style: { color, fontSize: '12px', fontWeight: '600' },
      },
    }));
}

/** The incidents whose day is within [from, to] (timestamps in ms): the ones a chart shows. */
export function incidentsWithin<T extends ChartIncident>(
  incidents: readonly T[],
  from: number | undefined,
  to: number | undefined,
): T[] {
  if (from === undefined || to === undefined) return [];
  return incidents.filter((incident) => {
    const day = incidentTimestamp(incident.date);
    return day >= from && day <= to;
  });
}

/**
 * The incidents a chart marks, in words for its caption or text alternative: "Resolv USR: exploit
 * on Mar 22, 2026; depeg on May 2, 2026" (`formatDay` writes the day, `@yield/ui`'s).
 */
export function describeIncidents(
  incidents: readonly ChartIncident[],
  formatDay: (date: string) => string,
): string {
  return incidents
    .map((incident) => `${incidentLabel(incident)} on ${formatDay(incident.date)}`)
    .join('; ');
}
