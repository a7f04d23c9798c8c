import type { SourceRow, YieldSource } from '@yield/contract';

/**
 * The source row with this id in GET /api/sources (never a base-rate row), if listed. An answer
 * that is not a list (from anything but the API) lists nothing, so a page never breaks on it.
 */
export function findSource(
  sources: readonly YieldSource[] | undefined,
  id: number,
): SourceRow | undefined {
  if (!Array.isArray(sources)) return undefined;
  return sources.find((s): s is SourceRow => !s.isBaseRate && s.id === id);
}
