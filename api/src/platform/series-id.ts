/**
 * Series ids of the API's paths and queries (`SeriesId`): a source's numeric id or a base-rate
 * key. Read by the yields' GETs and the premium analysis alike, owned by neither.
 */
import { isBaseKey, type SeriesId } from '@yield/contract';

/** Numeric source id or a base-rate key; null when the text is neither. */
export function parseSeriesId(raw: string | undefined): SeriesId | null {
  if (raw === undefined) return null;
  if (isBaseKey(raw)) return raw;
  if (/^[1-9]\d{0,5}$/.test(raw)) return Number(raw);
  return null;
}
