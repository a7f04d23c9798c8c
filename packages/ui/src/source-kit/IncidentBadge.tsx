import type { Incident } from '@yield/contract';
import { formatDay } from '../format.ts';

/** What an operator recorded on a source, in one sentence ("Incident on Nov 5, 2026: …"). */
export const incidentSentence = (incident: Pick<Incident, 'date' | 'summary'>): string =>
  `Incident on ${formatDay(incident.date)}: ${incident.summary}`;

/** Beside a source's name: its active incident, red, the sentence in its tooltip. */
export function IncidentBadge({
  incident,
  className,
}: {
  incident: Pick<Incident, 'date' | 'summary'> | undefined;
  className?: string;
}) {
  if (!incident) return null;
  return (
    <span className={className} title={incidentSentence(incident)} data-testid="incident-badge">
      <span aria-hidden="true">⚠</span> Incident
    </span>
  );
}
