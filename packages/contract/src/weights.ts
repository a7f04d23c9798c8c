/**
 * The saver's own weights on the charges of ra30-v1 (docs/methodology.md, "Your weights: the
 * saver's own ranking"). No zod: browser code imports this through '@yield/contract/constants'.
 */

/** The six charges of ra30-v1, in the order the method lists them (the keys of RiskCharges). */
export const RISK_CHARGE_KEYS = [
  'volatility',
  'incentives',
  'safety',
  'liquidity',
  'size',
  'outflow',
] as const;
export type RiskChargeKey = (typeof RISK_CHARGE_KEYS)[number];

/** A weight is a percentage of the published charge: 0 to 200, 100 being the published method. */
export const WEIGHT_MIN_PCT = 0;
export const WEIGHT_MAX_PCT = 200;
export const WEIGHT_DEFAULT_PCT = 100;
/** Weights move in steps of 5%; a value off the grid is rounded to the nearest step. */
export const WEIGHT_STEP_PCT = 5;

export type ChargeWeights = Readonly<Record<RiskChargeKey, number>>;

export const DEFAULT_WEIGHTS: ChargeWeights = Object.freeze({
  volatility: WEIGHT_DEFAULT_PCT,
  incentives: WEIGHT_DEFAULT_PCT,
  safety: WEIGHT_DEFAULT_PCT,
  liquidity: WEIGHT_DEFAULT_PCT,
  size: WEIGHT_DEFAULT_PCT,
  outflow: WEIGHT_DEFAULT_PCT,
});

/**
 * The saver's risk-adjusted APR: `yield30d − Σ charge × weight / 100`. Since the published figure
 * is `yield30d − Σ charge`, it is computed as `riskAdjustedYield30d + Σ charge × (1 − weight / 100)`,
 * which is the same number and, at every weight 100%, the published figure to the last digit
 * (each term is exactly 0), whatever the rounding of the sum.
 */
export function saverRiskAdjusted(
  riskAdjustedYield30d: number,
  charges: Readonly<Record<RiskChargeKey, number>>,
  weights: ChargeWeights,
): number {
  let value = riskAdjustedYield30d;
  for (const key of RISK_CHARGE_KEYS) {
    const unweighted = 1 - weights[key] / 100;
    if (unweighted !== 0) value += charges[key] * unweighted;
  }
  return value;
}
