import { Link } from 'react-router-dom';
import type { RiskBreakdown, YieldSource } from '@yield/contract';
import { InfoTip } from './InfoTip.tsx';
import { ExternalLink, formatApr, formatDay, formatPoints, RA30_CHARGE_LIST } from '@yield/ui';
import styles from './analysis.module.css';

/** A reference link shown as host + path: readable, and a malformed URL cannot break the page. */
function linkLabel(link: string): string {
  try {
    const url = new URL(link);
    return `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return link;
  }
}

export function RiskBreakdownSection({
  breakdown,
  rationale,
}: {
  breakdown: RiskBreakdown;
  rationale: YieldSource['scoreRationale'];
}) {
  // A stale breakdown keeps its figures (those of its newest day); only too little data has none.
  const ok = breakdown.status !== 'insufficient_data';
  const largest = Math.max(...RA30_CHARGE_LIST.map(({ key }) => breakdown.charges[key]), 0);
  return (
    <section className={styles.section} aria-labelledby="risk-heading">
      <h2 id="risk-heading">Risk assessment</h2>
      <p className={styles.sectionIntro}>
        The risk-adjusted APR is the 30-day APR minus a charge for each risk, in percentage points
        (pp) a year. Window: {formatDay(breakdown.window.from)} to {formatDay(breakdown.window.to)}{' '}
        ({breakdown.window.days} days). <Link to="/methodology">How we calculate this</Link>
      </p>
      {ok ? (
        <>
          <div className={styles.equation}>
            <span>
              <span className={styles.eqLabel}>30-day APR</span>
              <strong>{formatApr(breakdown.yield30d)}</strong>
            </span>
            <span className={styles.eqOp} aria-hidden="true">
              −
            </span>
            <span>
              <span className={styles.eqLabel}>Risk charges</span>
              <strong>{formatPoints(breakdown.risk)}</strong>
            </span>
            <span className={styles.eqOp} aria-hidden="true">
              =
            </span>
            <span>
              <span className={styles.eqLabel}>Risk-adjusted APR</span>
              <strong>{formatApr(breakdown.riskAdjustedYield30d)}</strong>
            </span>
          </div>
          <ul className={styles.charges} aria-label="Risk charges">
            {RA30_CHARGE_LIST.map(({ key, label, explanation }) => {
              const value = breakdown.charges[key];
              const share = largest > 0 ? (value / largest) * 100 : 0;
              return (
                <li key={key} className={styles.charge} data-charge={key}>
                  <span className={styles.chargeName}>
                    {label}
                    <InfoTip label={label}>{explanation}</InfoTip>
                  </span>
                  <span className={styles.chargeBar} aria-hidden="true">
                    <span style={{ width: `${Math.max(share, value > 0 ? 2 : 0)}%` }} />
                  </span>
                  <span className={styles.chargeValue}>{formatPoints(value)}</span>
                </li>
              );
            })}
          </ul>
          <dl className={styles.inputs}>
            <div>
              <dt>Safety score</dt>
              <dd>{breakdown.inputs.safety} / 5</dd>
            </div>
            <div>
              <dt>Liquidity score</dt>
              <dd>{breakdown.inputs.liquidity} / 5</dd>
            </div>
            <div>
              <dt>APR volatility (σ)</dt>
              <dd>{formatPoints(breakdown.inputs.sigma30)}</dd>
            </div>
            <div>
              <dt>Paid in reward tokens</dt>
              <dd>{formatApr(breakdown.inputs.reward30)}</dd>
            </div>
            <div>
              <dt>Largest deposit drawdown</dt>
              <dd>{formatApr(breakdown.inputs.tvlDrawdown * 100)}</dd>
            </div>
            <div>
              <dt>Spiky days smoothed</dt>
              <dd>{breakdown.inputs.clampedDays}</dd>
            </div>
          </dl>
          {rationale.safety || rationale.liquidity ? (
            <div className={styles.rationale}>
              <h3 className={styles.subheading}>
                Why these scores{rationale.date ? ` (reviewed ${formatDay(rationale.date)})` : ''}
              </h3>
              {rationale.safety ? (
                <p>
                  <strong>Safety {breakdown.inputs.safety}/5:</strong> {rationale.safety}
                </p>
              ) : null}
              {rationale.liquidity ? (
                <p>
                  <strong>Liquidity {breakdown.inputs.liquidity}/5:</strong> {rationale.liquidity}
                </p>
              ) : null}
              {rationale.links.length > 0 ? (
                <ul className={styles.sourcesList} aria-label="Sources for these scores">
                  {rationale.links.map((link) => (
                    <li key={link}>
                      <ExternalLink href={link}>{linkLabel(link)}</ExternalLink>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </>
      ) : (
        <p className={styles.statusBox}>
          There are fewer than 20 days of data in the latest 30-day window, so no risk-adjusted APR
          is published for this source yet.
        </p>
      )}
    </section>
  );
}
