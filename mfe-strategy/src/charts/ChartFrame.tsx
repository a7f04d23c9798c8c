import { Suspense, type ReactNode } from 'react';
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
  children: ReactNode;
}

/** Reserves the chart's height (no layout shift), shows a spinner until Highcharts arrives. */
export function ChartFrame({
  title,
  summary,
  height,
  pointCount,
  unavailable = false,
  busy = false,
  testId,
  children,
}: ChartFrameProps) {
  return (
    <figure className={styles.frame} data-testid={testId} data-point-count={pointCount}>
      <figcaption className={styles.caption}>{title}</figcaption>
      <div className={styles.plot} style={{ minHeight: height }} role="img" aria-label={`${title}: ${summary}`}>
        <Suspense
          fallback={
            <div className={styles.overlay} aria-hidden="true">
              <span className="spinner" />
            </div>
          }
        >
          <div aria-hidden="true">{children}</div>
        </Suspense>
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
