/**
 * The compare page's rules as pure functions: which ids of the link can be shown, the columns'
 * figures (read from the API, never recomputed, except the difference to the base rate) and the
 * words that name the sources.
 */
import type { BaseRates, SourceRow, StrategyMetrics, YieldSource } from '@yield/contract';
import { BASE_KEY_OF_TYPE, type BaseKey, type SourceType } from '@yield/contract/constants';
import { colors } from '@yield/platform';
import type { CompareIds } from '@yield/ui';
import { findSource } from '../../shared/sources.ts';

/** One line colour per column, in the order chosen (the chart and the column heads agree). */
export const SOURCE_COLORS = [colors.primary, colors.orange, colors.accent] as const;

/** "Stablecoin" or "Crypto", the comparison's words for the two markets. */
export const MARKET_LABEL: Record<SourceType, string> = {
  stablecoin: 'Stablecoin',
  defi: 'Crypto',
};

/** The link's ids against the source list: the rows to show, or why they cannot be shown. */
export type CompareSelection =
  | { ok: true; sources: SourceRow[] }
  | ({ ok: false } & (
      | { problem: Exclude<CompareIds, { ok: true }>['problem']; malformed: string[] }
      | { problem: 'unknown'; unknown: number[] }
    ) & {
        /** The known sources the link names, once each: what could still be compared. */
        known: SourceRow[];
      });

export function resolveSelection(
  parsed: CompareIds,
  list: readonly YieldSource[],
): CompareSelection {
  const known = parsed.ids.flatMap((id) => findSource(list, id) ?? []);
  if (!parsed.ok) {
    return { ok: false, problem: parsed.problem, malformed: parsed.malformed, known };
  }
  const unknown = parsed.ids.filter((id) => !findSource(list, id));
  if (unknown.length > 0) return { ok: false, problem: 'unknown', unknown, known };
  return { ok: true, sources: known };
}

/** "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A column of the figures table. */
export interface CompareColumn {
  source: SourceRow;
  color: string;
  /** GET /api/strategies' row for the source (undefined while loading or when missing). */
  metrics: StrategyMetrics | undefined;
  /** Its figures exist (not `insufficient_data`; a stale row keeps those of its last day). */
  measured: boolean;
  baseKey: BaseKey;
  /** The risk-adjusted 30d APR of the DeFi Base Rate it is ranked against, or null. */
  baseRiskAdjusted: number | null;
  /** Risk-adjusted APR − the base rate's, percentage points a year, or null. */
  vsBase: number | null;
  /** The API's verdict, never GREAT while stale. */
  great: boolean;
}

export function compareColumns(
  sources: readonly SourceRow[],
  metrics: readonly StrategyMetrics[] | undefined,
  rates: BaseRates | undefined,
): CompareColumn[] {
  return sources.map((source, index) => {
    const row = metrics?.find((m) => m.id === source.id);
    const measured = Boolean(row && row.status !== 'insufficient_data');
    const baseMeasured = rates ? rates.status[source.type] !== 'insufficient_data' : false;
    const baseRiskAdjusted =
      rates && baseMeasured
        ? source.type === 'stablecoin'
          ? rates.baserateRiskAdjustedStable
          : rates.baserateRiskAdjustedDefi
        : null;
    return {
      source,
      color: SOURCE_COLORS[index % SOURCE_COLORS.length]!,
      metrics: row,
      measured,
      baseKey: BASE_KEY_OF_TYPE[source.type],
      baseRiskAdjusted,
      vsBase:
        row && measured && baseRiskAdjusted !== null
          ? row.riskAdjustedYield30d - baseRiskAdjusted
          : null,
      great: Boolean(row && measured && row.great && row.status === 'ok'),
    };
  });
}
