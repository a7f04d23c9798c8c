import {
  AMIHUD_AXIS_MAX,
  AMIHUD_AXIS_TICKS,
  clampAmihud,
  clampLiquidityPct,
  LIQUIDITY_AXIS_MAX,
  LIQUIDITY_AXIS_TICKS,
  scaledAmihud,
  toLiquiditySeries,
} from './liquidity.ts';

describe('liquidity clamps (0-3% on 0-5, Amihud ×1e11 on 0-10)', () => {
  it('clamps liquidity to 0-3 %', () => {
    expect(clampLiquidityPct(-1)).toBe(0);
    expect(clampLiquidityPct(1.5)).toBe(1.5);
    expect(clampLiquidityPct(4.2)).toBe(3);
  });

  it('clamps Amihud to 3.2e-11..7.51e-11 and scales it by 1e11', () => {
    expect(clampAmihud(1e-12)).toBe(3.2e-11);
    expect(clampAmihud(9e-11)).toBe(7.51e-11);
    expect(clampAmihud(5e-11)).toBe(5e-11);
    expect(scaledAmihud(1e-12)).toBeCloseTo(3.2, 10);
    expect(scaledAmihud(1e-9)).toBeCloseTo(7.51, 10);
    expect(scaledAmihud(4.8531e-11)).toBeCloseTo(4.8531, 10);
  });

  it('draws liquidity on a 0-5 axis and Amihud on a 0-10 axis', () => {
    expect(LIQUIDITY_AXIS_MAX).toBe(5);
    expect(LIQUIDITY_AXIS_TICKS.at(-1)).toBe(5);
    expect(AMIHUD_AXIS_MAX).toBe(10);
    expect(AMIHUD_AXIS_TICKS.at(-1)).toBe(10);
  });

  it('turns API points into sorted, clamped chart series and drops unusable rows', () => {
    const series = toLiquiditySeries([
      { date: '2026-05-27', liquidityPct: 3.9, amihud: 9e-11 },
      { date: '2026-05-26', liquidityPct: 1.521, amihud: 4.8531e-11 },
      { date: 'not a date', liquidityPct: 1, amihud: 5e-11 },
    ]);
    expect(series.liquidity).toEqual([
      [Date.UTC(2026, 4, 26), 1.521],
      [Date.UTC(2026, 4, 27), 3],
    ]);
    expect(series.amihud).toEqual([
      [Date.UTC(2026, 4, 26), 4.853],
      [Date.UTC(2026, 4, 27), 7.51],
    ]);
  });
});
