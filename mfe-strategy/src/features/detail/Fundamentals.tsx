import { useEffect, useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { historyQuery, sourcesQuery } from '@yield/platform';
import { describeIncidents, incidentsWithin } from '@yield/charts';
import type { ApiErrorBody, HistoryResponse } from '@yield/contract';
import { ChartFrame } from '../../shared/charts/ChartFrame.tsx';
import { LazyHistoryChart, loadHistoryChart } from '../../shared/charts/lazy.ts';
import {
  DetectedWarnings,
  NegativeYieldHint,
  NO_LIVE_DATA,
  formatApr,
  formatDay,
  formatTvl,
  hasNoLiveData,
} from '@yield/ui';
import { findSource } from '../../shared/sources.ts';
import { useTimeRange } from '../../shared/time-range.ts';
import { DataSource } from './DataSource.tsx';
import { useDetectedWarnings, warningMarks, WarningMarksNote } from './DetectedWarnings.tsx';
import { RangeButtons } from '../../shared/RangeButtons.tsx';
import layout from '../../shared/page.module.css';
import styles from './detail.module.css';

const CHART_HEIGHT = 300;

function historyError(data: HistoryResponse | undefined, error: Error | null): string | null {
  if (error) return error.message || 'request failed';
  // An `error` field in the answer also counts as a failure. The API never sends
  // one with a 200 (its errors come with an error status, thrown by getJson): a guard for answers
  // from anywhere else.
  if (data && 'error' in data) {
    const { code, message } = (data as unknown as ApiErrorBody).error;
    return `${code}: ${message}`;
  }
  return null;
}

export function Fundamentals({ id, name }: { id: number; name: string }) {
  const [range, setRange] = useTimeRange(name);
  // The previous range stays on screen while the next loads, so the charts do not collapse.
  const history = useQuery({ ...historyQuery(id, range), placeholderData: keepPreviousData });
  const failure = historyError(history.data, history.error);
  const loading = history.isPending;
  const switching = history.isPlaceholderData && history.isFetching;

  useEffect(() => {
    // A failed history request is logged; the saver sees N/A.
    if (failure) console.error(`Failed to fetch history for strategy ${id} (${range}): ${failure}`);
  }, [failure, id, range]);

  const usable = !failure && history.data ? history.data : undefined;
  // The site has imported and this source has no feed yet: no figures, no charts.
  const noLiveData = hasNoLiveData(usable?.provenance);
  const points = usable?.data;
  const aprPoints = useMemo(
    () => (points ?? []).map((p): [number, number] => [p.timestamp, p.apr]),
    [points],
  );
  const tvlPoints = useMemo(
    () => (points ?? []).map((p): [number, number] => [p.timestamp, p.tvl]),
    [points],
  );
  const sources = useQuery(sourcesQuery);
  const incidents = findSource(sources.data, id)?.incidents;
  const chartIncidents = useMemo(() => incidents ?? [], [incidents]);
  const first = aprPoints[0]?.[0];
  const last = aprPoints.at(-1)?.[0];
  const shownIncidents = useMemo(
    () => incidentsWithin(chartIncidents, first, last),
    [chartIncidents, first, last],
  );
  const incidentText = describeIncidents(shownIncidents, formatDay);
  const warnings = useDetectedWarnings(id);
  const marks = useMemo(() => warningMarks(warnings), [warnings]);
  const figures = [
    { label: 'TVL', value: formatTvl(usable?.lastTvl) },
    { label: '30d APR', value: formatApr(usable?.lastApr) },
    { label: '30d Risk-Adjusted APR', value: formatApr(usable?.lastRaApr), ra: usable?.lastRaApr },
  ];

  return (
    <section
      className={layout.section}
      aria-labelledby="fundamentals-heading"
      data-section="fundamentals"
    >
      <div className={layout.sectionHead}>
        <h2 id="fundamentals-heading">Fundamentals</h2>
        {noLiveData ? null : <RangeButtons label="Time range" range={range} onChange={setRange} />}
      </div>

      <div className={styles.figures} aria-busy={loading}>
        {figures.map((f) => (
          <div key={f.label} className={styles.figure} data-testid={`figure-${f.label}`}>
            <span className={styles.figureLabel}>{f.label}</span>
            {loading ? (
              <span className={styles.figureValue}>
                <span className="spinner" role="status" aria-label={`Loading ${f.label}`} />
              </span>
            ) : noLiveData ? (
              <span className={`${styles.figureValue} ${styles.figureNoData}`}>{NO_LIVE_DATA}</span>
            ) : (
              <span className={styles.figureValue}>
                {f.value}
                <NegativeYieldHint value={f.ra} />
              </span>
            )}
          </div>
        ))}
      </div>
      {failure ? (
        <p className={layout.notice} role="status">
          Figures and history are unavailable right now. Please try again later.
        </p>
      ) : noLiveData && usable ? (
        <>
          <p className={styles.noLiveData} role="note" data-testid="no-live-data">
            <strong>{NO_LIVE_DATA}.</strong> The site imports its figures from DeFiLlama, and this
            source has no feed yet, so it shows no APR, TVL or history and is not ranked. What it
            is, its risks and how to get your money out are below.
          </p>
        </>
      ) : (
        <p className="muted">
          30-day figures as of the newest day of data; charts show the last {range}.
        </p>
      )}
      <DetectedWarnings
        warnings={warnings}
        classNames={{
          list: styles.warnings,
          notice: `${layout.notice} ${styles.warning}`,
          label: styles.detectedLabel,
        }}
      />

      {noLiveData ? null : (
        <div className={styles.chartGrid}>
          <ChartFrame
            title="APR History"
            summary={
              aprPoints.length
                ? `daily APR over ${range}, latest ${formatApr(aprPoints.at(-1)?.[1])}${incidentText ? `; incident marked: ${incidentText}` : ''}`
                : 'not available'
            }
            height={CHART_HEIGHT}
            pointCount={aprPoints.length}
            unavailable={Boolean(failure)}
            busy={loading || switching}
            testId="chart-apr"
            load={loadHistoryChart}
          >
            <LazyHistoryChart
              kind="apr"
              points={aprPoints}
              height={CHART_HEIGHT}
              incidents={shownIncidents}
              marks={marks}
            />
          </ChartFrame>
          <ChartFrame
            title="TVL History"
            summary={
              tvlPoints.length
                ? `daily TVL over ${range}, latest ${formatTvl(tvlPoints.at(-1)?.[1])}${incidentText ? `; incident marked: ${incidentText}` : ''}`
                : 'not available'
            }
            height={CHART_HEIGHT}
            pointCount={tvlPoints.length}
            unavailable={Boolean(failure)}
            busy={loading || switching}
            testId="chart-tvl"
            load={loadHistoryChart}
          >
            <LazyHistoryChart
              kind="tvl"
              points={tvlPoints}
              height={CHART_HEIGHT}
              incidents={shownIncidents}
              marks={marks}
            />
          </ChartFrame>
        </div>
      )}
      {shownIncidents.length > 0 ? (
        <p className="muted" data-testid="incident-legend">
          <span aria-hidden="true">⚠</span> The dashed red line marks{' '}
          {shownIncidents.length === 1 ? 'an incident' : 'incidents'}: {incidentText}.
        </p>
      ) : null}
      <WarningMarksNote marks={marks} from={aprPoints[0]?.[0]} to={aprPoints.at(-1)?.[0]} />
      {/* Where the figures come from, under the charts: it arrives with the history, and above
          them it pushed the charts down as it did (a layout shift on a desktop). */}
      {usable && !failure && !noLiveData ? (
        <DataSource id={id} provenance={usable.provenance} status={usable.status} />
      ) : null}
    </section>
  );
}
