/**
 * The net figure of a deposit (GET /api/net-yield, docs/methodology.md "Net yield"): one simple,
 * conservative rule, every cost is taken out at the deposit:
 *
 *   net = (amount − entry − exit − gas) × (1 + APR / 100 / 365)^days
 *   net APR = (net / amount − 1) × 365 / days × 100
 *   break-even day = the first whole day d ≥ 0 on which (amount − costs) × (1 + APR/100/365)^d
 *   reaches the amount deposited (null when it never does: costs ≥ amount, or APR ≤ 0 with costs).
 *
 * Gas is paid in the chain's native token; it enters in USD and is converted to the source's unit
 * with the unit's USD price of the day. Pure: no Koa, no files, no network.
 */

/** A cost that is known (a number), or unknown with the reason why (never a made-up zero). */
export type Cost = { value: number } | { unknown: string };

export interface NetYieldInput {
  /** The amount deposited, in the source's unit (USD or ETH). */
  amount: number;
  /** The gross APR used (%). */
  apr: number;
  /** The holding period, whole days ≥ 1. */
  days: number;
  /** The USD price of one unit of the source (1 for a dollar source). */
  unitPriceUsd: number;
  /** Entry and exit costs as fractions of the amount (fee rates derived from the contract's previews). */
  entryRate: Cost;
  exitRate: Cost;
  /** Gas of the deposit and of the withdrawal, in USD. */
  gasInUsd: Cost;
  gasOutUsd: Cost;
}

export interface CostFigure {
  /** In the source's unit; null when unknown. */
  amount: number | null;
  usd: number | null;
  /** Why the cost is unknown; null when known. */
  unknown: string | null;
}

export interface NetYieldResult {
  apr: number;
  costs: { entry: CostFigure; exit: CostFigure; gasIn: CostFigure; gasOut: CostFigure };
  /** The costs' sum in the source's unit; null when any is unknown. */
  totalCost: number | null;
  /** Null when any cost is unknown (the costs say which and why). */
  netAmount: number | null;
  netApr: number | null;
  breakEvenDays: number | null;
}

function figure(cost: Cost, toUnit: (v: number) => number, unitPriceUsd: number): CostFigure {
  if ('unknown' in cost) return { amount: null, usd: null, unknown: cost.unknown };
  const amount = toUnit(cost.value);
  return { amount, usd: amount * unitPriceUsd, unknown: null };
}

/** The growth factor of `days` days compounded daily at `apr` (%). */
export function dailyFactor(apr: number, days: number): number {
  return Math.pow(1 + apr / 100 / 365, days);
}

/** The first whole day on which (amount − cost) grown at `apr` reaches `amount`; null if never. */
export function breakEvenDays(amount: number, cost: number, apr: number): number | null {
  if (cost <= 0) return 0;
  if (cost >= amount || apr <= 0) return null;
  const start = amount - cost;
  let d = Math.max(0, Math.ceil(Math.log(amount / start) / Math.log(1 + apr / 100 / 365)) - 1);
  // The logarithm only gives the neighbourhood: the rule itself decides the day.
  while (start * dailyFactor(apr, d) < amount) d++;
  while (d > 0 && start * dailyFactor(apr, d - 1) >= amount) d--;
  return d;
}

/** The net figure of a deposit under the rule above. */
export function netYield(input: NetYieldInput): NetYieldResult {
  const { amount, apr, days, unitPriceUsd } = input;
  const ofAmount = (rate: number) => rate * amount;
  const fromUsd = (usd: number) => usd / unitPriceUsd;
  const costs = {
    entry: figure(input.entryRate, ofAmount, unitPriceUsd),
    exit: figure(input.exitRate, ofAmount, unitPriceUsd),
    gasIn: figure(input.gasInUsd, fromUsd, unitPriceUsd),
    gasOut: figure(input.gasOutUsd, fromUsd, unitPriceUsd),
  };
  const parts = Object.values(costs).map((c) => c.amount);
  if (parts.some((p) => p === null)) {
    return { apr, costs, totalCost: null, netAmount: null, netApr: null, breakEvenDays: null };
  }
  const totalCost = (parts as number[]).reduce((a, b) => a + b, 0);
  const netAmount = (amount - totalCost) * dailyFactor(apr, days);
  const netApr = (netAmount / amount - 1) * (365 / days) * 100;
  return {
    apr,
    costs,
    totalCost,
    netAmount,
    netApr,
    breakEvenDays: breakEvenDays(amount, totalCost, apr),
  };
}
