import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ApiError,
  isUnauthorized,
  PageMeta,
  premiumAnalysisQuery,
  queryKeys,
  useSession,
} from '@yield/platform';
import { PremiumBenefits } from '../shared/PremiumBenefits.tsx';
import { AnalyzingStatus, PremiumReport, typeLabel } from '../features/analysis/PremiumReport.tsx';
import { OtherReports } from '../features/analysis/OtherReports.tsx';
import { ProvenanceLine, StillTrying } from '@yield/ui';
import { PRICING_STATES } from '../shared/navigation-state.ts';
import styles from './PremiumStrategyPage.module.css';

function PremiumStrategyContent({ strategy }: { strategy: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { isPremium, token, logOut } = useSession();
  // The page needs a logged-in state on arrival. Later, Log Out in the header
  // takes the visitor home itself; this page then just stops showing premium data.
  const [premiumOnArrival] = useState(isPremium);

  const analysis = useQuery({
    ...premiumAnalysisQuery(strategy, token),
    enabled: premiumOnArrival && isPremium,
  });

  const refused = isUnauthorized(analysis.error);
  useEffect(() => {
    if (!refused) return;
    // The server is the judge: a token it refuses (forged, expired, revoked) ends the session.
    logOut();
    queryClient.removeQueries({ queryKey: queryKeys.premiumAnalyses });
    navigate('/pricing', { replace: true, state: PRICING_STATES['session-ended'] });
  }, [refused, logOut, queryClient, navigate]);

  if (!premiumOnArrival) {
    return <Navigate to="/pricing" replace state={PRICING_STATES['premium-required']} />;
  }
  if (!isPremium || refused) return null;

  const data = analysis.data;
  const source = data?.source ?? null;

  return (
    <>
      <header className={styles.header}>
        <p className={styles.eyebrow}>Premium strategy report</p>
        <h1>Premium Strategy #{strategy}</h1>
      </header>

      <section className={styles.benefits} aria-labelledby="benefits-heading">
        <h2 id="benefits-heading" className={styles.benefitsTitle}>
          Included with premium
        </h2>
        <PremiumBenefits headingId="benefits-heading" compact />
      </section>

      {analysis.isPending ? (
        <div className={styles.loading} role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading the premium report…</span>
          <StillTrying />
        </div>
      ) : analysis.isError ? (
        analysis.error instanceof ApiError && analysis.error.status === 400 ? (
          <div className={styles.problem} role="alert">
            <p>There is no strategy report at this address.</p>
            <Link to="/options">See all yield sources</Link>
          </div>
        ) : (
          <div className={styles.problem} role="alert">
            <p>The premium report could not be loaded just now. Your access is not affected.</p>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => void analysis.refetch()}
            >
              Try again
            </button>
          </div>
        )
      ) : data ? (
        <>
          {source ? (
            <section className={styles.identity} aria-labelledby="source-heading">
              <h2 id="source-heading">{source.name}</h2>
              <p className={styles.sourceLine}>
                <span className={styles.chip}>{typeLabel(source.type)}</span>
                <span className={styles.tokens}>
                  Deposit {source.token}, receive {source.yieldToken}
                </span>
                <span className={styles.sample} data-testid="data-source">
                  <ProvenanceLine
                    provenance={source.provenance}
                    stale={source.provenance.stale}
                    compact
                  />
                </span>
              </p>
            </section>
          ) : null}
          <PremiumReport analysis={data} />
        </>
      ) : (
        <AnalyzingStatus />
      )}

      {/* After the report, not before it: arriving first, the links would be pushed down (CLS). */}
      {analysis.isPending ? null : <OtherReports current={source ? String(source.id) : strategy} />}
    </>
  );
}

export default function PremiumStrategyPage() {
  const { strategy = '' } = useParams();
  return (
    <main className="page">
      <PageMeta
        title={`Premium Strategy #${strategy}`}
        description="Premium analysis of a yield source: risk breakdown, history and third-party ratings."
      />
      <PremiumStrategyContent strategy={strategy} />
    </main>
  );
}
