import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { PageMeta, useSession } from '@yield/platform';
import { ActivationForm } from '../features/activation/ActivationForm.tsx';
import type { PremiumSession } from '@yield/contract';
import { toast } from '@yield/ui';
import { readInviteCode } from '../shared/navigation-state.ts';
import styles from './PremiumEmailPage.module.css';

/** After activation the app goes home 1.5 s later. */
export const ACTIVATION_REDIRECT_MS = 1500;

function PremiumEmailContent({ inviteCode }: { inviteCode: string }) {
  const navigate = useNavigate();
  const { saveSession } = useSession();
  const leaveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(leaveTimer.current), []);

  const onActivated = ({ token }: PremiumSession) => {
    // The server re-issues the token with the email in it (stored when present).
    if (token) saveSession(token);
    toast.success('Success!', 'Your premium account has been activated. Welcome!');
    leaveTimer.current = setTimeout(() => navigate('/'), ACTIVATION_REDIRECT_MS);
  };

  return (
    <div className={styles.card}>
      <div className={styles.badge} aria-hidden="true">
        <svg viewBox="0 0 24 24" width="28" height="28" focusable="false">
          <path
            fill="currentColor"
            d="M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm0 4-8 5-8-5V6l8 5 8-5z"
          />
        </svg>
      </div>
      <h1 className={styles.title}>Almost There!</h1>
      <p className={styles.lead}>
        Your invite code was accepted. Enter your email address to activate your premium account.
      </p>
      <ActivationForm inviteCode={inviteCode} onActivated={onActivated} />
    </div>
  );
}

export default function PremiumEmailPage() {
  const location = useLocation();
  // The invite code travels only in navigation state: arriving any other way means no code.
  const inviteCode = readInviteCode(location.state);
  return (
    <main className="page">
      <PageMeta title="Premium Registration" description="Activate your premium account." />
      {inviteCode ? (
        <PremiumEmailContent inviteCode={inviteCode} />
      ) : (
        <Navigate to="/pricing" replace />
      )}
    </main>
  );
}
