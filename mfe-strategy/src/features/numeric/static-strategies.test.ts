import {
  lookupStrategy,
  staticStrategies,
  toChartPoints,
  type StaticStrategy,
} from './static-strategies.ts';

const make = (id: number): StaticStrategy => ({
  id,
  name: `S${id}`,
  description: 'd',
  apr: 1,
  riskAdjustedApr: 1,
  tvl: 1,
  holders: null,
  aprHistory: [],
  tvlHistory: [],
});

describe('numeric strategy lookup', () => {
  const list = [make(2), make(3), make(13)];
  it('converts the route id to a number and finds id 3 as available', () => {
    expect(lookupStrategy('3', list)).toEqual({ state: 'available', strategy: list[1] });
    expect(lookupStrategy('3.0', list).state).toBe('available');
  });
  it('shows every other listed id as disabled', () => {
    expect(lookupStrategy('2', list).state).toBe('disabled');
    expect(lookupStrategy('13', list).state).toBe('disabled');
  });
  it('reports unknown or non-numeric ids as not found', () => {
    expect(lookupStrategy('99', list).state).toBe('not-found');
    expect(lookupStrategy('abc', list).state).toBe('not-found');
    expect(lookupStrategy('', list).state).toBe('not-found');
    expect(lookupStrategy(undefined, list).state).toBe('not-found');
  });
});

describe('the generated static list', () => {
  it('is labelled as sample data with its date and holds an active id 3 with history', () => {
    expect(staticStrategies.sample).toBe(true);
    expect(staticStrategies.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const active = staticStrategies.strategies.find((s) => s.id === 3);
    expect(active?.aprHistory.length).toBeGreaterThan(20);
    expect(active?.tvlHistory.length).toBe(active?.aprHistory.length);
    expect(active?.apr).toBeGreaterThan(0);
  });
  it('turns dated values into UTC-midnight points', () => {
    expect(toChartPoints([{ date: '2026-11-21', value: 4.5 }])).toEqual([
      [Date.UTC(2026, 10, 21), 4.5],
    ]);
  });
});
