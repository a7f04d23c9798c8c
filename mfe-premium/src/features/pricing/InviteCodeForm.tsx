import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { premiumInviteMutation } from '@yield/platform';
import type { PremiumSession } from '@yield/contract';
import { toast, warmUpToasts } from '@yield/ui';
import styles from '../../shared/form.module.css';

export const INVITE_BUTTON_IDLE = 'Log In to Premium';
export const INVITE_BUTTON_BUSY = 'Logging in...';

export interface InviteCodeFormProps {
  /** Called once the server accepted the code; the caller stores the session and moves on. */
  onLoggedIn: (session: PremiumSession, inviteCode: string) => void;
}

/** Invite login: idle -> submitting (disabled) -> success, or a toast and back to idle. */
export function InviteCodeForm({ onLoggedIn }: InviteCodeFormProps) {
  const inputId = useId();
  const hintId = useId();
  const [code, setCode] = useState('');
  const login = useMutation({
    ...premiumInviteMutation(),
    onSuccess: (session, { inviteCode }) => onLoggedIn(session, inviteCode),
    onError: () => toast.error('Error', 'The code is invalid'),
  });
  const submitting = login.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    warmUpToasts();
    login.mutate({ inviteCode: code });
  };

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      onFocus={warmUpToasts}
      onPointerDown={warmUpToasts}
      aria-busy={submitting}
    >
      <label htmlFor={inputId} className={styles.label}>
        Invite code
      </label>
      <p id={hintId} className={styles.hint}>
        Enter the code from your invitation e-mail. Capitals and spaces do not matter.
      </p>
      <div className={styles.row}>
        <input
          id={inputId}
          name="inviteCode"
          type="text"
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className={styles.input}
          aria-describedby={hintId}
          value={code}
          readOnly={submitting}
          onChange={(event) => setCode(event.target.value)}
        />
        <button type="submit" className={`btn btn-primary ${styles.submit}`} disabled={submitting}>
          {submitting ? (
            <>
              <span className={styles.busyDot} aria-hidden="true" />
              {INVITE_BUTTON_BUSY}
            </>
          ) : (
            INVITE_BUTTON_IDLE
          )}
        </button>
      </div>
    </form>
  );
}
