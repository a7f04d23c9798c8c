import type { PremiumStrategyAnalysis } from '@yield/contract';
import {
  DepositsPausedNote,
  ExternalLink,
  formatApr,
  formatDay,
  formatPoints,
  formatTvl,
  hasNoLiveData,
  NO_LIVE_DATA,
} from '@yield/ui';
import { RiskBreakdownSection } from './RiskBreakdownSection.tsx';
import { PerformanceSection } from './PerformanceSection.tsx';
import { ThirdPartyRatingsSection } from './ThirdPartyRatingsSection.tsx';
import styles from './analysis.module.css';

/** The premium strategy page's status, shown whenever the server has no analysis for the id yet. */
export function AnalyzingStatus() {
  return (
    <section
      className={styles.analyzing}
      aria-labelledby="status-heading"
      data-testid="premium-status"
    >
      <span className={styles.analyzingIcon} aria-hidden="true">
        <svg viewBox="0 0 24 24" width="28" height="28" focusable="false">
          <path
            fill="currentColor"
            d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.2 3.1.8-1.2-4.5-2.7z"
          />
        </svg>
      </span>
      <div>
        <h2 id="status-heading">Analysis in progress</h2>
        <p>This strategy is being analyzed. The full report will be available soon.</p>
      </div>
    </section>
  );
}

export function typeLabel(type: string): string {
  return type === 'stablecoin' ? 'Stablecoin' : 'Crypto';
}

/** The premium analysis the protected API serves for one source. */
export function PremiumReport({ analysis }: { analysis: PremiumStrategyAnalysis }) {
  if (analysis.status !== 'ready') return <AnalyzingStatus />;
  const { breakdown, source } = analysis;
  const activeIncidents = source.incidents.filter((incident) => incident.active);
  // A stale series keeps its figures (those of its newest day); only too little data is N/A.
  const measured = breakdown.status !== 'insufficient_data';
  // No live data (the site has imported; this source has no feed yet): said where figures would be.
  const missing = hasNoLiveData(breakdown.provenance) ? NO_LIVE_DATA : 'N/A';

  return (
    <div className={styles.report} data-testid="premium-report">
      {activeIncidents.map((incident) => (
        <aside key={`${incident.date}-${incident.kind}`} className={styles.incident} role="note">
          <strong>
            Incident on {formatDay(incident.date)}: {incident.kind}
          </strong>
          <p>{incident.summary}</p>
          {incident.link ? (
            <ExternalLink href={incident.link}>Read the incident report</ExternalLink>
          ) : null}
        </aside>
      ))}

      <section className={styles.section} aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <dl className={styles.figures}>
          <div>
            <dt>30-day APR</dt>
            <dd>{measured ? formatApr(breakdown.yield30d) : missing}</dd>
          </div>
          <div>
            <dt>Risk charges</dt>
            <dd>{measured ? formatPoints(breakdown.risk) : missing}</dd>
          </div>
          <div>
            <dt>Risk-adjusted APR</dt>
            <dd>{measured ? formatApr(breakdown.riskAdjustedYield30d) : missing}</dd>
          </div>
          <div>
            <dt>TVL</dt>
            <dd>
              {hasNoLiveData(breakdown.provenance) ? missing : formatTvl(breakdown.inputs.tvl)}
            </dd>
          </div>
        </dl>
        {measured ? (
          <p
            className={
              breakdown.great ? `${styles.verdict} ${styles.verdictGreat}` : styles.verdict
            }
          >
            <span className={styles.verdictBadge}>{breakdown.great ? 'GREAT' : 'Not GREAT'}</span>
            {breakdown.great
              ? `Its reward-to-risk ratio beats the ${typeLabel(source.type).toLowerCase()} DeFi Base Rate's.`
              : `Its reward-to-risk ratio is not above the ${typeLabel(source.type).toLowerCase()} DeFi Base Rate's.`}
          </p>
        ) : null}
        <p className={styles.summaryText}>{analysis.summary}</p>
        {source.description ? (
          <>
            <h3 className={styles.subheading}>How it earns</h3>
            <p className={styles.summaryText}>
              {source.description}{' '}
              <span className="muted">
                ({source.yield_type};{' '}
                {source.real_or_incentive === 'Real'
                  ? 'paid from real revenue'
                  : 'partly paid in reward tokens'}
                .)
              </span>
            </p>
          </>
        ) : null}
        {source.depositUrl ? (
          <p className={styles.deposit}>
            <ExternalLink href={source.depositUrl} className="btn btn-secondary">
              Go to {source.name}
            </ExternalLink>
            <span className="muted">
              You deposit on the provider&apos;s own site; we never hold your funds.
            </span>
          </p>
        ) : !source.isBaseRate && source.depositsPaused ? (
          <p className={styles.deposit}>
            <DepositsPausedNote paused={source.depositsPaused} />
          </p>
        ) : null}
      </section>

      <RiskBreakdownSection breakdown={breakdown} rationale={source.scoreRationale} />
      <PerformanceSection history={analysis.history} incidents={source.incidents} />
      <ThirdPartyRatingsSection ratings={analysis.thirdPartyRatings} />
    </div>
  );
}
