import type { StrategyContent } from '@yield/contract';
import { ChartFrame } from '../../shared/charts/ChartFrame.tsx';
import { LazyAllocationPie, loadAllocationPie } from '../../shared/charts/lazy.ts';
import { Paragraphs } from './Paragraphs.tsx';
import layout from '../../shared/page.module.css';
import styles from './detail.module.css';

const PIE_SIZE = 250;
/** Worst case one legend row per holding (narrow screens), so the legend never overlaps the pie. */
const LEGEND_ROW = 22;

export function pieHeight(holdingCount: number): number {
  return PIE_SIZE + 36 + holdingCount * LEGEND_ROW;
}

export function Allocations({ content }: { content: StrategyContent }) {
  const summary = content.holdings.map((h) => `${h.name} ${h.percentage}%`).join(', ');
  const height = pieHeight(content.holdings.length);
  return (
    <section
      className={layout.section}
      aria-labelledby="allocations-heading"
      data-section="allocations"
    >
      <h2 id="allocations-heading">Underlying Assets / Allocations</h2>
      <Paragraphs items={[content.holdingsContent]} />
      <div className={styles.allocations}>
        <ChartFrame
          title="Allocation"
          summary={summary}
          height={height}
          pointCount={content.holdings.length}
          testId="chart-allocation"
          load={loadAllocationPie}
        >
          <LazyAllocationPie holdings={content.holdings} size={PIE_SIZE} height={height} />
        </ChartFrame>
        <ul className={styles.holdings} aria-label="Holdings">
          {content.holdings.map((h) => (
            <li key={h.name} className={styles.holding}>
              <span className={styles.swatch} style={{ background: h.color }} aria-hidden="true" />
              <span>
                <strong>
                  {h.name} · {h.percentage}%
                </strong>
                <span className={styles.holdingText}>{h.description}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
