/** Rows with charges for the weights' tests: dropping the incentives charge swaps the top two. */
import type { RiskCharges } from '@yield/contract';
import { buildRows } from '../model.ts';
import { baseRates, baseRow, metricsOf, sourceRow } from '../../../test/test-fixtures.ts';

const charges = (c: Partial<RiskCharges>): RiskCharges => ({
  volatility: 0,
  incentives: 0,
  safety: 0,
  liquidity: 0,
  size: 0,
  outflow: 0,
  ...c,
});

export const FLUID = 'Fluid (InstaDapp) - GHO Lending';
export const GAUNTLET = 'Gauntlet- USD Alpha';
export const SKY = 'Sky Spark - Savings Account';

/** Published: Fluid 5.00%, Gauntlet 4.60%, Sky 3.70%; without incentives Gauntlet 5.10% leads. */
export function weightedTestRows() {
  return buildRows(
    'stablecoin',
    [
      sourceRow({ id: 7, name: FLUID, rating: 4 }),
      sourceRow({ id: 12, name: GAUNTLET, rating: 4 }),
      sourceRow({ id: 2, name: SKY, rating: 5 }),
      sourceRow({ id: 9, name: 'Young Vault', rating: 2 }),
      baseRow('stablecoin'),
    ],
    [
      metricsOf(7, 6.9, 5.0, 76e6, {
        charges: charges({
          volatility: 0.7,
          safety: 0.75,
          liquidity: 0.1,
          size: 0.3,
          outflow: 0.05,
        }),
      }),
      metricsOf(12, 7.0, 4.6, 50e6, {
        charges: charges({
          volatility: 0.6,
          incentives: 0.5,
          safety: 0.75,
          liquidity: 0.1,
          size: 0.3,
          outflow: 0.15,
        }),
      }),
      metricsOf(2, 3.9, 3.7, 5e9, { charges: charges({ safety: 0.2 }) }),
      metricsOf(9, 0, 0, 1e6, { status: 'insufficient_data', charges: charges({}) }),
    ],
    baseRates({
      baserateStable: 4.9,
      baserateRiskAdjustedStable: 4.0,
      charges: {
        stablecoin: charges({ volatility: 0.2, safety: 0.5, incentives: 0.2 }),
        defi: charges({ safety: 0.2 }),
      },
    }),
  );
}
