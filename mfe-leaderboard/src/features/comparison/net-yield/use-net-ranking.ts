import { useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { netYieldRankingQuery } from '@yield/platform';
import type { ComparisonRow } from '../model.ts';
import { applyNetRanking } from './model.ts';
import { useUrlNet } from './use-url-net.ts';
import type { NetYieldPanelProps } from './NetYieldPanel.tsx';

export interface NetRanking {
  /** Each table's rows, with their net figures once the ranking has answered. */
  rows: ComparisonRow[][];
  /** The panel's props, or null when it is not shown. */
  panel: NetYieldPanelProps | null;
  /** The amount and days the Net APR column speaks of; null while there is no such column. */
  column: { amount: number; days: number } | null;
  /** Grows with each new ranking asked: the tables then sort by net APR. */
  rankRequest: number;
  /** The page was opened with an amount in its URL (a shared link). */
  arrivedWithAmount: boolean;
}

/**
 * "Net yield for your deposit": the amount and days of the URL, GET /api/net-yield/ranking for
 * them, and the tables' rows with each source's net figure. Offered in the Pro view and under
 * 1024 px, where the Pro view is not (the single-table layout has room for one more column).
 */
export function useNetRanking({
  showPro,
  narrow,
  tables,
}: {
  showPro: boolean;
  narrow: boolean;
  /** The tables shown, memoised by the caller. */
  tables: readonly { rows: ComparisonRow[] }[];
}): NetRanking {
  const url = useUrlNet();
  const [arrivedWithAmount] = useState(url.amount !== null);
  const shown = showPro || narrow;
  const asked = shown && url.amount !== null && url.days !== null;
  const query = useQuery({
    ...netYieldRankingQuery(url.amount ?? 0, url.days ?? 0),
    enabled: asked,
    placeholderData: keepPreviousData,
  });
  const answer = asked ? query.data : undefined;
  const rows = useMemo(
    () => tables.map((t) => (answer ? applyNetRanking(t.rows, answer) : t.rows)),
    [tables, answer],
  );
  const rankRequest = useRankRequest(answer ? `${answer.amount}/${answer.days}` : null);
  const column = useMemo(
    () => (answer ? { amount: answer.amount, days: answer.days } : null),
    [answer],
  );
  return {
    rows,
    panel: shown
      ? {
          amountText: url.amountText,
          daysText: url.daysText,
          amountValid: url.amountText.trim() === '' || url.amount !== null,
          daysValid: url.days !== null,
          onAmount: url.setAmountText,
          onDays: url.setDaysText,
          status: !asked ? 'idle' : query.isError ? 'failed' : answer ? 'ready' : 'loading',
          answer: answer ?? null,
          retry: () => void query.refetch(),
        }
      : null,
    column,
    rankRequest,
    arrivedWithAmount,
  };
}

/** A number that grows each time a new ranking (amount and days) arrives. */
function useRankRequest(key: string | null): number {
  const [count, setCount] = useState(0);
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (key !== null && key !== last.current) setCount((n) => n + 1);
    last.current = key;
  }, [key]);
  return count;
}
