import { useEffect, useMemo } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { PageMeta } from '@yield/platform';
import { ChartFrame } from '../../shared/charts/ChartFrame.tsx';
import { LazyHistoryChart, loadHistoryChart } from '../../shared/charts/lazy.ts';
import { NegativeYieldHint, formatApr, formatDay, formatHolders, formatTvl } from '@yield/ui';
import {
  lookupStrategy,
  staticStrategies,
  toChartPoints,
  type StaticStrategy,
} from './static-strategies.ts';
import styles from './numeric.module.css';

const CHART_HEIGHT = 300;

function BackToHome() {
  return (
    <Link to="/" className="btn btn-secondary">
      <span aria-hidden="true">←</span> Back
    </Link>
  );
}

function NotAvailable({ strategy }: { strategy: StaticStrategy }) {
  return (
    <main className="page">
      <PageMeta
        title="Strategy Not Available"
        description={`${strategy.name} is currently disabled.`}
      />
      <h1 className="visually-hidden">{strategy.name}</h1>
      <div className={styles.disabled} role="alert" data-testid="strategy-not-available">
        <h2>Strategy Not Available</h2>
        <p>This strategy is currently disabled. Please select an active strategy.</p>
        <BackToHome />
      </div>
    </main>
  );
}

function Available({ strategy }: { strategy: StaticStrategy }) {
  const aprPoints = useMemo(() => toChartPoints(strategy.aprHistory), [strategy]);
  const tvlPoints = useMemo(() => toChartPoints(strategy.tvlHistory), [strategy]);
  return (
    <main className="page">
      <PageMeta title={strategy.name} description={strategy.description} />
      <div className={styles.top}>
        <BackToHome />
      </div>
      <h1 className={styles.title}>{strategy.name}</h1>
      <p className={styles.lead}>{strategy.description}</p>
      {staticStrategies.sample ? (
        <p className={styles.sample}>
          Sample data as of {formatDay(staticStrategies.asOf)}: illustrative figures, not live
          measurements.
        </p>
      ) : null}

      <div className={styles.cards}>
        <div className={styles.card} data-testid="card-apr">
          <span className={styles.cardLabel}>30d APR</span>
          <span className={styles.cardValue}>{formatApr(strategy.apr)}</span>
        </div>
        <div className={styles.card} data-testid="card-ra-apr">
          <span className={styles.cardLabel}>30d Risk Adjusted APR</span>
          <span className={styles.cardValue}>
            {formatApr(strategy.riskAdjustedApr)}
            <NegativeYieldHint value={strategy.riskAdjustedApr} />
          </span>
        </div>
        <div className={styles.card} data-testid="card-tvl">
          <span className={styles.cardLabel}>TVL</span>
          <span className={styles.cardValue}>{formatTvl(strategy.tvl)}</span>
          <span className={styles.cardNote}>
            {strategy.holders === null
              ? 'Holder count not in the sample data'
              : `${formatHolders(strategy.holders)}${staticStrategies.sample ? ' (sample)' : ''}`}
          </span>
        </div>
      </div>

      <div className={styles.charts}>
        <section className={styles.panel} aria-labelledby="apr-history-heading">
          <h2 id="apr-history-heading">APR History</h2>
          <ChartFrame
            title="Daily APR"
            summary={`${aprPoints.length} days, latest ${formatApr(aprPoints.at(-1)?.[1])}`}
            height={CHART_HEIGHT}
            pointCount={aprPoints.length}
            unavailable={aprPoints.length === 0}
            testId="chart-apr"
            load={loadHistoryChart}
          >
            <LazyHistoryChart kind="apr" points={aprPoints} height={CHART_HEIGHT} />
          </ChartFrame>
        </section>
        <section className={styles.panel} aria-labelledby="tvl-history-heading">
          <h2 id="tvl-history-heading">TVL History</h2>
          <ChartFrame
            title="Daily TVL"
            summary={`${tvlPoints.length} days, latest ${formatTvl(tvlPoints.at(-1)?.[1])}`}
            height={CHART_HEIGHT}
            pointCount={tvlPoints.length}
            unavailable={tvlPoints.length === 0}
            testId="chart-tvl"
            load={loadHistoryChart}
          >
            <LazyHistoryChart kind="tvl" points={tvlPoints} height={CHART_HEIGHT} />
          </ChartFrame>
        </section>
      </div>
    </main>
  );
}

/** /strategy/:id and /strategy-detail/:id: the numeric-id page over the local static list. */
export function NumericStrategy() {
  const { id } = useParams();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [id]);
  const lookup = lookupStrategy(id);
  if (lookup.state === 'not-found') return <Navigate replace to="/options" />;
  if (lookup.state === 'disabled') return <NotAvailable strategy={lookup.strategy} />;
  return <Available strategy={lookup.strategy} />;
}
