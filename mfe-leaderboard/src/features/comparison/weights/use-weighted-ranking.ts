import { useCallback, useMemo, useState } from 'react';
import type { ComparisonRow } from '../model.ts';
import { applyWeights, rankingAnnouncement, type RiskChargeKey } from './model.ts';
import { useUrlWeights } from './use-url-weights.ts';
import type { WeightsPanelProps } from './WeightsPanel.tsx';

export interface WeightedRanking {
  /** Each table's rows, with the saver's risk-adjusted APR while the panel is shown. */
  rows: ComparisonRow[][];
  /** The panel's props, or null when it is not shown. */
  panel: WeightsPanelProps | null;
  /** Grows with each change of the weights: the tables then rank by risk-adjusted APR. */
  rankRequest: number;
  /** The tables show the saver's figure, not the published one. */
  ownRanking: boolean;
  /** The page was opened with weights in its URL (a shared link). */
  arrivedWithWeights: boolean;
}

/**
 * The comparison's tables under the saver's weights. The weights apply in the Pro view (wide
 * screens); under 1024 px, where the Pro view is not offered, only on a page opened from a link
 * that carries weights, so a shared ranking reads the same on a phone.
 */
export function useWeightedRanking({
  showPro,
  narrow,
  tables,
}: {
  showPro: boolean;
  narrow: boolean;
  /** The tables shown, memoised by the caller. */
  tables: readonly { title: string; rows: ComparisonRow[] }[];
}): WeightedRanking {
  const { weights, published, setWeight, reset } = useUrlWeights();
  const [arrivedWithWeights] = useState(!published);
  const [rankRequest, setRankRequest] = useState(arrivedWithWeights ? 1 : 0);
  const shown = showPro || (narrow && arrivedWithWeights);
  const rows = useMemo(
    () => tables.map((t) => (shown ? applyWeights(t.rows, weights) : t.rows)),
    [shown, weights, tables],
  );
  const onChange = useCallback(
    (key: RiskChargeKey, value: number) => {
      setWeight(key, value);
      setRankRequest((n) => n + 1);
    },
    [setWeight],
  );
  const onReset = useCallback(() => {
    reset();
    setRankRequest((n) => n + 1);
  }, [reset]);
  // Said after the saver's own changes only, not on arrival.
  const announced = rankRequest > (arrivedWithWeights ? 1 : 0);
  const announcement = announced
    ? rankingAnnouncement(
        tables.map((t, i) => ({ title: t.title, rows: rows[i]! })),
        published,
      )
    : '';
  return {
    rows,
    panel: shown
      ? {
          weights,
          published,
          onChange,
          onReset,
          announcement,
          defaultOpen: arrivedWithWeights,
        }
      : null,
    rankRequest: shown ? rankRequest : 0,
    ownRanking: shown && !published,
    arrivedWithWeights,
  };
}
