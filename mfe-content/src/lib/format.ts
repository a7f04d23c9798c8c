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
export function formatUsdCompact(value: number): string {
  if (value >= 1e9) return `$${(value / 1e9).toFixed(2)}B`;
  if (value >= 1e6) return `$${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `$${(value / 1e3).toFixed(1)}K`;
  return `$${Math.round(value).toLocaleString('en-US')}`;
}
