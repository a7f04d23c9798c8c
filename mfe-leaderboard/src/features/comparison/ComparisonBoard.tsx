import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useSetAtom } from 'jotai';
import type { ProvenanceKind } from '@yield/contract/constants';
import { isProAtom } from './pro-view.ts';
import { ChartPanel } from './ChartPanel.tsx';
import { CompareBar, toggleSelected, type CompareSelection } from './CompareBar.tsx';
import { ComparisonTable } from './ComparisonTable.tsx';
import { Disclaimer } from './Disclaimer.tsx';
import { InfoCarousel } from './InfoCarousel.tsx';
import { Newsletter } from './Newsletter.tsx';
import { chartPoints, type ChartPoint, type ComparisonRow } from './model.ts';
import type { ComparisonData } from './use-comparison-data.ts';
import { useWeightedRanking } from './weights/use-weighted-ranking.ts';
import { WeightsPanel } from './weights/WeightsPanel.tsx';
import { useNetRanking } from './net-yield/use-net-ranking.ts';
import { NetYieldPanel } from './net-yield/NetYieldPanel.tsx';
import styles from './ComparisonBoard.module.css';

export type Market = 'stablecoin' | 'defi';

const MARKETS: { market: Market; title: string; testId: string }[] = [
  { market: 'stablecoin', title: 'Stablecoins Yield', testId: 'stablecoins' },
  { market: 'defi', title: 'Crypto Yield', testId: 'crypto' },
];

export interface ComparisonBoardProps {
  data: ComparisonData;
  /** Under 1024 px: one chart and one table, chosen by `market`. */
  narrow: boolean;
  chartMobile: boolean;
  shortNames: boolean;
  market: Market;
  showPro: boolean;
  headingLevel: number;
  /** The kind of data the page's note speaks for (rows of another kind are tagged). */
  noteKind: ProvenanceKind;
}

/** Charts, tables, info carousel, disclaimer and newsletter, once the data has settled. */
function ComparisonBoard({
  data,
  narrow,
  chartMobile,
  shortNames,
  market,
  showPro,
  headingLevel,
  noteKind,
}: ComparisonBoardProps) {
  const stablePoints = useMemo(() => chartPoints(data.stablecoinRows), [data.stablecoinRows]);
  const cryptoPoints = useMemo(() => chartPoints(data.cryptoRows), [data.cryptoRows]);
  const pointsByMarket: Record<Market, ChartPoint[]> = {
    stablecoin: stablePoints,
    defi: cryptoPoints,
  };
  const greatKeys = useMemo(
    () => new Set([...stablePoints, ...cryptoPoints].filter((p) => p.great).map((p) => p.key)),
    [stablePoints, cryptoPoints],
  );
  const shownMarkets = useMemo(
    () => (narrow ? MARKETS.filter((m) => m.market === market) : MARKETS),
    [narrow, market],
  );
  // The saver's weights (weights/, in the URL) re-rank the Pro view's tables; a shared link that
  // carries weights opens the Pro view, and shows the panel under 1024 px too.
  const tables = useMemo(() => {
    const rowsByMarket: Record<Market, ComparisonRow[]> = {
      stablecoin: data.stablecoinRows,
      defi: data.cryptoRows,
    };
    return shownMarkets.map((m) => ({ title: m.title, rows: rowsByMarket[m.market] }));
  }, [shownMarkets, data.stablecoinRows, data.cryptoRows]);
  const weighted = useWeightedRanking({ showPro, narrow, tables });
  // The saver's amount (net-yield/, in the URL) adds a Net APR column and ranks by it; a shared
  // link that carries an amount opens the Pro view too.
  const weightedTables = useMemo(() => weighted.rows.map((rows) => ({ rows })), [weighted.rows]);
  const net = useNetRanking({ showPro, narrow, tables: weightedTables });
  const setIsPro = useSetAtom(isProAtom);
  useEffect(() => {
    if (weighted.arrivedWithWeights || net.arrivedWithAmount) setIsPro(true);
  }, [weighted.arrivedWithWeights, net.arrivedWithAmount, setIsPro]);
  // Rows ticked for /compare, across both tables (and kept while the market toggle switches).
  const [selectedIds, setSelectedIds] = useState<readonly number[]>([]);
  const toggle = useCallback((id: number) => setSelectedIds((ids) => toggleSelected(ids, id)), []);
  const selection = useMemo<CompareSelection>(
    () => ({ ids: selectedIds, toggle }),
    [selectedIds, toggle],
  );
  const selectedNames = selectedIds.map(
    (id) =>
      [...data.stablecoinRows, ...data.cryptoRows].find((r) => !r.isBaseRate && r.id === id)
        ?.name ?? `#${id}`,
  );

  return (
    <>
      {data.sourcesFailed ? (
        <div className={styles.failure} role="alert">
          <p>The yield list could not be loaded just now.</p>
          <button type="button" className="btn btn-secondary" onClick={data.retrySources}>
            Try again
          </button>
        </div>
      ) : null}
      <div className={narrow ? styles.gridSingle : styles.gridDouble}>
        {shownMarkets.map((m, i) => (
          <ChartPanel
            key={m.market}
            drawDelayMs={i * 120}
            title={`${m.title}: risk versus reward`}
            headingLevel={headingLevel}
            points={pointsByMarket[m.market]}
            mobile={chartMobile}
            testId={`${m.testId}-chart`}
          />
        ))}
      </div>
      <div className={styles.gridSingle}>
        {weighted.panel ? <WeightsPanel {...weighted.panel} /> : null}
        {net.panel ? <NetYieldPanel {...net.panel} headingLevel={headingLevel} /> : null}
        {shownMarkets.map((m, i) => (
          <ComparisonTable
            key={m.market}
            title={m.title}
            headingLevel={headingLevel}
            rows={net.rows[i]!}
            rankRequest={weighted.rankRequest}
            net={net.column}
            netRankRequest={net.rankRequest}
            ownRanking={weighted.ownRanking}
            greatKeys={greatKeys}
            showPro={showPro}
            shortNames={shortNames}
            noteKind={noteKind}
            testId={`${m.testId}-table`}
            selection={selection}
          />
        ))}
        <CompareBar
          selection={selection}
          names={selectedNames}
          onClear={() => setSelectedIds([])}
        />
      </div>
      <InfoCarousel headingLevel={headingLevel} />
      <Disclaimer />
      <Newsletter headingLevel={headingLevel} />
    </>
  );
}

/** Memoised: the comparison re-renders on every query status change; the board only on new data. */
export default memo(ComparisonBoard);
