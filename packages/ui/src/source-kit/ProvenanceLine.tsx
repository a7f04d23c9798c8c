import type { ReactNode } from 'react';
import type { Provenance } from '@yield/contract';
import { formatProvenance, formatStale } from '../format.ts';

/**
 * Where a row's figures come from, in one line ("Data: DeFiLlama, as of Nov 23, 2026.", "Sample
 * data as of …"), and, for a stale row, since when there is no new data, flagged. `staleNote`
 * follows the stale sentence (what stale means on that page). `compact`: one line of a header,
 * the two parts joined by " · " without full stops.
 */
export function ProvenanceLine({
  provenance,
  stale = false,
  staleNote,
  className,
  staleClassName,
  compact = false,
}: {
  provenance: Provenance;
  stale?: boolean;
  staleNote?: ReactNode;
  className?: string;
  staleClassName?: string;
  compact?: boolean;
}) {
  const stop = compact ? '' : '.';
  return (
    <span className={className} data-testid="provenance-line">
      {formatProvenance(provenance)}
      {stop}
      {stale ? (
        <>
          {compact ? ' · ' : ' '}
          <strong className={staleClassName} data-testid="stale-flag">
            {formatStale(provenance)}
            {stop}
            {staleNote ? <> {staleNote}</> : null}
          </strong>
        </>
      ) : null}
    </span>
  );
}
