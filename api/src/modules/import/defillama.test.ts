import { describe, expect, it } from 'vitest';
import { chartUrl, parseChart } from './defillama.ts';

const point = (timestamp: string, apy: number | null, extra: Record<string, unknown> = {}) => ({
  timestamp,
  tvlUsd: 1000,
  apy,
  apyBase: apy,
  apyReward: null,
  il7d: null,
  apyBase7d: null,
  ...extra,
});
const body = (data: unknown[]) => JSON.stringify({ status: 'success', data });
const options = { days: 450, today: '2026-11-23' };

describe('parseChart', () => {
  it('keeps the latest snapshot of each UTC day, compared as instants (offsets included)', () => {
    const { rows, snapshots } = parseChart(
      body([
        point('2026-11-22T23:30:00.000Z', 2),
        point('2026-11-22T01:00:00.000Z', 1),
        // 2026-11-23T00:30+02:00 is 22:30 UTC on the 22nd: earlier than 23:30Z.
        point('2026-11-23T00:30:00+02:00', 9),
        point('2026-11-23T05:00:00.000Z', 3),
      ]),
      options,
    );
    expect(snapshots).toBe(4);
    expect(rows.map((r) => [r.date, r.apy])).toEqual([
      ['2026-11-22', 2],
      ['2026-11-23', 3],
    ]);
  });

  it('keeps pricePerShare when positive and drops the fields ra30-v1 does not use', () => {
    const { rows } = parseChart(
      body([
        point('2026-11-23T05:00:00.000Z', 3, { pricePerShare: 1.05, il7d: 0.1, apyBase7d: 2.9 }),
      ]),
      options,
    );
    expect(rows).toEqual([{ date: '2026-11-23', apy: 3, tvlUsd: 1000, pricePerShare: 1.05 }]);
  });

  it('refuses a point dated in the future, a status other than success, and APY below -100%', () => {
    expect(() => parseChart(body([point('2026-11-24T01:00:00.000Z', 3)]), options)).toThrow(
      'implausible value at $.data[0] (2026-11-24): dated in the future',
    );
    expect(() => parseChart(JSON.stringify({ status: 'error', data: [] }), options)).toThrow(
      /^unexpected response shape: \$\.status: /,
    );
    expect(() => parseChart(body([point('2026-11-23T01:00:00.000Z', -100)]), options)).toThrow(
      'implausible value at $.data[0] (2026-11-23): APY -100%',
    );
  });

  it('only checks the days it would import: an old spike outside --days does not fail the feed', () => {
    const { rows } = parseChart(
      body([point('2024-01-01T01:00:00.000Z', 5000), point('2026-11-23T01:00:00.000Z', 3)]),
      { ...options, days: 30 },
    );
    expect(rows).toEqual([{ date: '2026-11-23', apy: 3, tvlUsd: 1000 }]);
  });

  it('builds the chart URL with or without a trailing slash', () => {
    expect(chartUrl('https://yields.llama.fi/', 'abc')).toBe('https://yields.llama.fi/chart/abc');
  });
});

describe('parseChart: days the method cannot use', () => {
  it('leaves out an implausible or malformed day and names it; imports the rest', () => {
    const { rows, leftOut } = parseChart(
      body([
        point('2026-11-20T01:00:00.000Z', 3, { unknownField: 'x' }),
        point('2026-11-21T01:00:00.000Z', 1500),
        point('2026-11-22T01:00:00.000Z', 3, { tvlUsd: null }),
        point('2026-11-23T01:00:00.000Z', 4),
      ]),
      options,
    );
    expect(rows.map((r) => r.date)).toEqual(['2026-11-20', '2026-11-23']);
    expect(leftOut).toEqual([
      { date: '2026-11-21', value: 1500, reason: 'APY 1500% is above 1000%' },
      {
        date: '2026-11-22',
        value: null,
        reason: '$.data[2].tvlUsd: Invalid input: expected number, received null',
      },
    ]);
  });

  it('refuses a feed whose every day in the window is unusable', () => {
    expect(() =>
      parseChart(
        body([point('2026-11-22T01:00:00.000Z', 2000), point('2026-11-23T01:00:00.000Z', 5000)]),
        options,
      ),
    ).toThrow(
      'implausible value at $.data[0] (2026-11-22): APY 2000% is above 1000% (and 1 more day(s))',
    );
  });
});
