/**
 * "Net yield for your deposit" in the comparison (docs/methodology.md, "Net yield"): the amount
 * and the holding days read from and written to the page's URL (`?net=500&days=365`), and the
 * rows with their place in GET /api/net-yield/ranking. Pure functions; the figures are the API's.
 */
import type { NetYieldRankingAnswer, NetYieldRankingItem } from '@yield/contract';
import {
  EARNINGS_MAX_AMOUNT,
  NET_YIELD_DEFAULT_DAYS,
  NET_YIELD_MAX_DAYS,
} from '@yield/contract/constants';
import type { ComparisonRow, NetFigure, SortState } from '../model.ts';

/** The query parameters: the amount (in each source's unit) and the holding days. */
export const NET_PARAM = 'net';
export const DAYS_PARAM = 'days';

/** What the URL says: the texts as typed, and the values when they are valid (else null). */
export interface NetInput {
  amountText: string;
  daysText: string;
  /** Above 0 and at most EARNINGS_MAX_AMOUNT, as the API takes it; null when empty or invalid. */
  amount: number | null;
  /** Whole days from 1 to NET_YIELD_MAX_DAYS; null when invalid. */
  days: number | null;
}

const AMOUNT_PATTERN = /^\d{1,13}(?:\.\d{1,18})?$/;
const DAYS_PATTERN = /^[1-9]\d{0,3}$/;

/** An amount the API takes (its own pattern and bounds), or null. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (!AMOUNT_PATTERN.test(trimmed)) return null;
  const value = Number(trimmed);
  return value > 0 && value <= EARNINGS_MAX_AMOUNT ? value : null;
}

/** Whole days from 1 to NET_YIELD_MAX_DAYS, or null. */
export function parseDays(text: string): number | null {
  const trimmed = text.trim();
  if (!DAYS_PATTERN.test(trimmed)) return null;
  const value = Number(trimmed);
  return value <= NET_YIELD_MAX_DAYS ? value : null;
}

/** The amount and days a URL carries; without `days`, NET_YIELD_DEFAULT_DAYS. */
export function parseNetInput(params: URLSearchParams): NetInput {
  const amountText = params.get(NET_PARAM) ?? '';
  const daysText = params.get(DAYS_PARAM) ?? String(NET_YIELD_DEFAULT_DAYS);
  return { amountText, daysText, amount: parseAmount(amountText), days: parseDays(daysText) };
}

/**
 * The URL's parameters with this amount and these days: both written while there is an amount
 * (the link says what it ranks); without one, `net` is dropped and `days` kept only if not the
 * default.
 */
export function serializeNetInput(
  params: URLSearchParams,
  input: { amountText: string; daysText: string },
): URLSearchParams {
  const next = new URLSearchParams(params);
  const amountText = input.amountText.trim();
  const daysText = input.daysText.trim();
  next.delete(NET_PARAM);
  next.delete(DAYS_PARAM);
  if (amountText !== '') next.set(NET_PARAM, amountText);
  if (amountText !== '' || daysText !== String(NET_YIELD_DEFAULT_DAYS))
    next.set(DAYS_PARAM, daysText);
  return next;
}

/** The rows with their net figure and place in the ranking; null for a source it lacks. */
export function applyNetRanking(
  rows: ComparisonRow[],
  answer: NetYieldRankingAnswer,
): ComparisonRow[] {
  const byId = new Map<number, NetFigure>(
    answer.items.map((item, rank) => [item.id, { ...item, rank }]),
  );
  return rows.map((row) => (row.isBaseRate ? row : { ...row, net: byId.get(row.id) ?? null }));
}

/** The sort a new amount asks for: by net APR, best first (unknown figures last). */
export const NET_SORT: SortState = { key: 'netApr', direction: 'descend' };

const COST_NAMES: Record<NetYieldRankingItem['unknownCosts'][number], string> = {
  entry: 'the entry fee',
  exit: 'the exit fee',
  gasIn: 'the gas of the deposit',
  gasOut: 'the gas of the withdrawal',
};

/** "a, b and c" */
function listed(parts: string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** Why a row has no net APR (the "Unknown" cell's tooltip). */
export function unknownReason(net: NetFigure | null): string {
  if (!net) return 'This source has no net figure yet: its costs have not been read.';
  if (net.unknownCosts.length === 0) return 'The net figure could not be computed for this amount.';
  const costs = listed(net.unknownCosts.map((key) => COST_NAMES[key]));
  return `Unknown: ${costs} cannot be read from the chain for this source, so what the amount keeps is not known. Ranked last.`;
}

/** A figure in the source's unit: dollars with 2 decimals, ETH with up to 6. */
export function formatInUnit(value: number, unit: NetYieldRankingItem['unit']): string {
  const digits = unit === 'USD' ? 2 : 6;
  const text = value.toLocaleString('en-US', {
    minimumFractionDigits: unit === 'USD' ? 2 : 0,
    maximumFractionDigits: digits,
  });
  return `${text} ${unit}`;
}

/** The line under a net APR: when the deposit has paid back its costs. */
export function breakEvenText(net: NetFigure, days: number): string {
  if (net.breakEvenDays === null) return `Not even after ${days} days`;
  if (net.breakEvenDays === 0) return 'Even from day 0';
  return `Even on day ${net.breakEvenDays}`;
}

/** The net cell's tooltip: what the amount keeps and what it costs. */
export function netDetail(net: NetFigure, amount: number, days: number): string {
  const kept = net.netAmount === null ? '' : `keeps ${formatInUnit(net.netAmount, net.unit)}`;
  const cost =
    net.totalCost === null ? '' : ` after ${formatInUnit(net.totalCost, net.unit)} of costs`;
  return `${formatInUnit(amount, net.unit)} held ${days} days ${kept}${cost} (gross APR ${net.apr.toFixed(2)}%).`;
}
