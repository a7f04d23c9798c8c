import type { RiskCharges, StrategyContent } from '@yield/contract';

/** A market cap or rank is "present" when it is neither empty nor the N/A placeholder. */
export function isPresent(value: string | null | undefined): value is string {
  if (!value) return false;
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.toUpperCase() !== 'N/A';
}

export const RATING_LABELS: { key: keyof StrategyContent['ratings']; label: string }[] = [
  { key: 'protocolDesign', label: 'Protocol Design' },
  { key: 'protocolMaturity', label: 'Protocol Maturity' },
  { key: 'governance', label: 'Governance' },
  { key: 'assetStrength', label: 'Asset Strength' },
  { key: 'chain', label: 'Chain' },
  { key: 'history', label: 'History' },
  { key: 'dependencies', label: 'Dependencies' },
];

/** Risk bars are drawn out of five (a strategy has 4 or 5 green bars). */
export const RISK_BARS_TOTAL = 5;

/** The six charges of ra30-v1 (docs/methodology.md), in the method's order, in plain words. */
export const CHARGE_LABELS: { key: keyof RiskCharges; label: string; why: string }[] = [
  { key: 'volatility', label: 'Volatility', why: 'how much the daily APR moved' },
  { key: 'incentives', label: 'Incentives', why: 'half of the part paid in reward tokens' },
  { key: 'safety', label: 'Safety', why: 'expected loss from the safety score' },
  { key: 'liquidity', label: 'Liquidity', why: 'cost of a slow or uncertain exit' },
  { key: 'size', label: 'Size', why: 'smaller pools carry more risk' },
  { key: 'outflow', label: 'Outflow', why: 'largest recent fall in deposits' },
];
