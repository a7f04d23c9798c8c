import { useMemo } from 'react';
import type { StrategyContent } from '@yield/contract';
import { ChartFrame } from '../../shared/charts/ChartFrame.tsx';
import { LazyLiquidityChart, loadLiquidityChart } from '../../shared/charts/lazy.ts';
import { LIQUIDITY_HINT, toLiquiditySeries } from '../../shared/liquidity.ts';
import layout from '../../shared/page.module.css';
import styles from './detail.module.css';

const CHART_HEIGHT = 300;

export function Liquidity({ content }: { content: StrategyContent }) {
  const points = content.liquidity.points;
  const series = useMemo(() => toLiquiditySeries(points), [points]);
  const latest = series.liquidity.at(-1)?.[1];
  const empty = series.liquidity.length === 0;
  return (
    <section
      className={layout.section}
      aria-labelledby="liquidity-heading"
      data-section="liquidity"
    >
      <div className={layout.sectionHead}>
        <h2 id="liquidity-heading">Liquidity</h2>
        {content.liquidity.sample ? <span className={styles.sampleBadge}>Sample data</span> : null}
      </div>
      <p>{content.liquidityShortResume}</p>
      <p className="muted">
        Exit liquidity is the share of the pool that can be withdrawn at once without moving the
        price; {LIQUIDITY_HINT}. The Amihud measure rises as trades move the price more (lower is
        better).
        {content.liquidity.sample ? ' These figures are sample data, not live measurements.' : null}
      </p>
      <ChartFrame
        title="Liquidity and price impact"
        summary={
          empty
            ? 'not available'
            : `${series.liquidity.length} days; latest exit liquidity ${latest?.toFixed(2)}% of TVL`
        }
        height={CHART_HEIGHT}
        pointCount={series.liquidity.length}
        unavailable={empty}
        testId="chart-liquidity"
        load={loadLiquidityChart}
      >
        <LazyLiquidityChart series={series} height={CHART_HEIGHT} />
      </ChartFrame>
    </section>
  );
}
