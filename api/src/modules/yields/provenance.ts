/**
 * Where each figure comes from and whether it is still current.
 *
 * - kind `defillama`: the series was imported from a DeFiLlama pool (history.json `provenance`);
 *   `onchain`: its rows were computed from daily share prices (or rates) read on chain;
 *   `sample`: generated sample data (history.json `sample: true` and no provenance entry);
 *   `operator`: rows an operator typed (`sample: false`, no provenance entry);
 *   `none`: no live data. Once the site has imported (any series of a sample history.json has a
 *   provenance entry), a series still without one has no feed the import could use: its shipped
 *   sample rows are not served (no figures, no points, never ranked), so no invented figure stands
 *   beside live ones. A fresh clone (nothing imported) keeps `sample`, labelled as such.
 * - Stale: an imported series whose newest day started more than 48 h ago, i.e. neither today's
 *   nor yesterday's (UTC) point has arrived. Only imported series go stale: sample data is labelled
 *   as sample and keeps its fixed dates, so the shipped site does not turn stale as the clock moves.
 *   Rows typed by an operator are dated by the operator, who decides when they are current.
 * - A base rate is stale when one of its imported components is; its kind is `sample` while any
 *   component is sample, else `operator` while any is typed by hand, else `defillama` while any
 *   comes from DeFiLlama, else `onchain`; `none` when no component has live data. A component of
 *   kind `none` is left out of the base rate's mean (snapshot.ts): the components of any other
 *   kind are those the rate uses.
 */
import {
  DEFILLAMA_POOL_PAGE,
  type Feed,
  type Provenance,
  type ProvenanceKind,
} from '@yield/contract';
import type { FeedRecord, HistoryFile } from './schemas.ts';

export const STALE_AFTER_MS = 48 * 3_600_000;

/** One series' provenance (a row's, without the row-level fields). */
export type SeriesProvenance = Omit<Provenance, 'series' | 'components'>;
export type ComponentProvenance = NonNullable<Provenance['components']>[number];
/** A row's provenance (GET /api/strategies, /api/sources, breakdowns and history). */
export type RowProvenance = Provenance;
/** The `feeds` of a source or base row in GET /api/sources. */
export type PublishedFeed = Feed;

/**
 * The `feeds` of a series in GET /api/sources. A DeFiLlama feed with a selector shows the pool it
 * last resolved to and that day (history.json provenance, written by the import), else its
 * expected `pool`, else null until a first import resolves it; an on-chain feed, its contract.
 */
export function publishFeeds(
  series: string,
  feeds: readonly FeedRecord[] | undefined,
  history?: Pick<HistoryFile, 'provenance'> | null,
) {
  const imported = history?.provenance?.[series];
  return (feeds ?? []).map((f): PublishedFeed => {
    if (f.provider === 'onchain')
      return {
        provider: f.provider,
        chain: f.chain,
        kind: f.kind,
        address: f.address,
        ...(f.call ? { call: f.call } : {}),
        series,
      };
    const resolved =
      f.select && imported?.kind === 'defillama' && imported.resolvedOn ? imported : null;
    const pool = resolved?.pool ?? f.pool ?? null;
    return {
      provider: f.provider,
      pool,
      url: pool === null ? null : `${DEFILLAMA_POOL_PAGE}${pool}`,
      series,
      ...(f.select ? { select: f.select } : {}),
      ...(resolved?.resolvedOn ? { resolvedOn: resolved.resolvedOn } : {}),
    };
  });
}

function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** Time (ms) from which an imported series whose newest day is `day` counts as stale. */
export function staleFrom(day: string): number {
  return dayStartMs(day) + STALE_AFTER_MS + 1;
}

/** True once a sample history has been imported into: its series without a feed have no live data. */
export function hasImported(history: HistoryFile): boolean {
  return history.sample && Object.keys(history.provenance ?? {}).length > 0;
}

export function seriesProvenance(history: HistoryFile, key: string, now: Date): SeriesProvenance {
  const rows = history.series[key] ?? [];
  const asOf = rows[rows.length - 1]?.date ?? null;
  const imported = history.provenance?.[key];
  if (imported) {
    const stale = asOf === null || now.getTime() >= staleFrom(asOf);
    return imported.kind === 'defillama'
      ? { kind: 'defillama', asOf, stale, pool: imported.pool, importedAt: imported.importedAt }
      : {
          kind: 'onchain',
          asOf,
          stale,
          chain: imported.chain,
          address: imported.address,
          importedAt: imported.importedAt,
        };
  }
  if (hasImported(history)) return { kind: 'none', asOf: null, stale: false };
  return { kind: history.sample ? 'sample' : 'operator', asOf, stale: false };
}

const KIND_PRECEDENCE: ProvenanceKind[] = ['sample', 'operator', 'defillama', 'onchain', 'none'];

/** Whether a series' figures are served: every kind but `none`. */
export function isLive(p: Pick<SeriesProvenance, 'kind'>): boolean {
  return p.kind !== 'none';
}

/** A base rate's provenance from its components' (asOf: the newest day of the base series). */
export function combineProvenance(
  components: ComponentProvenance[],
  asOf: string | null,
): RowProvenance {
  const kind = KIND_PRECEDENCE.find((k) => components.some((c) => c.kind === k)) ?? 'none';
  return { kind, asOf, stale: components.some((c) => c.stale), components };
}

/** The earliest future time at which one of these currently fresh imported series goes stale. */
export function nextStaleAt(provenances: Iterable<SeriesProvenance>): number | null {
  let next: number | null = null;
  for (const p of provenances) {
    if ((p.kind !== 'defillama' && p.kind !== 'onchain') || p.stale || p.asOf === null) continue;
    const at = staleFrom(p.asOf);
    if (next === null || at < next) next = at;
  }
  return next;
}
