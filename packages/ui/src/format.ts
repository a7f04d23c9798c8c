/**
 * Number formats of spec section 9, one implementation for every remote (bundled into each, not
 * shared at runtime, so a remote never depends on the shell's copy of it). No figure (null,
 * undefined, NaN) reads 'N/A', so a failed request never shows as 0.
 */
export const NOT_AVAILABLE = 'N/A';

const TVL_UNITS = [
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
] as const;

/**
 * TVL of spec section 9: whole dollars with grouping below 1,000; K and M with one decimal; B with
 * one decimal on strategy pages and two on the comparison page (`billionDecimals`).
 */
export function formatTvl(value: number | null | undefined, billionDecimals = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  for (let i = 0; i < TVL_UNITS.length; i++) {
    const unit = TVL_UNITS[i]!;
    if (abs < unit.size) continue;
    const decimals = unit.suffix === 'B' ? billionDecimals : 1;
    const scaled = Number((abs / unit.size).toFixed(decimals));
    // 999,960 rounds to "1000.0K": show it in the next unit up instead.
    const larger = TVL_UNITS[i - 1];
    if (scaled >= 1000 && larger) {
      const up = larger.suffix === 'B' ? billionDecimals : 1;
      return `${sign}$${(abs / larger.size).toFixed(up)}${larger.suffix}`;
    }
    return `${sign}$${scaled.toFixed(decimals)}${unit.suffix}`;
  }
  const whole = Math.round(abs);
  if (whole >= 1000) return `${sign}$1.0K`;
  return `${sign}$${whole.toLocaleString('en-US')}`;
}

/** APR to two decimals with a percent sign; N/A when there is no figure. */
export function formatApr(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NOT_AVAILABLE;
  return `${value.toFixed(2)}%`;
}
