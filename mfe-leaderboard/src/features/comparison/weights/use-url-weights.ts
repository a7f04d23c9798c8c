import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  clampWeight,
  DEFAULT_WEIGHTS,
  isPublishedWeights,
  parseWeights,
  serializeWeights,
  type ChargeWeights,
  type RiskChargeKey,
} from './model.ts';

export interface UrlWeights {
  weights: ChargeWeights;
  /** Every weight at 100%: the published ranking. */
  published: boolean;
  setWeight: (key: RiskChargeKey, value: number) => void;
  reset: () => void;
}

/**
 * The saver's weights, kept in the page's URL (shareable, kept on reload): each change replaces
 * the history entry, so moving a slider does not fill the back button, and never scrolls.
 */
export function useUrlWeights(): UrlWeights {
  const [params, setParams] = useSearchParams();
  const weights = useMemo(() => parseWeights(params), [params]);
  const write = useCallback(
    (next: (current: ChargeWeights) => ChargeWeights) =>
      setParams((current) => serializeWeights(current, next(parseWeights(current))), {
        replace: true,
        preventScrollReset: true,
      }),
    [setParams],
  );
  const setWeight = useCallback(
    (key: RiskChargeKey, value: number) =>
      write((current) => ({ ...current, [key]: clampWeight(value) ?? current[key] })),
    [write],
  );
  const reset = useCallback(() => write(() => DEFAULT_WEIGHTS), [write]);
  return { weights, published: isPublishedWeights(weights), setWeight, reset };
}
