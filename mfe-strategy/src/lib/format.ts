/**
 * Number formats of spec section 9 as used on the strategy pages. Every formatter takes
 * `null`/non-finite for "no figure" and returns 'N/A', so a failed request can never render as 0.
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

/**
 * Dollar axis labels: the TVL format, with as many decimals as the tick step needs so that
 * neighbouring ticks never read the same (a $4.95B..$5.00B axis would otherwise show $5.0B twice).
 */
export function formatUsdTick(value: number, tickInterval: number): string {
  const abs = Math.abs(value);
  const unit = abs >= 1e9 ? 1e9 : abs >= 1e6 ? 1e6 : abs >= 1e3 ? 1e3 : 1;
  if (unit === 1 || !(tickInterval > 0)) return formatUsd(value);
  const decimals = Math.min(3, Math.max(1, Math.ceil(-Math.log10(tickInterval / unit))));
  const suffix = unit === 1e9 ? 'B' : unit === 1e6 ? 'M' : 'K';
  return `${value < 0 ? '-' : ''}$${(abs / unit).toFixed(decimals)}${suffix}`;
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
