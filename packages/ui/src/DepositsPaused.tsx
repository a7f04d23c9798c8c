import type { DepositsPaused } from '@yield/contract';
import { formatDay } from './format.ts';

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
      <a href={paused.link} target="_blank" rel="noopener noreferrer">
        Read why
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>{' '}
      <span className="muted">(checked {formatDay(paused.verified)})</span>
    </span>
  );
}
