/**
 * DeFiLlama's yields API, as the importer reads it: `GET {DEFILLAMA_API_URL}/chart/{pool}` answers
 * `{status: "success", data: [{timestamp, tvlUsd, apy, apyBase, apyReward, il7d, apyBase7d, ...}]}`,
 * one or more snapshots a day at varying times, some days missing.
 *
 * Field mapping onto a history.json row (what method ra30-v1 reads):
 * - `date`      = the UTC day of `timestamp`; of several snapshots of one day the latest is kept.
 * - `apy`       = `apy`, DeFiLlama's total APY in percent (apyBase + apyReward); when it is null,
 *                 apyBase + apyReward (a null part counts as 0).
 * - `apyReward` = `apyReward`, the part paid in reward tokens (the incentives charge); omitted when
 *                 null, which the engine reads as 0.
 * - `tvlUsd`    = `tvlUsd`.
 * - `pricePerShare` = `pricePerShare` when DeFiLlama sends a positive one.
 * Not used by ra30-v1: `apyBase` (it is apy - apyReward), `il7d` (7-day impermanent loss of AMM
 * pools, null for the lending and staking pools here) and `apyBase7d` (a 7-day base APY: the
 * method computes its own 30-day statistics from the daily points).
 */
import { z } from 'zod';
import { formatJsonPath } from '../../platform/files/data-store.ts';
import type { DailyRow } from '../../engine/index.ts';

export { DEFAULT_DEFILLAMA_API_URL } from '../../platform/config.ts';
/** Above this APY (in percent) a point is taken as a broken feed, not a yield. */
export const MAX_PLAUSIBLE_APY = 1000;
/** A chart response larger than this is refused (a year of daily points is ~100 KB). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const nullableNumber = z.number().finite().nullable().optional();

/** The published shape; unknown extra fields are allowed (DeFiLlama adds fields over time). */
export const chartResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(
    z.object({
      timestamp: z.iso.datetime({ offset: true }),
      tvlUsd: z.number().finite(),
      apy: nullableNumber,
      apyBase: nullableNumber,
      apyReward: nullableNumber,
      il7d: nullableNumber,
      apyBase7d: nullableNumber,
      pricePerShare: nullableNumber,
    }),
  ),
});
export type ChartResponse = z.infer<typeof chartResponseSchema>;

/** A feed that could not be imported; `message` is what the log and GET /api/health show. */
export class FeedError extends Error {
  override name = 'FeedError';
}

export function chartUrl(apiUrl: string, pool: string): string {
  return `${apiUrl.replace(/\/+$/, '')}/chart/${pool}`;
}

/** The snapshot of every pool (`{status: "success", data: [...]}`), the scanner's input. */
export function poolsUrl(apiUrl: string): string {
  return `${apiUrl.replace(/\/+$/, '')}/pools`;
}

export interface FetchOptions {
  timeoutMs: number;
  userAgent: string;
  /** Aborts the request when the import is stopped (server shutdown). */
  signal?: AbortSignal | undefined;
}

/** GET a response's text (a chart or /pools); every failure becomes a FeedError with a readable reason. */
export async function fetchChartText(url: string, options: FetchOptions): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const res = await fetch(url, {
      signal,
      headers: { 'User-Agent': options.userAgent, Accept: 'application/json' },
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new FeedError(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
    }
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > MAX_RESPONSE_BYTES) {
      await res.body?.cancel().catch(() => undefined);
      throw new FeedError(`response too large (${length} bytes)`);
    }
    const body = await res.arrayBuffer();
    if (body.byteLength > MAX_RESPONSE_BYTES)
      throw new FeedError(`response too large (${body.byteLength} bytes)`);
    return new TextDecoder().decode(body);
  } catch (err) {
    if (err instanceof FeedError) throw err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (timeout.aborted) throw new FeedError(`timed out after ${options.timeoutMs / 1000} s`);
    if (options.signal?.aborted) throw new FeedError('import stopped');
    const cause = e.cause?.code ?? e.cause?.message;
    throw new FeedError(`request failed: ${e.message}${cause ? ` (${cause})` : ''}`);
  }
}

export interface ParseOptions {
  /** Only days after (newest day - days) are taken; older days already stored are kept as they are. */
  days: number;
  /** A point dated after this UTC day is refused (a broken clock or feed). */
  today: string;
}

export interface ParsedChart {
  rows: DailyRow[];
  /** Snapshots in the response, before keeping one per day. */
  snapshots: number;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Validates a chart response and turns it into one row per UTC day (the day's latest snapshot),
 * the newest `days` days of it. Throws a FeedError for malformed JSON, a shape that is not the
 * published one, an empty series, or an implausible value in the rows it would import.
 */
/** A response's JSON in its published shape; a FeedError for malformed JSON or another shape. */
export function parseResponse<T>(text: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new FeedError(`malformed JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const more =
      parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
    throw new FeedError(
      `unexpected response shape: ${formatJsonPath(issue.path)}: ${issue.message}${more}`,
    );
  }
  return parsed.data;
}

export function parseChart(text: string, options: ParseOptions): ParsedChart {
  const parsed = { data: parseResponse(text, chartResponseSchema) };

  // Latest snapshot of each UTC day; timestamps are compared as instants, not as text.
  const latest = new Map<string, { at: number; index: number }>();
  parsed.data.data.forEach((point, index) => {
    const at = Date.parse(point.timestamp);
    const day = utcDay(at);
    const seen = latest.get(day);
    if (!seen || at >= seen.at) latest.set(day, { at, index });
  });
  const days = [...latest.keys()].sort();
  if (days.length === 0) throw new FeedError('no data points');

  const newest = days[days.length - 1]!;
  const from = utcDay(Date.parse(`${newest}T00:00:00Z`) - (options.days - 1) * 86_400_000);
  const rows: DailyRow[] = [];
  for (const day of days) {
    if (day < from) continue;
    const { index } = latest.get(day)!;
    const p = parsed.data.data[index]!;
    const where = `$.data[${index}] (${day})`;
    if (day > options.today)
      throw new FeedError(`implausible value at ${where}: dated in the future`);
    const apy =
      p.apy ??
      (p.apyBase == null && p.apyReward == null ? null : (p.apyBase ?? 0) + (p.apyReward ?? 0));
    if (apy === null)
      throw new FeedError(
        `unexpected response shape: ${where}: apy, apyBase and apyReward are all null`,
      );
    if (apy > MAX_PLAUSIBLE_APY)
      throw new FeedError(
        `implausible value at ${where}: APY ${apy}% is above ${MAX_PLAUSIBLE_APY}%`,
      );
    if (apy <= -100) throw new FeedError(`implausible value at ${where}: APY ${apy}%`);
    if (p.tvlUsd < 0)
      throw new FeedError(`implausible value at ${where}: negative TVL ${p.tvlUsd}`);
    if (p.apyReward != null && p.apyReward < 0)
      throw new FeedError(`implausible value at ${where}: negative reward APY ${p.apyReward}%`);
    // Same key order as the rest of history.json, so an import reads well in a diff.
    rows.push({
      date: day,
      apy,
      ...(p.apyReward != null ? { apyReward: p.apyReward } : {}),
      tvlUsd: p.tvlUsd,
      ...(p.pricePerShare != null && p.pricePerShare > 0 ? { pricePerShare: p.pricePerShare } : {}),
    });
  }
  return { rows, snapshots: parsed.data.data.length };
}
