import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PageMeta, useSession, useSiteSettings } from '@yield/platform';
import { InviteCodeForm } from '../features/pricing/InviteCodeForm.tsx';
import { PremiumBenefits } from '../shared/PremiumBenefits.tsx';
import type { PremiumSession } from '@yield/contract';
import {
  readPricingNotice,
  type PremiumEmailState,
  type PricingNotice,
} from '../shared/navigation-state.ts';
import styles from './PricingPage.module.css';
import { ExternalLink } from '@yield/ui';

export const PREMIUM_PRICE = '$299';

const NOTICES: Record<PricingNotice, string> = {
  'premium-required':
    'Premium strategy pages are for premium members. Log in with your invite code or get premium access below.',
  'session-ended':
    'Your premium session is no longer valid, so you have been logged out. Please log in again with your invite code.',
};

function PricingContent() {
  const navigate = useNavigate();
  const location = useLocation();
  const { isPremium, saveSession, clearPendingSession } = useSession();
  const settings = useSiteSettings();
  // Decided once, on arrival: a successful login below also makes the session premium, and that
  // must lead to /premium-email, not to the "already premium" redirect.
  const [premiumOnArrival] = useState(isPremium);
  const notice = readPricingNotice(location.state);

  useEffect(() => {
    if (!premiumOnArrival) return;
    // A premium visitor: clear the pending invite-login session, keep the premium token.
    clearPendingSession();
    navigate('/premium/strategy', { replace: true });
  }, [premiumOnArrival, clearPendingSession, navigate]);

  if (premiumOnArrival) {
    return (
      <div className={styles.redirecting} role="status">
        <span className="spinner" aria-hidden="true" />
        <span>You already have premium access. Opening your premium strategies…</span>
      </div>
    );
  }

  const onLoggedIn = ({ token, user }: PremiumSession, inviteCode: string) => {
    saveSession(token, user);
    const state: PremiumEmailState = { inviteCode };
    navigate('/premium-email', { state });
  };

  return (
    <>
      <header className={styles.intro}>
        <p className={styles.eyebrow}>Premium</p>
        <h1>Premium Access</h1>
        <p className={styles.lead}>
          The full analysis behind every source on the leaderboard: what each risk costs, how the
          yield has behaved, and how it compares with the DeFi Base Rate.
        </p>
      </header>

      {notice ? (
        <p className={styles.notice} role="status">
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M10 1.7a8.3 8.3 0 1 0 0 16.6 8.3 8.3 0 0 0 0-16.6zm.9 12.5H9.1V9h1.8zm0-6.7H9.1V5.8h1.8z"
            />
          </svg>
          {NOTICES[notice]}
        </p>
      ) : null}

      <div className={styles.grid}>
        <section
          className={`${styles.card} ${styles.planCard}`}
          aria-labelledby="premium-plan-heading"
        >
          <h2 id="premium-plan-heading" className={styles.cardTitle}>
            Premium plan
          </h2>
          <p className={styles.price}>
            <span className={styles.amount}>{PREMIUM_PRICE}</span>
            <span className={styles.period}>per month</span>
          </p>
          <h3 id="premium-includes-heading" className={styles.includesTitle}>
            Every premium strategy page includes
          </h3>
          <PremiumBenefits headingId="premium-includes-heading" />
          <ExternalLink
            href={settings?.externalUrls.premiumPurchaseForm}
            className={`btn btn-primary ${styles.buy}`}
          >
            Buy
          </ExternalLink>
          <p className={styles.small}>Opens the order form in a new tab.</p>
        </section>

        <section className={styles.card} aria-labelledby="invite-heading">
          <h2 id="invite-heading" className={styles.cardTitle}>
            Have an invite code?
          </h2>
          <p className={styles.cardText}>
            Log in with your code, then confirm the email address for your premium reports.
          </p>
          <InviteCodeForm onLoggedIn={onLoggedIn} />
          <div className={styles.request}>
            <h3 className={styles.requestTitle}>No code yet?</h3>
            <p className={styles.cardText}>
              Request priority access and we will answer within 24-48 hours.
            </p>
            <ExternalLink
              href={settings?.externalUrls.premiumRequestForm}
              className={styles.textLink}
            >
              Request priority access
            </ExternalLink>
          </div>
        </section>
      </div>
    </>
  );
}

export default function PricingPage() {
  return (
    <main className="page">
      <PageMeta
        title="Premium Access"
        description="Premium access for $299 per month, by invite code or request."
      />
      <PricingContent />
    </main>
  );
}
