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
