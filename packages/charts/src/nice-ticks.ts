/**
 * Round axis ticks: every axis of the site's charts ticks at round values (0, 2, 4, 6% or
 * 0, 2.5, 5%), never at a quarter of an odd range (2.17%, 4.33%). No Highcharts here: the
 * comparison's static first paint draws its gridlines from the same ticks.
 */

/** The round steps, per power of ten. */
const NICE_MULTIPLES = [1, 2, 2.5, 5, 10] as const;

/** Rounds away the floating-point noise of `k × step` (0.30000000000000004 → 0.3). */
function clean(value: number): number {
  const rounded = Number(value.toPrecision(12));
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * The round step (1, 2, 2.5 or 5 times a power of ten) nearest to `rough`, the step a range
 * would get if cut into equal parts. 1.75 → 2, 2.17 → 2, 0.6 → 0.5, 0 or less → 1.
 */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  let best: number = NICE_MULTIPLES[0];
  for (const multiple of NICE_MULTIPLES) {
    // Compared on a log scale: 1.5 is as far from 1 as from 2.25.
    if (Math.abs(Math.log(multiple / fraction)) < Math.abs(Math.log(best / fraction))) {
      best = multiple;
    }
  }
  return clean(best * power);
}

export interface NiceTicksOptions {
  /** About how many steps the range is cut into (default 4: the comparison's quarter steps). */
  steps?: number;
  /**
   * `true`: the ticks cover the range (the first at or below `min`, the last at or above `max`),
   * for an axis that may grow to its outer ticks. `false` (default): only the round values inside
   * the range, for an axis whose ends are fixed.
   */
  cover?: boolean;
}

/** Round ticks for an axis from `min` to `max`: multiples of `niceStep((max - min) / steps)`. */
export function niceTicks(min: number, max: number, options: NiceTicksOptions = {}): number[] {
  const { steps = 4, cover = false } = options;
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max < min) [min, max] = [max, min];
  const step = niceStep((max - min) / steps);
  // A hair of tolerance, so a bound that is a multiple up to float noise counts as one.
  const epsilon = step * 1e-9;
  const first = cover ? Math.floor((min + epsilon) / step) : Math.ceil((min - epsilon) / step);
  const last = cover ? Math.ceil((max - epsilon) / step) : Math.floor((max + epsilon) / step);
  const ticks: number[] = [];
  for (let i = first; i <= last; i += 1) ticks.push(clean(i * step));
  if (ticks.length === 1 && cover) ticks.push(clean((last + 1) * step));
  return ticks;
}
