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
 * Reserves the chart's height (no layout shift) and shows a spinner until the chart comes within
 * 200 px of the viewport, its turn comes and Highcharts has arrived (see useDrawWhenNear).
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
  const ready = useDrawWhenNear(plotRef, { rootMargin: '200px', load });
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
