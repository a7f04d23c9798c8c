import { describe, expect, it } from 'vitest';
import { niceStep, niceTicks } from './nice-ticks.ts';

describe('niceStep', () => {
  it('picks the round step (1, 2, 2.5 or 5 times a power of ten) nearest to the rough one', () => {
    expect(niceStep(2.1675)).toBe(2);
    expect(niceStep(1.75)).toBe(2);
    expect(niceStep(0.6)).toBe(0.5);
    expect(niceStep(2.4)).toBe(2.5);
    expect(niceStep(0.25)).toBe(0.25);
    expect(niceStep(7.9)).toBe(10);
    expect(niceStep(37)).toBe(50);
    expect(niceStep(0.003)).toBe(0.0025);
  });

  it('falls back to 1 for an empty or broken range', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(-3)).toBe(1);
    expect(niceStep(Number.NaN)).toBe(1);
  });
});

describe('niceTicks', () => {
  it('ticks the comparison axis 0 to 8.67 at 0, 2, 4, 6, 8 (not 2.17, 4.33, …)', () => {
    expect(niceTicks(0, 8.67)).toEqual([0, 2, 4, 6, 8]);
  });

  it('every tick is a whole multiple of a round step, without float noise', () => {
    for (const [min, max] of [
      [0, 8.67],
      [0, 3.1],
      [-2, -1],
      [0, 0.7],
      [1.3, 57.2],
      [0, 1_234_567],
    ] as const) {
      const ticks = niceTicks(min, max);
      const step = ticks[1]! - ticks[0]!;
      expect(niceStep(step)).toBeCloseTo(step, 12);
      for (const tick of ticks) {
        expect(tick).toBeGreaterThanOrEqual(min);
        expect(tick).toBeLessThanOrEqual(max);
        expect(String(tick)).not.toMatch(/\.\d{5,}/);
      }
      // The data still uses the space: three to six gridlines over the range.
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
    expect(niceTicks(0, 0.7)).toEqual([0, 0.2, 0.4, 0.6]);
    expect(niceTicks(-2, -1)).toEqual([-2, -1.75, -1.5, -1.25, -1]);
  });

  it('covers the range when asked (an axis that grows to its outer ticks)', () => {
    expect(niceTicks(0.4, 8.67, { cover: true })).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(3.2, 4.9, { cover: true, steps: 4 })).toEqual([3, 3.5, 4, 4.5, 5]);
  });

  it('takes the number of steps it is asked for, roughly', () => {
    expect(niceTicks(0, 10, { steps: 2 })).toEqual([0, 5, 10]);
    expect(niceTicks(0, 10, { steps: 10 })).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('gives a flat range two ticks around it when covering, none for non-finite bounds', () => {
    expect(niceTicks(5, 5, { cover: true })).toEqual([5, 6]);
    expect(niceTicks(0, Number.POSITIVE_INFINITY)).toEqual([]);
  });
});
