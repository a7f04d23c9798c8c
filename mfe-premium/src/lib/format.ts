/**
 * Number formats of spec section 9 as the premium pages use them. `null` or a non-finite value
 * is "no figure" and reads 'N/A', so a missing number never shows as 0.
 */

import { NOT_AVAILABLE, formatApr, formatTvl } from '@yield/ui';

export { NOT_AVAILABLE };

/** TVL with one decimal for B (strategy-page precision of spec section 9). */
export const formatUsd = (value: number | null | undefined): string => formatTvl(value, 1);

/** APR: two decimals and a percent sign; a negative value is shown as it is. */
export const formatPercent = formatApr;

function isFigure(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Risk charges are percentage points a year (methodology.md), not percent of the yield. */
export function formatPoints(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  return `${value.toFixed(2)} pp`;
}

/** A YYYY-MM-DD date (or ms timestamp) in words, read the same in every time zone. */
export function formatDay(value: string | number): string {
  const date = typeof value === 'number' ? new Date(value) : new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
