import type { LiquidityPoint } from '@yield/contract';
import {
  AMIHUD_MAX,
  AMIHUD_MIN,
  LIQUIDITY_PCT_MAX,
  LIQUIDITY_PCT_MIN,
} from '@yield/contract/constants';

/** Exit liquidity is clamped to 0-3 % and drawn on a 0-5 left axis. */
export const LIQUIDITY_AXIS_MAX = 5;

/** Amihud illiquidity clamped to about 3.2e-11..7.51e-11, shown ×1e11 on 0-10. */
export const AMIHUD_SCALE = 1e11;
export const AMIHUD_AXIS_MAX = 10;

export const LIQUIDITY_HINT = 'above 1-2% is healthy';

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function clampLiquidityPct(value: number): number {
  return clamp(value, LIQUIDITY_PCT_MIN, LIQUIDITY_PCT_MAX);
}

export function clampAmihud(value: number): number {
  return clamp(value, AMIHUD_MIN, AMIHUD_MAX);
}

/** The Amihud value as plotted: clamped, then scaled by 1e11 (3.2..7.51 on the right axis). */
export function scaledAmihud(value: number): number {
  return clampAmihud(value) * AMIHUD_SCALE;
}

export interface LiquiditySeries {
  /** [timestamp ms, liquidity %] */
  liquidity: [number, number][];
  /** [timestamp ms, Amihud ×1e11] */
  amihud: [number, number][];
}

/** API points (dated, possibly out of range after an operator edit) to the two plotted series. */
export function toLiquiditySeries(points: readonly LiquidityPoint[]): LiquiditySeries {
  const valid = points
    .map((p) => ({ ...p, ts: Date.parse(`${p.date}T00:00:00Z`) }))
    .filter(
      (p) => Number.isFinite(p.ts) && Number.isFinite(p.liquidityPct) && Number.isFinite(p.amihud),
    )
    .sort((a, b) => a.ts - b.ts);
  return {
    liquidity: valid.map((p) => [p.ts, round(clampLiquidityPct(p.liquidityPct), 3)]),
    amihud: valid.map((p) => [p.ts, round(scaledAmihud(p.amihud), 3)]),
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Axis ticks as fixed positions, so the axes end exactly at 5 and 10. */
export const LIQUIDITY_AXIS_TICKS = [0, 1, 2, 3, 4, 5];
export const AMIHUD_AXIS_TICKS = [0, 2, 4, 6, 8, 10];
