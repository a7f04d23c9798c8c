import type { SourceRow, YieldSource } from '@yield/contract';

/** The source row with this id in GET /api/sources (never a base-rate row), if listed. */
export function findSource(
  sources: readonly YieldSource[] | undefined,
  id: number,
): SourceRow | undefined {
  return sources?.find((s): s is SourceRow => !s.isBaseRate && s.id === id);
}
