/**
 * "Your weights": the saver's own ranking (docs/methodology.md, "Your weights: the saver's own
 * ranking"). Pure functions: the weights read from and written to the page's URL, and the rows
 * with the saver's risk-adjusted APR, computed in the browser from the charges the API sent.
 */
import {
  DEFAULT_WEIGHTS,
  RISK_CHARGE_KEYS,
  saverRiskAdjusted,
  WEIGHT_DEFAULT_PCT,
  WEIGHT_MAX_PCT,
  WEIGHT_MIN_PCT,
  WEIGHT_STEP_PCT,
  type ChargeWeights,
  type RiskChargeKey,
} from '@yield/contract/constants';
import { formatApr, sortRows, type ComparisonRow, type SortState } from '../model.ts';

export { DEFAULT_WEIGHTS, RISK_CHARGE_KEYS, type ChargeWeights, type RiskChargeKey };

/** The query parameter of a charge's weight: `?w-volatility=150&w-safety=50`. */
export function weightParam(key: RiskChargeKey): string {
  return `w-${key}`;
}

/** A weight as the saver can set it: within 0-200% and on the 5% grid; null when not a number. */
export function clampWeight(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const bounded = Math.min(WEIGHT_MAX_PCT, Math.max(WEIGHT_MIN_PCT, value));
  return Math.round(bounded / WEIGHT_STEP_PCT) * WEIGHT_STEP_PCT;
}

/**
 * The weights a URL carries. A missing, empty or non-numeric value is ignored (100%); a number
 * outside 0-200 is clamped to the nearest end, and one off the 5% grid rounded to it.
 */
export function parseWeights(params: URLSearchParams): ChargeWeights {
  const weights = { ...DEFAULT_WEIGHTS };
  for (const key of RISK_CHARGE_KEYS) {
    const raw = params.get(weightParam(key))?.trim();
    if (!raw) continue;
    const value = clampWeight(Number(raw));
    if (value !== null) weights[key] = value;
  }
  return weights;
}

/** The URL's parameters with these weights: only the weights that differ from 100% appear. */
export function serializeWeights(params: URLSearchParams, weights: ChargeWeights): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of RISK_CHARGE_KEYS) {
    next.delete(weightParam(key));
    if (weights[key] !== WEIGHT_DEFAULT_PCT) next.set(weightParam(key), String(weights[key]));
  }
  return next;
}

export function isPublishedWeights(weights: ChargeWeights): boolean {
  return RISK_CHARGE_KEYS.every((key) => weights[key] === WEIGHT_DEFAULT_PCT);
}

/**
 * The rows with the saver's risk-adjusted APR (and its risk, APR minus that figure). At the
 * published weights the rows themselves; a row without charges (no live figures) is unchanged.
 */
export function applyWeights(rows: ComparisonRow[], weights: ChargeWeights): ComparisonRow[] {
  if (isPublishedWeights(weights)) return rows;
  return rows.map((row) => {
    if (!row.charges || row.riskAdjustedYield30d === null || row.yield30d === null) return row;
    const riskAdjustedYield30d = saverRiskAdjusted(row.riskAdjustedYield30d, row.charges, weights);
    return { ...row, riskAdjustedYield30d, risk: row.yield30d - riskAdjustedYield30d };
  });
}

/** The ranking the weights change: by risk-adjusted APR, best first (the benchmark stays last). */
export const RANKED_SORT: SortState = { key: 'riskAdjustedYield30d', direction: 'descend' };

/** The sources of a table in ranking order (the benchmark row left out). */
export function ranking(rows: readonly ComparisonRow[]): ComparisonRow[] {
  return sortRows(rows, RANKED_SORT).filter((row) => !row.isBaseRate);
}

/** What the live region says after a change: which source leads each table now. */
export function rankingAnnouncement(
  tables: readonly { title: string; rows: readonly ComparisonRow[] }[],
  published: boolean,
): string {
  const leaders = tables
    .map(({ title, rows }) => {
      const first = ranking(rows)[0];
      return first
        ? `${title} led by ${first.name} at ${formatApr(first.riskAdjustedYield30d)}`
        : null;
    })
    .filter((text): text is string => text !== null);
  const lead = published ? 'Published ranking restored' : 'Re-ranked with your weights';
  return leaders.length > 0 ? `${lead}: ${leaders.join('; ')}.` : `${lead}.`;
}
