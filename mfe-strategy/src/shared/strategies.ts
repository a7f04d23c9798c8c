import type { StrategyContent } from '@yield/contract';

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
