/**
 * Which alert crossings are in force for a source right now, each under a stable key, computed
 * from the served figures (api/src/modules/yields/snapshot.ts) and sources.json alone, so every process and
 * every restart derives the same keys from the same data (docs/api.md, "Alerts"):
 *
 * - `below-base:<id>:<day>`: the source's risk-adjusted 30-day APR is strictly below its base
 *   rate's (both computed, neither stale); `<day>` is the first day of the current run of days
 *   below, found by recomputing ra30-v1 day by day backwards. Going back above and below again
 *   later is a new crossing with a new day.
 * - `incident:<id>:<day>:<kind>`: an active incident of the source in sources.json.
 * - `stale:<id>:<day>`: the source's imported series stopped arriving; `<day>` its newest day.
 * - `warning:<id>:<kind>:<day>`: an open warning detected from the source's data
 *   (api/src/engine/warnings.ts) that no operator dismissed; `<day>` the day it opened. One that
 *   closes and opens again on a later day is a new crossing.
 *
 * Figures computed from sample rows (provenance kind `sample`, api/src/modules/yields/provenance.ts)
 * are invented: a source whose series is sample, or whose base rate counts a sample component, has
 * no below-base, stale or warning crossing (docs/decisions.md 45). An incident is the operators'
 * own dated statement in sources.json, with its report, and no figure of the series: it is a
 * crossing whatever the series' provenance.
 */
import { BASE_KEY_OF_TYPE, type DetectedWarning } from '@yield/contract';
import type { AlertKind } from './store.ts';
import type { SourcesFile } from '../yields/index.ts';
import { scoreAt, type ComputedSeries } from '../yields/index.ts';
import { computeRa30, type DailyRow } from '../../engine/ra30.ts';

export interface Crossing {
  kind: AlertKind;
  key: string;
  sourceId: number;
  sourceName: string;
  /**
   * The day it happened (below-base: first day below; incident: its date; stale: last data day;
   * warning: the day it opened).
   */
  day: string;
  /** below-base: the figures on the newest day. */
  figures?: { sourceRa: number; baseName: string; baseRa: number; asOf: string };
  incident?: { kind: string; summary: string; link: string };
  /** warning: the detected warning, with the figures that raised it and its plain sentence. */
  warning?: Pick<DetectedWarning, 'kind' | 'figures' | 'text'>;
}

type Scores = SourcesFile['sources'][number]['scores'];

/** The rule of a below-base crossing: strictly below (equal is not below). */
export function isBelowBase(sourceRa: number, baseRa: number): boolean {
  return sourceRa < baseRa;
}

/**
 * The first day of the run of days, ending on the source's newest day, on which its risk-adjusted
 * 30-day APR was below its base rate's (each computed from the rows up to that day, with the
 * scores in effect then). The caller has checked the newest day.
 */
export function belowBaseSince(
  source: { rows: readonly DailyRow[]; scores: Scores },
  base: { rows: readonly DailyRow[]; scores: Scores },
): string | null {
  const byDate = (a: DailyRow, b: DailyRow) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
  const s = [...source.rows].sort(byDate);
  const b = [...base.rows].sort(byDate);
  if (s.length === 0) return null;
  let since = s[s.length - 1]!.date;
  let bEnd = b.length;
  for (let i = s.length - 2; i >= 0; i--) {
    const day = s[i]!.date;
    while (bEnd > 0 && b[bEnd - 1]!.date > day) bEnd--;
    const sRows = s.slice(0, i + 1);
    const bRows = b.slice(0, bEnd);
    const sr = computeRa30(sRows, scoreAt(source.scores, day));
    const br = computeRa30(bRows, scoreAt(base.scores, bRows.at(-1)?.date ?? null));
    if (sr.status !== 'ok' || br.status !== 'ok') break;
    if (!isBelowBase(sr.riskAdjustedYield30d, br.riskAdjustedYield30d)) break;
    since = day;
  }
  return since;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'incident';

/** Whether a row's figures are the generated sample's (never the matter of an alert). */
export const isSample = (row: Pick<ComputedSeries, 'provenance'>) =>
  row.provenance.kind === 'sample';

/** Every crossing in force for one source and kind (empty for an unknown source). */
export function crossingsOf(
  series: ReadonlyMap<string, ComputedSeries>,
  sources: SourcesFile,
  sourceId: number,
  kind: AlertKind,
): Crossing[] {
  const record = sources.sources.find((s) => s.id === sourceId);
  const row = series.get(String(sourceId));
  if (!record || !row) return [];
  const common = { kind, sourceId, sourceName: record.name };
  if (kind === 'incident') {
    return record.incidents
      .filter((i) => i.active)
      .map((i) => ({
        ...common,
        key: `incident:${sourceId}:${i.date}:${slug(i.kind)}`,
        day: i.date,
        incident: { kind: i.kind, summary: i.summary, link: i.link },
      }));
  }
  if (isSample(row)) return [];
  if (kind === 'warning') {
    return row.warnings
      .filter((w) => w.closedOn === null && !w.dismissed)
      .map((w) => ({
        ...common,
        key: `warning:${sourceId}:${w.kind}:${w.openedOn}`,
        day: w.openedOn,
        warning: { kind: w.kind, figures: w.figures, text: w.text },
      }));
  }
  if (kind === 'stale') {
    const day = row.provenance.asOf;
    if (row.status !== 'stale' || day === null) return [];
    return [{ ...common, key: `stale:${sourceId}:${day}`, day }];
  }
  const baseKey = BASE_KEY_OF_TYPE[record.type];
  const base = series.get(baseKey);
  const baseRecord = sources.baseRates.find((b) => b.key === baseKey);
  if (!base || !baseRecord || isSample(base)) return [];
  if (row.status !== 'ok' || base.status !== 'ok') return [];
  const sourceRa = row.result.riskAdjustedYield30d;
  const baseRa = base.result.riskAdjustedYield30d;
  if (!isBelowBase(sourceRa, baseRa) || row.result.asOf === null) return [];
  const day = belowBaseSince(
    { rows: row.rows, scores: record.scores },
    { rows: base.rows, scores: baseRecord.scores },
  )!;
  return [
    {
      ...common,
      key: `below-base:${sourceId}:${day}`,
      day,
      figures: { sourceRa, baseName: base.name, baseRa, asOf: row.result.asOf },
    },
  ];
}
