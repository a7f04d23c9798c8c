/**
 * Number formats of spec section 9 as the premium pages use them. `null` or a non-finite value
 * is "no figure" and reads 'N/A', so a missing number never shows as 0.
 */
export const NOT_AVAILABLE = 'N/A';

function isFigure(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** TVL: whole dollars below 1,000, then K/M/B with one decimal (strategy-page precision). */
export function formatUsd(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${sign}$${(abs / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${sign}$${(abs / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `${sign}$${(abs / 1e3).toFixed(1)}K`;
  return `${sign}$${Math.round(abs).toLocaleString('en-US')}`;
}

/** APR: two decimals and a percent sign; a negative value is shown as it is. */
export function formatPercent(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  return `${value.toFixed(2)}%`;
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
