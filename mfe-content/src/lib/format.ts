import { formatTvl } from '@yield/ui';

/** Percentage points with two decimals, e.g. 0.75 -> "0.75". Tiny float noise shows as 0.00. */
export function formatPoints(value: number): string {
  const rounded = Math.abs(value) < 0.005 ? 0 : value;
  return rounded.toFixed(2);
}

/** Spec section 9 APR format: two decimals and a percent sign. */
export function formatPercent(value: number): string {
  return `${formatPoints(value)}%`;
}

/** Compact dollars for TVL in prose: $4.96B, $75.6M, $12.3K, $950. */
export const formatUsdCompact = (value: number): string => formatTvl(value, 2);
