import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { sourcesQuery } from '@yield/platform';
import type { DetectedWarning } from '@yield/contract';
import { WARNING_TITLES } from '@yield/contract/constants';
import { formatDay } from '@yield/ui';
import type { ChartMark } from '../../shared/charts/HistoryChart.tsx';

/** A source's warnings detected from data (GET /api/sources `warnings`), oldest first. */
export function useDetectedWarnings(id: number): DetectedWarning[] {
  const sources = useQuery(sourcesQuery);
  const row = sources.data?.find((s) => !s.isBaseRate && s.id === id);
  return useMemo(() => row?.warnings ?? [], [row]);
}

/** Where each warning opened and closed, for the history charts. */
export function warningMarks(warnings: readonly DetectedWarning[]): ChartMark[] {
  return warnings.flatMap((w) => [
    {
      timestamp: Date.parse(`${w.openedOn}T00:00:00Z`),
      label: `${WARNING_TITLES[w.kind]}: opened`,
      closed: false,
    },
    ...(w.closedOn
      ? [
          {
            timestamp: Date.parse(`${w.closedOn}T00:00:00Z`),
            label: `${WARNING_TITLES[w.kind]}: closed`,
            closed: true,
          },
        ]
      : []),
  ]);
}

/** The charts' marks said in words (the marks themselves are not read out). */
export function WarningMarksNote({
  marks,
  from,
  to,
}: {
  marks: readonly ChartMark[];
  from: number | undefined;
  to: number | undefined;
}) {
  const shown = marks.filter(
    (m) => from !== undefined && to !== undefined && m.timestamp >= from && m.timestamp <= to,
  );
  if (shown.length === 0) return null;
  return (
    <p className="muted" data-testid="warning-marks">
      Marked on the charts (warnings detected from data):{' '}
      {shown.map((m) => `${m.label} ${formatDay(new Date(m.timestamp))}`).join('; ')}.
    </p>
  );
}
