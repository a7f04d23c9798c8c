/**
 * The risk charges in plain words: one label and one line of explanation per charge, for every
 * page that shows them (the comparison's breakdown and weights, the strategy pages and
 * `/compare`, the premium report, `/methodology`). The keys come from the contract's enumerations,
 * so a charge added to a method cannot be left without words. docs/methodology.md has the formulas.
 */
import type { RiskCharges, ScannerItem } from '@yield/contract';
import {
  POOL_CHARGE_KEYS,
  RISK_CHARGE_KEYS,
  type PoolChargeKey,
  type RiskChargeKey,
} from '@yield/contract/constants';

export interface ChargeText {
  /** The charge's name, as a row or slider label ("Volatility"). */
  label: string;
  /** One line on what it charges for, for a saver. */
  explanation: string;
}

/** The six charges of `ra30-v1` (sources and base rates). */
export const RA30_CHARGES = {
  volatility: {
    label: 'Volatility',
    explanation:
      'How much the daily APR moved during the 30 days: a jumpy yield is a less certain one.',
  },
  incentives: {
    label: 'Incentive tokens',
    explanation:
      'Half of the part paid in reward tokens: those tokens can lose value and reward programmes end.',
  },
  safety: {
    label: 'Safety (expected loss)',
    explanation:
      'The expected yearly loss from hacks, failures or depegs, set by the safety score; never zero.',
  },
  liquidity: {
    label: 'Liquidity',
    explanation:
      'The cost of not being able to leave quickly at full value, set by the liquidity score.',
  },
  size: {
    label: 'Size',
    explanation:
      'Smaller pools carry more risk: 0.25 points for every tenfold below $1 billion of deposits.',
  },
  outflow: {
    label: 'Outflows',
    explanation:
      'The largest fall in deposits from a peak during the 30 days: money leaving is a warning sign.',
  },
} as const satisfies Record<keyof RiskCharges, ChargeText>;

/** The `ra30-v1` charges in the method's order, each with its key. */
export const RA30_CHARGE_LIST: readonly (ChargeText & { key: RiskChargeKey })[] =
  RISK_CHARGE_KEYS.map((key) => ({ key, ...RA30_CHARGES[key] }));

/** The five charges of `rapool-v3` (the scanner's pools, as `rapool-v2`'s); not those of `ra30-v1`. */
export const POOL_CHARGES = {
  impermanentLoss: {
    label: 'Impermanent loss',
    explanation:
      'What a pool of several assets loses as their prices drift apart, taken from the fee part.',
  },
  rewardPrice: {
    label: 'Reward token price',
    explanation: 'Reward tokens are sold as they are paid and lose value: 30% of the reward part.',
  },
  outflow: {
    label: 'Outflow',
    explanation: 'Deposits shrinking below their 30-day median: the yield that is left behind.',
  },
  size: {
    label: 'Size',
    explanation:
      'Small pools are less tested and easier to disrupt: 0.25 points per tenfold below $1B.',
  },
  safety: {
    label: 'Safety',
    explanation:
      "The expected loss from hacks and failures, by the project's safety score; never zero.",
  },
} as const satisfies Record<keyof ScannerItem['charges'], ChargeText>;

/** The `rapool-v3` charges in the method's order, each with its key. */
export const POOL_CHARGE_LIST: readonly (ChargeText & { key: PoolChargeKey })[] =
  POOL_CHARGE_KEYS.map((key) => ({ key, ...POOL_CHARGES[key] }));
