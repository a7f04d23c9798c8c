import type { DepositsPaused } from '@yield/contract';
import { formatDay } from './format.ts';
import { ExternalLink } from './source-kit/ExternalLink.tsx';

/**
 * Shown instead of a deposit link while the provider has closed deposits (sources.json
 * `depositsPaused`): the site sends no saver to deposit into a product that takes no deposits.
 */
export function DepositsPausedNote({
  paused,
  className,
}: {
  paused: DepositsPaused;
  className?: string;
}) {
  return (
    <span className={className} data-testid="deposits-paused">
      <strong>Deposits paused since {formatDay(paused.since)}.</strong> {paused.note}{' '}
      <ExternalLink href={paused.link}>Read why</ExternalLink>{' '}
      <span className="muted">(checked {formatDay(paused.verified)})</span>
    </span>
  );
}
