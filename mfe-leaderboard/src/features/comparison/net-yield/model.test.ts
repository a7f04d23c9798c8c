import { netYieldRankingFixture, netYieldRankingItemFixture } from '@yield/fixtures';
import { NET_YIELD_DEFAULT_DAYS } from '@yield/contract/constants';
import { buildRows, sortRows } from '../model.ts';
import { baseRates, baseRow, metricsOf, sourceRow } from '../../../test/test-fixtures.ts';
import {
  applyNetRanking,
  breakEvenText,
  NET_SORT,
  parseNetInput,
  serializeNetInput,
  unknownReason,
} from './model.ts';

const rows = buildRows(
  'stablecoin',
  [
    sourceRow({ id: 1, name: 'Alpha' }),
    sourceRow({ id: 2, name: 'Beta' }),
    sourceRow({ id: 3, name: 'Gamma' }),
    sourceRow({ id: 4, name: 'Delta' }),
    baseRow('stablecoin'),
  ],
  [
    metricsOf(1, 9, 8, 1e8),
    metricsOf(2, 5, 4, 1e8),
    metricsOf(3, 7, 6, 1e8),
    metricsOf(4, 6, 5, 1e8),
  ],
  baseRates({ baserateStable: 4, baserateRiskAdjustedStable: 3 }),
);

/** As the API ranks them: Beta, Gamma by net APR; Alpha and Delta unknown, by gross APR. */
const answer = netYieldRankingFixture({
  items: [
    netYieldRankingItemFixture({ id: 2, netApr: 3.1, breakEvenDays: 40 }),
    netYieldRankingItemFixture({ id: 3, netApr: 1.2, breakEvenDays: 200 }),
    netYieldRankingItemFixture({
      id: 1,
      apr: 9,
      netApr: null,
      netAmount: null,
      totalCost: null,
      breakEvenDays: null,
      unknownCosts: ['gasIn', 'gasOut'],
    }),
    netYieldRankingItemFixture({
      id: 4,
      apr: 6,
      netApr: null,
      netAmount: null,
      totalCost: null,
      breakEvenDays: null,
      unknownCosts: ['entry'],
    }),
  ],
});

const names = (list: { name: string }[]) => list.map((r) => r.name);

describe('the amount and days in the URL', () => {
  it('reads a valid amount and days, the default days without them', () => {
    expect(parseNetInput(new URLSearchParams('net=500&days=30'))).toEqual({
      amountText: '500',
      daysText: '30',
      amount: 500,
      days: 30,
    });
    expect(parseNetInput(new URLSearchParams('net=0.25'))).toMatchObject({
      amount: 0.25,
      days: NET_YIELD_DEFAULT_DAYS,
    });
    expect(parseNetInput(new URLSearchParams(''))).toMatchObject({ amount: null, amountText: '' });
  });

  it('keeps what the API would refuse as typed, without a value', () => {
    for (const net of ['0', 'abc', '-5', '1e3', '5.', '2000000000000'])
      expect(parseNetInput(new URLSearchParams({ net })).amount).toBeNull();
    for (const days of ['0', '3651', '1.5', 'x'])
      expect(parseNetInput(new URLSearchParams({ net: '1', days })).days).toBeNull();
    expect(parseNetInput(new URLSearchParams('net=abc')).amountText).toBe('abc');
  });

  it('writes both while there is an amount, keeps the other parameters, drops net when cleared', () => {
    const params = new URLSearchParams('w-safety=50');
    expect(serializeNetInput(params, { amountText: '500', daysText: '365' }).toString()).toBe(
      'w-safety=50&net=500&days=365',
    );
    expect(serializeNetInput(params, { amountText: '', daysText: '365' }).toString()).toBe(
      'w-safety=50',
    );
    expect(serializeNetInput(params, { amountText: '', daysText: '30' }).toString()).toBe(
      'w-safety=50&days=30',
    );
  });
});

describe('the rows ranked by net APR', () => {
  it('carries each source its figure and its place; the benchmark none', () => {
    const ranked = applyNetRanking(rows, answer);
    expect(ranked.find((r) => r.name === 'Beta')?.net).toMatchObject({ netApr: 3.1, rank: 0 });
    expect(ranked.find((r) => r.isBaseRate)?.net).toBeUndefined();
    const missing = applyNetRanking(rows, netYieldRankingFixture({ items: [] }));
    expect(missing.find((r) => r.name === 'Beta')?.net).toBeNull();
  });

  it("sorts best net APR first as the API answers, unknown last in the API's order", () => {
    const ranked = applyNetRanking(rows, answer);
    expect(names(sortRows(ranked, NET_SORT))).toEqual([
      'Beta',
      'Gamma',
      'Alpha',
      'Delta',
      'DeFi Base Rate',
    ]);
  });

  it('keeps the unknown last when the saver flips the column', () => {
    const ranked = applyNetRanking(rows, answer);
    expect(names(sortRows(ranked, { key: 'netApr', direction: 'ascend' }))).toEqual([
      'Gamma',
      'Beta',
      'Alpha',
      'Delta',
      'DeFi Base Rate',
    ]);
  });

  it('says which costs are unknown, and when the deposit breaks even', () => {
    const ranked = applyNetRanking(rows, answer);
    const alpha = ranked.find((r) => r.name === 'Alpha')!.net!;
    expect(unknownReason(alpha)).toBe(
      'Unknown: the gas of the deposit and the gas of the withdrawal cannot be read from the chain for this source, so what the amount keeps is not known. Ranked last.',
    );
    expect(unknownReason(null)).toMatch(/no net figure yet/);
    const beta = ranked.find((r) => r.name === 'Beta')!.net!;
    expect(breakEvenText(beta, 365)).toBe('Even on day 40');
    expect(breakEvenText({ ...beta, breakEvenDays: null }, 30)).toBe('Not even after 30 days');
  });
});
