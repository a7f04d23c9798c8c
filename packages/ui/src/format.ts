/**
 * The site's number and date formats, one implementation for every remote (bundled into each, not
 * shared at runtime, so a remote never depends on the shell's copy of it). No figure (null,
 * undefined, NaN, infinity) reads 'N/A', so a failed request never shows as 0.
 */
import type { Provenance } from '@yield/contract';

export const NOT_AVAILABLE = 'N/A';

function isFigure(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Two decimals; float noise that rounds to zero reads 0.00, never -0.00. */
function twoDecimals(value: number): string {
  const text = value.toFixed(2);
  return Number(text) === 0 ? '0.00' : text;
}

const TVL_UNITS = [
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
] as const;

/**
 * TVL in compact dollars: whole dollars with grouping below 1,000 ($950); K and M with one
 * decimal ($12.3K, $75.6M); B with one decimal on the strategy and premium pages ($5.0B) and two
 * on the comparison page and in prose (`billionDecimals` 2: $4.96B).
 */
export function formatTvl(value: number | null | undefined, billionDecimals = 1): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  for (let i = 0; i < TVL_UNITS.length; i++) {
    const unit = TVL_UNITS[i]!;
    if (abs < unit.size) continue;
    const decimals = unit.suffix === 'B' ? billionDecimals : 1;
    const scaled = Number((abs / unit.size).toFixed(decimals));
    // 999,960 rounds to "1000.0K": show it in the next unit up instead.
    const larger = TVL_UNITS[i - 1];
    if (scaled >= 1000 && larger) {
      const up = larger.suffix === 'B' ? billionDecimals : 1;
      return `${sign}$${(abs / larger.size).toFixed(up)}${larger.suffix}`;
    }
    return `${sign}$${scaled.toFixed(decimals)}${unit.suffix}`;
  }
  const whole = Math.round(abs);
  if (whole >= 1000) return `${sign}$1.0K`;
  return `${sign}$${whole}`;
}

/**
 * Dollar axis labels of a chart: the TVL format, with as many decimals as the tick step needs so
 * that neighbouring ticks never read the same (a $4.95B..$5.00B axis would otherwise show $5.0B
 * twice).
 */
export function formatTvlTick(value: number, tickInterval: number): string {
  const abs = Math.abs(value);
  const unit = abs >= 1e9 ? 1e9 : abs >= 1e6 ? 1e6 : abs >= 1e3 ? 1e3 : 1;
  if (unit === 1 || !(tickInterval > 0)) return formatTvl(value);
  const decimals = Math.min(3, Math.max(1, Math.ceil(-Math.log10(tickInterval / unit))));
  const suffix = unit === 1e9 ? 'B' : unit === 1e6 ? 'M' : 'K';
  return `${value < 0 ? '-' : ''}$${(abs / unit).toFixed(decimals)}${suffix}`;
}

/** An APR (or any percent): two decimals and a percent sign, a negative value as it is. */
export function formatApr(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  return `${twoDecimals(value)}%`;
}

/**
 * Percentage points a year, the unit of the risk charges and of `risk` (docs/methodology.md):
 * two decimals and "pp" ("0.75 pp"), so a charge never reads as a percent of the yield.
 */
export function formatPoints(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  return `${twoDecimals(value)} pp`;
}

/** A difference in percentage points, signed: "+0.75 pp", "−1.20 pp" (a true minus sign). */
export function formatSignedPoints(value: number | null | undefined): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  return `${value > 0 ? '+' : value < 0 ? '\u2212' : ''}${formatPoints(Math.abs(value))}`;
}

/** Digits with US thousands separators: "1234567" → "1,234,567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * An amount of money in its unit: dollars with cents and grouping ("$1,234.56"), ether with four
 * decimals ("0.0412 ETH"). `signed` adds + to a gain (a difference); a loss always shows its −.
 * Written out rather than asked of toLocaleString, as `formatCount` is: the first number format
 * cost the strategy page's earnings render a ~60-75 ms task on a phone (docs/performance.md,
 * "The shell's start, task by task").
 */
export function formatAmount(
  value: number | null | undefined,
  unit: 'USD' | 'ETH',
  signed = false,
): string {
  if (!isFigure(value)) return NOT_AVAILABLE;
  const decimals = unit === 'USD' ? 2 : 4;
  const rounded = Number(value.toFixed(decimals));
  const sign = rounded < 0 ? '-' : signed && rounded > 0 ? '+' : '';
  const [whole = '0', fraction = ''] = Math.abs(rounded).toFixed(decimals).split('.');
  const digits = `${groupThousands(whole)}.${fraction}`;
  return unit === 'USD' ? `${sign}$${digits}` : `${sign}${digits} ETH`;
}

/**
 * A whole count with US grouping ("12,345"). Written out rather than asked of toLocaleString: the
 * first number format a page builds costs a phone ~70 ms of locale set-up inside the render that
 * shows the count (the scanner's, docs/performance.md "Phone speed").
 */
export function formatCount(count: number): string {
  const whole = Math.round(Math.abs(count)).toString();
  return `${count < 0 && whole !== '0' ? '-' : ''}${groupThousands(whole)}`;
}

/** Holder counts with locale grouping ("12,345 holders", "1 holder"). */
export function formatHolders(count: number | null | undefined): string {
  if (!isFigure(count)) return NOT_AVAILABLE;
  const whole = Math.round(count);
  return `${whole.toLocaleString()} ${whole === 1 ? 'holder' : 'holders'}`;
}

export type MonthStyle = 'short' | 'long';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
let localeFormat: Intl.DateTimeFormat | undefined;

/**
 * A calendar day in US English: "Nov 21, 2026", or "November 21, 2026" with `month` 'long'.
 * A YYYY-MM-DD string or a ms timestamp (as the API sends days) is read in UTC, so it never shifts
 * a day in the reader's time zone; a Date is its local day (today's date, for example). Input that
 * is not a date is returned as it is. Written out rather than asked of Intl.DateTimeFormat: the
 * first date format a page builds costs the browser ~20 ms (~90 ms on a phone) of locale set-up,
 * inside the comparison's first render (docs/performance.md, "Phone speed"); the text is the same
 * (format.test.ts checks every month against Intl).
 */
export function formatDay(value: string | number | Date, month: MonthStyle = 'short'): string {
  const time =
    value instanceof Date
      ? Date.UTC(value.getFullYear(), value.getMonth(), value.getDate())
      : typeof value === 'number'
        ? value
        : Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(time)) return String(value);
  const day = new Date(time);
  const name = MONTHS[day.getUTCMonth()]!;
  return `${month === 'long' ? name : name.slice(0, 3)} ${day.getUTCDate()}, ${day.getUTCFullYear()}`;
}

/** A timestamp as a date in the reader's own locale (what toLocaleDateString() gives). */
export function formatLocaleDate(timestamp: number): string {
  localeFormat ??= new Intl.DateTimeFormat();
  return localeFormat.format(timestamp);
}

/** What `formatProvenance` needs of a row's or a series' provenance (GET /api/... `provenance`). */
export type DataOrigin = Pick<Provenance, 'kind' | 'asOf'>;

/** What a source or base rate without live data shows where its figures would be. */
export const NO_LIVE_DATA = 'No live data';

/** True for a series without live data (provenance kind `none`): listed, never plotted or ranked. */
export function hasNoLiveData(provenance: Pick<Provenance, 'kind'> | undefined | null): boolean {
  return provenance?.kind === 'none';
}

/**
 * Where a figure comes from, with its data date (the one date format, `formatDay`):
 * "Data: DeFiLlama, as of Nov 23, 2026" for imported series ("Data: share price on chain, as of …"
 * for series read from the chain), "Sample data as of Nov 21, 2026" for the shipped sample, "Data
 * as of …" for rows an operator typed, "No live data" for a series without live data (provenance
 * kind `none`). Without a date the day is left out.
 */
export function formatProvenance({ kind, asOf }: DataOrigin): string {
  // The site has imported, and this series has no feed yet: no figures at all.
  if (kind === 'none') return NO_LIVE_DATA;
  const day = asOf ? formatDay(asOf) : null;
  if (kind === 'defillama') return day ? `Data: DeFiLlama, as of ${day}` : 'Data: DeFiLlama';
  if (kind === 'onchain')
    return day ? `Data: share price on chain, as of ${day}` : 'Data: share price on chain';
  if (kind === 'sample') return day ? `Sample data as of ${day}` : 'Sample data';
  return day ? `Data as of ${day}` : 'Data';
}

/** A stale series (no new day for more than 48 h): "Stale: no new data since Nov 20, 2026". */
export function formatStale({ asOf }: Pick<Provenance, 'asOf'>): string {
  return asOf ? `Stale: no new data since ${formatDay(asOf)}` : 'Stale: no data yet';
}
