/**
 * Number formats of spec section 9 as used on the strategy pages. Every formatter takes
 * `null`/non-finite for "no figure" and returns 'N/A', so a failed request can never render as 0.
 */

export const NOT_AVAILABLE = 'N/A';

function isFigure(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * TVL in dollars: whole dollars with locale grouping below 1,000; K and M with one decimal; B with
 * one decimal (the comparison page uses two for B, the strategy pages one).
 */
export function formatUsd(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${sign}$${(abs / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${sign}$${(abs / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `${sign}$${(abs / 1e3).toFixed(1)}K`;
  return `${sign}$${Math.round(abs).toLocaleString()}`;
}

/** APR: two decimals and a percent sign (negative values are shown as they are). */
export function formatPercent(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  return `${value.toFixed(2)}%`;
}

let dateFormat: Intl.DateTimeFormat | undefined;

/** Chart x labels and tooltips: the reader's locale date (same as toLocaleDateString()). */
export function formatDate(timestamp: number): string {
  // One formatter for every label: building one per call is what makes toLocaleDateString slow.
  dateFormat ??= new Intl.DateTimeFormat();
  return dateFormat.format(timestamp);
}

/** Holder counts with locale grouping ("12,345 holders"). */
export function formatHolders(count: number | null | undefined): string {
  if (!isFigure(count)) return NOT_AVAILABLE;
  return `${Math.round(count).toLocaleString()} ${Math.round(count) === 1 ? 'holder' : 'holders'}`;
}
