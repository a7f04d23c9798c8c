import { Suspense, useMemo, useRef } from 'react';
import type { HistoryPoint, Incident } from '@yield/contract';
import { LazyPerformanceChart } from './lazy-performance-chart.ts';
import { describeIncidents, incidentsWithin, useDrawWhenNear } from '@yield/charts';
import { formatApr, formatDay, formatTvl } from '@yield/ui';
import styles from './analysis.module.css';

const CHART_HEIGHT = 300;

function describe(history: readonly HistoryPoint[]): string {
  const aprs = history.map((p) => p.apr);
  const first = history[0]!;
  const last = history[history.length - 1]!;
  return (
    `Daily APR from ${formatDay(first.timestamp)} to ${formatDay(last.timestamp)}: ` +
    `between ${formatApr(Math.min(...aprs))} and ${formatApr(Math.max(...aprs))}, ` +
    `${formatApr(last.apr)} on the last day. TVL went from ${formatTvl(first.tvl)} to ${formatTvl(last.tvl)}.`
  );
}

const chartSpinner = (
  <div className={styles.chartLoading}>
    <span className="spinner" />
  </div>
);

export function PerformanceSection({
  history,
  incidents,
}: {
  history: readonly HistoryPoint[];
  /** The source's incidents: those within the history are marked on the chart. */
  incidents: readonly Incident[];
}) {
  const first = history[0]?.timestamp;
  const last = history.at(-1)?.timestamp;
  const shown = useMemo(() => incidentsWithin(incidents, first, last), [incidents, first, last]);
  const plotRef = useRef<HTMLDivElement>(null);
  const showChart = useDrawWhenNear(plotRef, { rootMargin: '400px' });
  return (
    <section className={styles.section} aria-labelledby="history-heading">
      <h2 id="history-heading">Historical performance</h2>
      {history.length === 0 ? (
        <p className={styles.statusBox}>No daily history is available for this source yet.</p>
      ) : (
        <>
          <p className={styles.sectionIntro}>{describe(history)}</p>
          <figure
            className={styles.chartFrame}
            data-testid="premium-history-chart"
            data-point-count={history.length}
          >
            <figcaption className="visually-hidden">
              Daily APR and TVL over the last {history.length} days
            </figcaption>
            <div
              ref={plotRef}
              className={styles.chartPlot}
              style={{ minHeight: CHART_HEIGHT }}
              aria-hidden="true"
            >
              {showChart ? (
                <Suspense fallback={chartSpinner}>
                  <LazyPerformanceChart history={history} height={CHART_HEIGHT} incidents={shown} />
                </Suspense>
              ) : (
                chartSpinner
              )}
            </div>
          </figure>
          {shown.length > 0 ? (
            <p className={styles.sectionIntro} data-testid="incident-legend">
              <span aria-hidden="true">⚠</span> The dashed red line marks{' '}
              {describeIncidents(shown, formatDay)}.
            </p>
          ) : null}
          <details className={styles.dataTable}>
            <summary>Show the daily figures as a table</summary>
            <div className={styles.tableScroll}>
              <table>
                <caption className="visually-hidden">Daily APR and TVL, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">APR</th>
                    <th scope="col">TVL</th>
                  </tr>
                </thead>
                <tbody>
                  {[...history].reverse().map((point) => (
                    <tr key={point.timestamp}>
                      <th scope="row">{formatDay(point.timestamp)}</th>
                      <td>{formatApr(point.apr)}</td>
                      <td>{formatTvl(point.tvl)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
