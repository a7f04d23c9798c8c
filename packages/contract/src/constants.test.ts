import { API_PATHS, apiPath, isStrategySlug, isTimeRange, STRATEGY_SLUGS } from './constants.ts';
import { POOL_CHARGE_KEYS, RISK_CHARGE_KEYS } from './constants.ts';
import { scannerItemSchema } from './modules/scanner.ts';
import { riskChargesSchema } from './modules/yields.ts';
import { endpoints } from './endpoints.ts';
import { strategySlugSchema, timeRangeSchema } from './schemas.ts';

describe('API paths', () => {
  it('fills parameters URI-encoded and adds a query string', () => {
    expect(apiPath(API_PATHS.breakdown, { id: 3 })).toBe('/api/strategies/3/breakdown');
    expect(apiPath(API_PATHS.premiumAnalysis, { id: 'a b/c' })).toBe(
      '/api/premium/strategies/a%20b%2Fc',
    );
    expect(apiPath(API_PATHS.history, {}, { id: 'base-defi', range: '30D' })).toBe(
      '/api/history?id=base-defi&range=30D',
    );
    expect(() => apiPath(API_PATHS.breakdown)).toThrow(/no value for \{id\}/);
  });

  it('are the paths of the route table', () => {
    for (const [name, spec] of Object.entries(endpoints))
      expect(spec.path).toBe(API_PATHS[name as keyof typeof API_PATHS]);
  });
});

describe('enumerations', () => {
  it('drive the schemas and the guards alike', () => {
    for (const slug of STRATEGY_SLUGS) {
      expect(isStrategySlug(slug)).toBe(true);
      expect(strategySlugSchema.safeParse(slug).success).toBe(true);
    }
    expect(isStrategySlug('aave')).toBe(false);
    expect(strategySlugSchema.safeParse('aave').success).toBe(false);
    expect(isTimeRange('90D') && timeRangeSchema.safeParse('90D').success).toBe(true);
    expect(isTimeRange('90d') || timeRangeSchema.safeParse('90d').success).toBe(false);
  });
});

describe('the charges of each method', () => {
  it('are listed once, in the order of the schemas the API answers with', () => {
    expect(Object.keys(riskChargesSchema.shape)).toEqual([...RISK_CHARGE_KEYS]);
    expect(Object.keys(scannerItemSchema.shape.charges.shape)).toEqual([...POOL_CHARGE_KEYS]);
  });
});
