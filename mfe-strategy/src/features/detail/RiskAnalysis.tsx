import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { breakdownQuery } from '@yield/platform';
import type { Rating, StrategyContent } from '@yield/contract';
import {
  formatApr,
  formatDay,
  formatPoints,
  hasNoLiveData,
  NegativeYieldHint,
  NO_LIVE_DATA,
  RA30_CHARGE_LIST,
  ExternalLink,
} from '@yield/ui';
import { RATING_LABELS, RISK_BARS_TOTAL } from '../../shared/strategies.ts';
import { Paragraphs } from './Paragraphs.tsx';
import layout from '../../shared/page.module.css';
import styles from './detail.module.css';

const RATING_CLASS: Record<Rating, string | undefined> = {
  Best: styles.ratingBest,
  Good: styles.ratingGood,
  Bad: styles.ratingBad,
};
/** A shape next to the word, so the rating never depends on colour alone. */
const RATING_ICON: Record<Rating, string> = { Best: '★', Good: '✓', Bad: '!' };

function RiskBars({ count }: { count: number }) {
  return (
    <div
      className={styles.bars}
      role="img"
      aria-label={`Risk rating: ${count} of ${RISK_BARS_TOTAL} bars`}
    >
      {Array.from({ length: RISK_BARS_TOTAL }, (_, i) => (
        <span
          key={i}
          className={i < count ? styles.barOn : styles.barOff}
          data-testid={i < count ? 'risk-bar-on' : 'risk-bar-off'}
        />
      ))}
      <span className={styles.barsText} aria-hidden="true">
        {count} / {RISK_BARS_TOTAL}
      </span>
    </div>
  );
}

function ChargesBreakdown({ id }: { id: number }) {
  const breakdown = useQuery(breakdownQuery(id));
  if (breakdown.isPending) {
    return <span className="spinner" role="status" aria-label="Loading the risk charges" />;
  }
  // A stale series still has its figures (those of its newest day): shown, dated below.
  if (!breakdown.isError && hasNoLiveData(breakdown.data.provenance)) {
    return (
      <p className="muted" data-testid="charges-no-live-data">
        {NO_LIVE_DATA}: no risk charges are computed until the site imports this source&apos;s
        figures.
      </p>
    );
  }
  if (breakdown.isError || breakdown.data.status === 'insufficient_data') {
    return <p className="muted">The breakdown of the risk charges is not available right now.</p>;
  }
  const b = breakdown.data;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.chargesTable}>
        <caption className="visually-hidden">
          Risk charges, in percentage points a year, from {formatDay(b.window.from)} to{' '}
          {formatDay(b.window.to)}
        </caption>
        <thead>
          <tr>
            <th scope="col">Charge</th>
            <th scope="col">Why</th>
            <th scope="col" className={styles.num}>
              Points a year
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">30d APR</th>
            <td>average of the last {b.window.days} days</td>
            <td className={styles.num}>{formatApr(b.yield30d)}</td>
          </tr>
          {RA30_CHARGE_LIST.map((c) => (
            <tr key={c.key}>
              <th scope="row">− {c.label}</th>
              <td>{c.explanation}</td>
              <td className={styles.num}>{formatPoints(b.charges[c.key])}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">= Risk-adjusted APR</th>
            <td>
              as of {formatDay(b.asOf)}
              {b.status === 'stale' ? ' (stale)' : ''}
            </td>
            <td className={styles.num}>
              {formatApr(b.riskAdjustedYield30d)}
              <NegativeYieldHint value={b.riskAdjustedYield30d} />
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export function RiskAnalysis({ content }: { content: StrategyContent }) {
  return (
    <section className={layout.section} aria-labelledby="risk-heading" data-section="risk-analysis">
      <h2 id="risk-heading">Risk Analysis</h2>
      <Paragraphs items={content.riskRatingsContent} />
      <RiskBars count={content.riskRatingBars} />

      <ul className={styles.ratings} aria-label="Risk ratings">
        {RATING_LABELS.map(({ key, label }) => {
          const rating = content.ratings[key];
          return (
            <li key={key} className={styles.ratingItem} data-testid="risk-rating">
              <span className={styles.ratingLabel}>{label}</span>
              <span className={`${styles.ratingBadge} ${RATING_CLASS[rating] ?? ''}`}>
                <span aria-hidden="true">{RATING_ICON[rating]}</span> {rating}
              </span>
            </li>
          );
        })}
      </ul>

      <h3>3rd Party Risk Ratings</h3>
      <ul className={styles.providers} aria-label="3rd Party Risk Ratings">
        {content.thirdPartyRatings.map((r) => (
          <li key={r.provider} className={styles.provider} data-testid="third-party-rating">
            <ExternalLink href={r.link ?? r.providerUrl} className={styles.providerName}>
              {r.provider}
            </ExternalLink>
            <span className={styles.providerValue}>{r.value}</span>
            <span className={styles.providerDate}>
              Rated <time dateTime={r.date}>{formatDay(r.date)}</time>
            </span>
          </li>
        ))}
      </ul>

      <h3>Potential Losses</h3>
      <Paragraphs items={content.potentialLossesContent} />

      <h3>Short Resume</h3>
      <p>{content.riskAnalysisResult}</p>

      <h3>How the risk-adjusted APR is worked out</h3>
      <p>
        The risk-adjusted APR is the 30-day APR minus a charge for each risk this strategy carried.{' '}
        <Link to="/methodology">Read the methodology</Link>
      </p>
      <ChargesBreakdown id={content.id} />
    </section>
  );
}
