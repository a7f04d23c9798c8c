/**
 * One pool of the scanner (/scanner/pool/:pool): its daily APY and TVL history kept by the site
 * (GET /api/scanner/pools/:pool/history) as a chart, and its current figures from the ranking.
 * Loading, error, not-found and empty states; a link back to the scanner.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { lazy, Suspense, useRef } from 'react';
import { useDrawWhenNear } from '@yield/charts';
import { ApiError, PageMeta, poolHistoryQuery } from '@yield/platform';
import type { PoolHistoryAnswer } from '@yield/contract';
import { POOL_METHOD_VERSION } from '@yield/contract/constants';
import { ExternalLink, formatApr, formatDay, formatPoints, formatTvl } from '@yield/ui';
import pageIntro from '../../shared/page-intro.module.css';
import styles from './scanner.module.css';

/** What the page says of the pool's backfill (the answer's `backfill`), with no day yet. */
const EMPTY_NOTE: Record<PoolHistoryAnswer['backfill'], string> = {
  none: '',
  queued: ' It is being fetched from DeFiLlama: check back in a few minutes.',
  recent:
    ' The site asked DeFiLlama for it in the last 24 hours and got none; it asks again after a day.',
  deferred:
    ' The site fetches a limited number of pools at a time and this one is not among them now: check back later.',
};

/** The same under a chart of fewer than 30 days. */
const HISTORY_NOTE: Record<PoolHistoryAnswer['backfill'], string> = {
  none: '',
  queued: 'Earlier days are being fetched from DeFiLlama; this page updates by itself.',
  recent:
    'Earlier days were asked of DeFiLlama in the last 24 hours; the site asks again after a day.',
  deferred:
    'Earlier days are not being fetched now (the site fetches a limited number of pools at a time): check back later.',
};

const loadChart = () => import('./PoolHistoryChart.tsx');
const PoolHistoryChart = lazy(loadChart);
const CHART_HEIGHT = 320;

function ChartArea({ days }: { days: PoolHistoryAnswer['days'] }) {
  const plotRef = useRef<HTMLDivElement>(null);
  const ready = useDrawWhenNear(plotRef, { rootMargin: '200px', load: loadChart });
  const spinner = (
    <div className={styles.poolChartLoading} aria-busy="true">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading the chart…</span>
    </div>
  );
  const last = days.at(-1);
  return (
    <figure className={styles.poolChart} data-testid="pool-history-chart" data-days={days.length}>
      <figcaption className={styles.poolChartCaption}>
        APY and TVL, daily ({days.length} days)
        <span className="visually-hidden">
          {last ? `: latest APY ${formatApr(last.apy)}, TVL ${formatTvl(last.tvlUsd)}` : ''}
        </span>
      </figcaption>
      <div ref={plotRef} style={{ minHeight: CHART_HEIGHT }} aria-hidden="true">
        {ready ? (
          <Suspense fallback={spinner}>
            <PoolHistoryChart days={days} height={CHART_HEIGHT} />
          </Suspense>
        ) : (
          spinner
        )}
      </div>
    </figure>
  );
}

function Figures({ data }: { data: PoolHistoryAnswer }) {
  const item = data.item;
  if (!item) {
    return <p className="muted">This pool is no longer in the latest DeFiLlama snapshot.</p>;
  }
  const rows: [string, string][] = [
    ['Risk-adjusted APR', formatApr(item.riskAdjustedApr)],
    [item.apyBasis === 'mean30d' ? 'APY (30-day mean)' : 'APY (current)', formatApr(item.apy)],
    ['Current APY', formatApr(item.apySpot)],
    ['Base APY', item.apyBase === null ? 'N/A' : formatApr(item.apyBase)],
    ['Reward APY', item.apyReward === null ? 'N/A' : formatApr(item.apyReward)],
    ['TVL', formatTvl(item.tvlUsd)],
    ['Risk charges', `−${formatPoints(item.risk)}`],
    ['Safety', `${item.inputs.safety} of 5`],
  ];
  return (
    <dl className={styles.poolFigures} data-testid="pool-figures">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PoolPage({ pool }: { pool: string }) {
  const history = useQuery(poolHistoryQuery(pool));
  const data = history.data;
  const item = data?.item ?? null;
  const title = item ? `${item.symbol} · ${item.project} · ${item.chain}` : 'Pool';
  const notFound = history.error instanceof ApiError && [400, 404].includes(history.error.status);

  return (
    <section className={styles.scanner} aria-labelledby="pool-title" data-testid="pool-page">
      <PageMeta
        title={item ? `${item.symbol} on ${item.project}: pool history` : 'Pool history'}
        description="A DeFiLlama pool's daily APY and TVL history and its risk-adjusted figures on the Yield Scanner."
      />
      <p>
        <Link to="/scanner" data-testid="pool-back">
          ← Back to the Yield Scanner
        </Link>
      </p>
      <header>
        <h1 id="pool-title" className={pageIntro.title}>
          {title}
        </h1>
        {item?.poolMeta ? <p className={styles.lead}>{item.poolMeta}</p> : null}
      </header>

      {history.isPending ? (
        <p role="status" data-testid="pool-loading">
          <span className="spinner" aria-hidden="true" /> Loading the pool’s history…
        </p>
      ) : notFound ? (
        <p role="alert" data-testid="pool-not-found">
          No such pool in the scanner. <Link to="/scanner">See every pool</Link>.
        </p>
      ) : history.isError ? (
        <p role="alert" data-testid="pool-error">
          The pool’s history could not be loaded.{' '}
          <button type="button" onClick={() => void history.refetch()}>
            Retry
          </button>
        </p>
      ) : data ? (
        <>
          <Figures data={data} />
          <p className={pageIntro.sampleNote} data-testid="pool-data-note">
            {data.sample
              ? 'Sample data: a generated history, not live market figures.'
              : `Daily history kept by the site${
                  data.days.length > 0
                    ? ` from ${formatDay(data.days[0]!.date)} to ${formatDay(data.days.at(-1)!.date)}`
                    : ''
                }.`}{' '}
            Method <code>{POOL_METHOD_VERSION}</code>.
          </p>
          {data.days.length === 0 ? (
            <p data-testid="pool-history-empty">
              No daily history of this pool yet.{EMPTY_NOTE[data.backfill]}
            </p>
          ) : (
            <>
              <ChartArea days={data.days} />
              {HISTORY_NOTE[data.backfill] ? (
                <p className="muted" data-testid="pool-backfill-note">
                  {HISTORY_NOTE[data.backfill]}
                </p>
              ) : null}
            </>
          )}
          {item ? (
            <p>
              <ExternalLink href={item.url}>{item.symbol} on DeFiLlama</ExternalLink>
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
