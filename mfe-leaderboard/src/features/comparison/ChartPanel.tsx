import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useDrawWhenNear } from '@yield/charts';
import { detailPath, formatApr, formatPoints, type ChartPoint } from './model.ts';
import { HeadingAt } from './small-bits.tsx';
import { StaticRiskReward } from './StaticRiskReward.tsx';
import comparison from './comparison.module.css';
import styles from './ChartPanel.module.css';

const RiskRewardChart = lazy(() => import('./RiskRewardChart.tsx'));

function ChartPlaceholder({ mobile }: { mobile: boolean }) {
  return (
    <div
      className={styles.chartPlaceholder}
      style={{ height: mobile ? 320 : 400 }}
      aria-busy="true"
    >
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading the chart…</span>
    </div>
  );
}

function SelectedPointCard({ point, onClose }: { point: ChartPoint; onClose: () => void }) {
  return (
    <div
      className={styles.detailCard}
      role="region"
      aria-label={`Selected: ${point.name}`}
      data-testid="chart-detail"
    >
      <div className={styles.detailHeader}>
        <strong>{point.name}</strong>
        <button
          type="button"
          className={comparison.iconButton}
          onClick={onClose}
          aria-label="Clear selection"
        >
          ×
        </button>
      </div>
      <dl className={styles.detailList}>
        <div>
          <dt>30d APR</dt>
          <dd>{formatApr(point.reward)}</dd>
        </div>
        <div>
          <dt>Risk</dt>
          <dd>{formatPoints(point.risk)}</dd>
        </div>
        <div>
          <dt>Risk-adjusted APR</dt>
          <dd>{formatApr(point.riskAdjusted)}</dd>
        </div>
      </dl>
      <p className={styles.detailVerdict}>
        {point.isBaseRate
          ? 'The benchmark: the average return of the top DeFi venues for this kind of asset.'
          : point.hasIncident
            ? 'Active incident: never marked GREAT until it is resolved.'
            : point.great
              ? 'GREAT: it pays more per unit of risk than the DeFi Base Rate.'
              : 'Pays less per unit of risk than the DeFi Base Rate.'}
      </p>
      {point.hasWarning ? (
        <p className={styles.detailVerdict}>
          Warning detected from data: see the note under the table.
        </p>
      ) : null}
      {point.isBaseRate ? (
        <Link to="/methodology">How the base rate is built</Link>
      ) : (
        <Link to={detailPath(point)}>See {point.name}</Link>
      )}
    </div>
  );
}

export interface ChartPanelProps {
  title: string;
  headingLevel: number;
  points: ChartPoint[];
  mobile: boolean;
  testId: string;
  /** Extra wait before drawing, so two charts are not drawn in the same task. */
  drawDelayMs?: number;
}

/** One risk-versus-reward chart with its legend and the card of the selected point. */
export function ChartPanel({
  title,
  headingLevel,
  points,
  mobile,
  testId,
  drawDelayMs = 0,
}: ChartPanelProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  // Only once the browser is idle after the first paint and the chart is within 300 px of the
  // viewport: Highcharts is requested after the tables have rendered (it never competes with
  // them), and not at all for a chart nobody scrolls to (on `/` the comparison starts under the
  // hero). On a phone, not before the chart is touched either (below).
  const ready = useDrawWhenNear(frameRef, {
    rootMargin: '300px 0px',
    afterIdle: true,
    delayMs: drawDelayMs,
  });
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const select = useCallback((key: string | null) => setSelectedKey(key), []);
  // Phones show the static picture until the chart is first tapped; Highcharts then takes over
  // (a tap on a point selects it in the same gesture).
  const [touched, setTouched] = useState(false);
  const wake = useCallback(() => setTouched(true), []);
  const still = mobile && !touched;
  const picture = <StaticRiskReward points={points} selectedKey={selectedKey} onSelect={select} />;
  const selected = points.find((p) => p.key === selectedKey) ?? null;
  const headingId = `${testId}-heading`;
  const greatCount = points.filter((p) => p.great).length;

  return (
    <section className={styles.chartBlock} aria-labelledby={headingId} data-testid={testId}>
      <HeadingAt level={headingLevel} id={headingId} className={comparison.blockTitle}>
        {title}
      </HeadingAt>
      <p className="visually-hidden">
        Scatter chart of risk against 30-day APR for {points.length} points, {greatCount} of them
        GREAT. The table below lists the same figures.
      </p>
      <ul className={styles.legend} aria-label="Chart legend">
        <li>
          <span className={`${styles.legendMark} ${styles.legendGreat}`} aria-hidden="true" />
          GREAT (beats the base rate per unit of risk)
        </li>
        <li>
          <span className={`${styles.legendMark} ${styles.legendOther}`} aria-hidden="true" />
          Other sources
        </li>
        <li>
          <span className={`${styles.legendMark} ${styles.legendBase}`} aria-hidden="true" />
          DeFi Base Rate
        </li>
        {points.some((p) => p.hasIncident) ? (
          <li>
            <span className={`${styles.legendMark} ${styles.legendIncident}`} aria-hidden="true" />
            Active incident
          </li>
        ) : null}
        {points.some((p) => p.hasWarning) ? (
          <li>
            <span className={`${styles.legendMark} ${styles.legendWarning}`} aria-hidden="true" />
            Warning detected from data
          </li>
        ) : null}
      </ul>
      <div
        className={styles.chartFrame}
        aria-hidden="true"
        ref={frameRef}
        // After the picture's own handler (select a point, or clear) in the same bubbling
        // click, so React swaps the picture for Highcharts once, with the selection made.
        onClick={still ? wake : undefined}
      >
        {still ? (
          picture
        ) : ready ? (
          <Suspense fallback={mobile ? picture : <ChartPlaceholder mobile={mobile} />}>
            <RiskRewardChart
              points={points}
              mobile={mobile}
              selectedKey={selectedKey}
              onSelect={select}
            />
          </Suspense>
        ) : mobile ? (
          picture
        ) : (
          <ChartPlaceholder mobile={mobile} />
        )}
      </div>
      {selected ? (
        <SelectedPointCard point={selected} onClose={() => setSelectedKey(null)} />
      ) : null}
    </section>
  );
}
