import { Suspense, useRef, type ReactNode } from 'react';
import { useDrawWhenNear } from '@yield/charts';
import styles from './charts.module.css';

export interface ChartFrameProps {
  /** Visible caption, also the chart's accessible name. */
  title: string;
  /** Text alternative of what the chart shows (read by screen readers instead of the SVG). */
  summary: string;
  height: number;
  /** Number of points plotted (exposed for tests and for the caption of empty charts). */
  pointCount?: number;
  /** Draws the N/A overlay over an empty chart (failed request or error response). */
  unavailable?: boolean;
  /** Shows a spinner over the chart while newer data loads. */
  busy?: boolean;
  testId?: string;
  /** Loads the chart component's code (from lazy.ts); charts take turns to load and draw. */
  load: () => Promise<unknown>;
  children: ReactNode;
}

/**
 * How near the viewport a chart must come to be drawn: 200 px ahead on a wide screen; on a phone
 * only once it is on screen. A phone that draws the chart below its first screen while the page
 * starts spends ~300 ms of its main thread on it (docs/performance.md, "Phone speed"); scrolled
 * to, the chart is drawn behind its spinner in a moment.
 */
function drawMargin(): string {
  return typeof window !== 'undefined' && window.matchMedia?.('(max-width: 600px)').matches
    ? '0px'
    : '200px';
}

/**
 * Reserves the chart's height (no layout shift) and shows a spinner until the chart comes near
 * the viewport (drawMargin), its turn comes and Highcharts has arrived (see useDrawWhenNear).
 */
export function ChartFrame({
  title,
  summary,
  height,
  pointCount,
  unavailable = false,
  busy = false,
  testId,
  load,
  children,
}: ChartFrameProps) {
  const plotRef = useRef<HTMLDivElement>(null);
  const ready = useDrawWhenNear(plotRef, { rootMargin: drawMargin(), load });
  const spinner = (
    <div className={styles.overlay} aria-hidden="true">
      <span className="spinner" />
    </div>
  );
  return (
    <figure className={styles.frame} data-testid={testId} data-point-count={pointCount}>
      <figcaption className={styles.caption}>{title}</figcaption>
      <div
        ref={plotRef}
        className={styles.plot}
        style={{ minHeight: height }}
        role="img"
        aria-label={`${title}: ${summary}`}
        data-chart-ready={ready}
      >
        {ready ? (
          <Suspense fallback={spinner}>
            <div aria-hidden="true">{children}</div>
          </Suspense>
        ) : (
          spinner
        )}
        {unavailable ? (
          <div className={`${styles.overlay} ${styles.na}`} data-testid="chart-na">
            N/A
          </div>
        ) : null}
        {busy && !unavailable ? (
          <div className={`${styles.overlay} ${styles.busy}`} aria-hidden="true">
            <span className="spinner" />
          </div>
        ) : null}
      </div>
    </figure>
  );
}
