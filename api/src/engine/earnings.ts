/**
 * What an amount would have earned, compounded daily at each day's APR (GET /api/earnings,
 * docs/api.md "Earnings"): amount × (∏(1 + APR_d / 100 / 365) − 1). Pure: no Koa, no files.
 */

/** The growth of one unit over the days: ∏(1 + APR_d / 100 / 365) − 1. */
export function compoundedGrowth(aprs: readonly number[]): number {
  let factor = 1;
  for (const apr of aprs) factor *= 1 + apr / 100 / 365;
  return factor - 1;
}

/** amount × compoundedGrowth(aprs), in the amount's own unit. */
export function compoundedEarnings(amount: number, aprs: readonly number[]): number {
  return amount * compoundedGrowth(aprs);
}
