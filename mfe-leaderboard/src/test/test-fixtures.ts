/**
 * The comparison's tests' shorthands over the contract's fixtures (@yield/fixtures): a row by
 * its id and name, metrics by their figures. The objects themselves come from the factories, so
 * they are complete, valid answers.
 */
import type {
  BaseRateRow,
  BaseRates,
  SourceRow,
  SourceType,
  StrategyMetrics,
} from '@yield/contract';
import {
  baseRateRowFixture,
  baseRatesFixture,
  incidentFixture,
  provenanceFixture,
  sourceRowFixture,
  strategyFixture,
  type DeepPartial,
} from '@yield/fixtures';

export const SAMPLE_PROVENANCE = provenanceFixture();

/** The active incident of Resolv USR, as sources.json has it. */
export const RESOLV_INCIDENT = incidentFixture();

export function sourceRow(
  partial: DeepPartial<SourceRow> & Pick<SourceRow, 'id' | 'name'>,
): SourceRow {
  return sourceRowFixture(partial);
}

export function baseRow(type: SourceType, partial: DeepPartial<BaseRateRow> = {}): BaseRateRow {
  return baseRateRowFixture({ type, ...partial });
}

/** Live metrics as GET /api/strategies sends them; risk is APR − risk-adjusted APR. */
export function metricsOf(
  id: number,
  yield30d: number,
  riskAdjustedYield30d: number,
  tvl: number,
  partial: DeepPartial<StrategyMetrics> = {},
): StrategyMetrics {
  return strategyFixture({ id, yield30d, riskAdjustedYield30d, tvl, ...partial });
}

export function baseRates(partial: DeepPartial<BaseRates>): BaseRates {
  return baseRatesFixture(partial);
}
