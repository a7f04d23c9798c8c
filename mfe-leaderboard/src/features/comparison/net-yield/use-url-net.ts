import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parseNetInput, serializeNetInput, type NetInput } from './model.ts';

export interface UrlNet extends NetInput {
  setAmountText: (text: string) => void;
  setDaysText: (text: string) => void;
}

/**
 * The saver's amount and holding days, kept in the page's URL as typed (shareable, kept on
 * reload): each keystroke replaces the history entry and never scrolls.
 */
export function useUrlNet(): UrlNet {
  const [params, setParams] = useSearchParams();
  const input = useMemo(() => parseNetInput(params), [params]);
  const write = useCallback(
    (change: Partial<Pick<NetInput, 'amountText' | 'daysText'>>) =>
      setParams((current) => serializeNetInput(current, { ...parseNetInput(current), ...change }), {
        replace: true,
        preventScrollReset: true,
      }),
    [setParams],
  );
  const setAmountText = useCallback((amountText: string) => write({ amountText }), [write]);
  const setDaysText = useCallback((daysText: string) => write({ daysText }), [write]);
  return { ...input, setAmountText, setDaysText };
}
