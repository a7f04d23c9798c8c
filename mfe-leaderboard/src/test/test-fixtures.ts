/** Contract-shaped API data for the comparison's tests (complete objects, as the API sends). */
import type {
  BaseRateRow,
  BaseRates,
  Incident,
  Provenance,
  SourceRow,
  SourceType,
  StrategyMetrics,
} from '@yield/contract';
import { BASE_KEY_OF_TYPE, METHOD_VERSION } from '@yield/contract/constants';

export const SAMPLE_PROVENANCE: Provenance = { kind: 'sample', asOf: '2026-11-21', stale: false };

/** The active incident of Resolv USR, as sources.json has it. */
export const RESOLV_INCIDENT: Incident = {
  date: '2026-03-22',
  kind: 'exploit',
  summary: 'Unbacked USR was minted.',
  link: 'https://example.org/r',
  linkVerified: '2026-11-23',
  active: true,
};

const common = {
  token: 'USDC',
  yieldToken: 'USDC',
  type: 'stablecoin' as SourceType,
  unit: 'USD' as const,
  rating: 3 as const,
  safety: 3 as const,
  liquidity: 3 as const,
  yield_type: 'Lending interest',
  real_or_incentive: 'Real' as const,
  yield_category: 'Lending',
  incidents: [],
  description: 'A yield source.',
  scoreRationale: { date: '2026-01-01', safety: 'Audited.', liquidity: 'Deep.', links: [] },
  feeds: [],
  provenance: SAMPLE_PROVENANCE,
  warnings: [],
};

export function sourceRow(partial: Partial<SourceRow> & Pick<SourceRow, 'id' | 'name'>): SourceRow {
  return {
    ...common,
    isBaseRate: false,
    detailSlug: null,
    depositUrl: 'https://example.org/deposit',
    exit: {
      kind: 'instant',
      days: 0,
      note: 'Withdraw at any time.',
      link: 'https://example.org/docs',
      verified: '2026-11-23',
    },
    ...partial,
  };
}

export function baseRow(type: SourceType, partial: Partial<BaseRateRow> = {}): BaseRateRow {
  return {
    ...common,
    id: 0,
    name: 'DeFi Base Rate',
    type,
    rating: 4,
    isBaseRate: true,
    detailSlug: null,
    key: BASE_KEY_OF_TYPE[type],
    depositUrl: null,
    exit: null,
    ...partial,
  };
}

/** Live metrics as GET /api/strategies sends them; risk is APR − risk-adjusted APR. */
export function metricsOf(
  id: number,
  yield30d: number,
  riskAdjustedYield30d: number,
  tvl: number,
  partial: Partial<StrategyMetrics> = {},
): StrategyMetrics {
  return {
    id,
    yield30d,
    riskAdjustedYield30d,
    tvl,
    status: 'ok',
    method: METHOD_VERSION,
    risk: yield30d - riskAdjustedYield30d,
    great: false,
    asOf: '2026-11-21',
    provenance: SAMPLE_PROVENANCE,
    warnings: [],
    ...partial,
  };
}

export function baseRates(partial: Partial<BaseRates>): BaseRates {
  return {
    baserateStable: 0,
    baserateRiskAdjustedStable: 0,
    baserateDefi: 0,
    baserateRiskAdjustedDefi: 0,
    method: METHOD_VERSION,
    asOf: '2026-11-21',
    status: { stablecoin: 'ok', defi: 'ok' },
    provenance: { stablecoin: SAMPLE_PROVENANCE, defi: SAMPLE_PROVENANCE },
    ...partial,
  };
}
