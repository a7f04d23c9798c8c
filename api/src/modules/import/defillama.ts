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
import type { LeftOutDay } from '@yield/contract';
import type { DailyRow } from '../../engine/index.ts';

export { DEFAULT_DEFILLAMA_API_URL } from '../../platform/config.ts';
/** Above this APY (in percent) a point is taken as a broken feed, not a yield. */
export const MAX_PLAUSIBLE_APY = 1000;
/** A chart response larger than this is refused (a year of daily points is ~100 KB). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const nullableNumber = z.number().finite().nullable().optional();

/**
 * One point of a chart, in its published shape; unknown extra fields are allowed (DeFiLlama adds
 * fields over time) and the fields ra30-v1 does not read are not checked (`il7d`, `apyBase7d`).
 */
export const chartPointSchema = z.object({
  timestamp: z.iso.datetime({ offset: true }),
  tvlUsd: z.number().finite(),
  apy: nullableNumber,
  apyBase: nullableNumber,
  apyReward: nullableNumber,
  pricePerShare: z.unknown().optional(),
});

/** The envelope; each point is checked on its own (chartPointSchema), so one bad point is left out. */
export const chartResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(z.unknown()),
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
  /** Days in the imported window left out because the method cannot use them, oldest first. */
  leftOut: LeftOutDay[];
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

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

function issueText(index: number, error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0]!;
  return { field: formatJsonPath(['data', index, ...issue.path]), message: issue.message };
}

/** Why a valid point cannot be a day of a series (an implausible value), else null. */
function implausibility(p: ChartPoint, apy: number): { value: number; reason: string } | null {
  if (apy > MAX_PLAUSIBLE_APY)
    return { value: apy, reason: `APY ${apy}% is above ${MAX_PLAUSIBLE_APY}%` };
  if (apy <= -100) return { value: apy, reason: `APY ${apy}%` };
  if (p.tvlUsd < 0) return { value: p.tvlUsd, reason: `negative TVL ${p.tvlUsd}` };
  if (p.apyReward != null && p.apyReward < 0)
    return { value: p.apyReward, reason: `negative reward APY ${p.apyReward}%` };
  return null;
}

type ChartPoint = z.infer<typeof chartPointSchema>;

/**
 * Validates a chart response and turns it into one row per UTC day (the day's latest snapshot),
 * the newest `days` days of it. A day the method cannot use (a malformed point, an APY above
 * MAX_PLAUSIBLE_APY or at or below -100%, a negative TVL or reward APY) is left out and listed in
 * `leftOut`; the other days are imported. Throws a FeedError (the whole feed refused, the series
 * keeps its last good data) for malformed JSON, an envelope that is not the published one, no
 * data points, a point dated in the future (a broken clock or feed), or when no day of the window
 * is usable.
 */
export function parseChart(text: string, options: ParseOptions): ParsedChart {
  const response = parseResponse(text, chartResponseSchema);
  const leftOut: LeftOutDay[] = [];
  /** The first refusal message, used when no day is left. */
  let firstProblem: string | null = null;
  const problem = (date: string | null, value: number | null, reason: string, where: string) => {
    leftOut.push({ date, value, reason });
    firstProblem ??= where;
  };

  // Latest snapshot of each UTC day; timestamps are compared as instants, not as text. A point
  // whose timestamp cannot be read has no day: it is left out at once.
  const latest = new Map<string, { at: number; index: number }>();
  response.data.forEach((raw, index) => {
    const ts = (raw as { timestamp?: unknown } | null)?.timestamp;
    const at =
      typeof ts === 'string' && z.iso.datetime({ offset: true }).safeParse(ts).success
        ? Date.parse(ts)
        : NaN;
    if (!Number.isFinite(at)) {
      const checked = chartPointSchema.safeParse(raw);
      const { field, message } = checked.success
        ? { field: formatJsonPath(['data', index, 'timestamp']), message: 'no timestamp' }
        : issueText(index, checked.error);
      problem(
        null,
        null,
        `${field}: ${message}`,
        `unexpected response shape: ${field}: ${message}`,
      );
      return;
    }
    const day = utcDay(at);
    const seen = latest.get(day);
    if (!seen || at >= seen.at) latest.set(day, { at, index });
  });
  const days = [...latest.keys()].sort();
  if (days.length === 0) {
    if (firstProblem !== null) throw new FeedError(firstProblem);
    throw new FeedError('no data points');
  }

  const newest = days[days.length - 1]!;
  const from = utcDay(Date.parse(`${newest}T00:00:00Z`) - (options.days - 1) * 86_400_000);
  const rows: DailyRow[] = [];
  for (const day of days) {
    if (day < from) continue;
    const { index } = latest.get(day)!;
    const where = `$.data[${index}] (${day})`;
    if (day > options.today)
      throw new FeedError(`implausible value at ${where}: dated in the future`);
    const checked = chartPointSchema.safeParse(response.data[index]);
    if (!checked.success) {
      const { field, message } = issueText(index, checked.error);
      problem(day, null, `${field}: ${message}`, `unexpected response shape: ${field}: ${message}`);
      continue;
    }
    const p = checked.data;
    const apy =
      p.apy ??
      (p.apyBase == null && p.apyReward == null ? null : (p.apyBase ?? 0) + (p.apyReward ?? 0));
    if (apy === null) {
      const reason = 'apy, apyBase and apyReward are all null';
      problem(day, null, reason, `unexpected response shape: ${where}: ${reason}`);
      continue;
    }
    const bad = implausibility(p, apy);
    if (bad) {
      problem(day, bad.value, bad.reason, `implausible value at ${where}: ${bad.reason}`);
      continue;
    }
    const pricePerShare =
      typeof p.pricePerShare === 'number' && Number.isFinite(p.pricePerShare)
        ? p.pricePerShare
        : null;
    // Same key order as the rest of history.json, so an import reads well in a diff.
    rows.push({
      date: day,
      apy,
      ...(p.apyReward != null ? { apyReward: p.apyReward } : {}),
      tvlUsd: p.tvlUsd,
      ...(pricePerShare !== null && pricePerShare > 0 ? { pricePerShare } : {}),
    });
  }
  if (rows.length === 0) {
    // Every day of the window is unusable: the feed is broken, not a yield with a bad day.
    const more = leftOut.length > 1 ? ` (and ${leftOut.length - 1} more day(s))` : '';
    throw new FeedError(`${firstProblem ?? 'no data points in the window'}${more}`);
  }
  return { rows, snapshots: response.data.length, leftOut };
}
