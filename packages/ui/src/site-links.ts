/**
 * Paths one remote links to and another serves, written once.
 */

/**
 * A source's own page: its public strategy page (`/options/:slug`) when it has one, else its
 * premium report (`/premium/:id`).
 */
export function sourcePagePath(source: { id: number; detailSlug: string | null }): string {
  return source.detailSlug ? `/options/${source.detailSlug}` : `/premium/${source.id}`;
}

/**
 * The link to the side-by-side page, `/compare?ids=3,2,13`: written by the comparison (rows
 * selected in mfe-leaderboard) and read by the page (mfe-strategy), so both follow one format.
 * Ids are source ids of GET /api/sources, in the order the reader chose them.
 */

/** A comparison shows two or three sources side by side. */
export const COMPARE_MIN_SOURCES = 2;
export const COMPARE_MAX_SOURCES = 3;
export const COMPARE_PATH = '/compare';

/** The page's path for these source ids: `/compare?ids=3,2,13` (commas left as they are). */
export function comparePath(ids: readonly number[]): string {
  return `${COMPARE_PATH}?ids=${ids.join(',')}`;
}

/** Why a link's ids cannot be compared as they are. */
export type CompareIdsProblem = 'missing' | 'malformed' | 'duplicate' | 'too-few' | 'too-many';

export type CompareIds =
  | { ok: true; ids: number[] }
  | {
      ok: false;
      problem: CompareIdsProblem;
      /** The well-formed ids of the link, once each, in its order (to offer what it can). */
      ids: number[];
      /** The parts of the link that are not an id. */
      malformed: string[];
    };

const ID = /^[1-9]\d{0,5}$/;

/**
 * Reads `ids` from a query string (`?ids=3,2,13`, `URLSearchParams`): two or three distinct source
 * ids, or what is wrong with them. Whether each id is a known source is for the caller to check
 * against the source list.
 */
export function parseCompareIds(search: string | URLSearchParams): CompareIds {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const raw = params.getAll('ids').join(',');
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const malformed = parts.filter((part) => !ID.test(part));
  const ids = [...new Set(parts.filter((part) => ID.test(part)).map(Number))];
  const fail = (problem: CompareIdsProblem): CompareIds => ({ ok: false, problem, ids, malformed });
  if (parts.length === 0) return fail('missing');
  if (malformed.length > 0) return fail('malformed');
  if (ids.length < parts.length) return fail('duplicate');
  if (ids.length < COMPARE_MIN_SOURCES) return fail('too-few');
  if (ids.length > COMPARE_MAX_SOURCES) return fail('too-many');
  return { ok: true, ids };
}
