/**
 * The saver's own weights (docs/methodology.md, "Your weights: the saver's own ranking") are
 * applied in the browser to the charges GET /api/strategies and GET /api/baserate send. On every
 * source and base rate of the shipped sample data: at every weight 100% the saver's figure is the
 * published one exactly, and at other weights it is `yield30d − Σ charge × weight`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaseRates, StrategyMetrics } from '@yield/contract';
import {
  DEFAULT_WEIGHTS,
  RISK_CHARGE_KEYS,
  saverRiskAdjusted,
  type ChargeWeights,
} from '@yield/contract/constants';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext;
let strategies: StrategyMetrics[];
let rates: BaseRates;

beforeAll(async () => {
  t = await setup();
  strategies = (await t.http.get('/api/strategies').expect(200)).body as StrategyMetrics[];
  rates = (await t.http.get('/api/baserate').expect(200)).body as BaseRates;
});
afterAll(async () => {
  await t.cleanup();
});

/** Every row of the sample data: the sources, then the two base rates. */
function published() {
  const rows = strategies.map((s) => ({
    name: `source ${s.id}`,
    yield30d: s.yield30d,
    riskAdjusted: s.riskAdjustedYield30d,
    charges: s.charges!,
  }));
  return [
    ...rows,
    {
      name: 'base-stablecoin',
      yield30d: rates.baserateStable,
      riskAdjusted: rates.baserateRiskAdjustedStable,
      charges: rates.charges!.stablecoin,
    },
    {
      name: 'base-defi',
      yield30d: rates.baserateDefi,
      riskAdjusted: rates.baserateRiskAdjustedDefi,
      charges: rates.charges!.defi,
    },
  ];
}

describe("the saver's weights on the sample data", () => {
  it('sends the charges of every source and base rate', () => {
    expect(strategies.length).toBeGreaterThan(5);
    for (const row of published())
      expect(Object.keys(row.charges).sort()).toEqual([...RISK_CHARGE_KEYS].sort());
  });

  it('gives the published risk-adjusted APR exactly at every weight 100%', () => {
    for (const row of published()) {
      expect(saverRiskAdjusted(row.riskAdjusted, row.charges, DEFAULT_WEIGHTS), row.name).toBe(
        row.riskAdjusted,
      );
    }
  });

  it('is the APR minus each charge times its weight', () => {
    const weights: ChargeWeights = {
      volatility: 200,
      incentives: 0,
      safety: 50,
      liquidity: 150,
      size: 100,
      outflow: 35,
    };
    let moved = 0;
    for (const row of published()) {
      const expected =
        row.yield30d -
        RISK_CHARGE_KEYS.reduce((sum, key) => sum + (row.charges[key] * weights[key]) / 100, 0);
      const value = saverRiskAdjusted(row.riskAdjusted, row.charges, weights);
      expect(value, row.name).toBeCloseTo(expected, 10);
      if (value !== row.riskAdjusted) moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });
});
