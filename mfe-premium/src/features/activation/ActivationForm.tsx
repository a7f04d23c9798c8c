import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { premiumLoginMutation } from '@yield/platform';
import type { PremiumSession } from '@yield/contract';
import { toast, warmUpToasts } from '@yield/ui';
import styles from '../../shared/form.module.css';

export const ACTIVATE_BUTTON_IDLE = 'Activate Premium Account';
export const ACTIVATE_BUTTON_BUSY = 'Activating...';

export interface ActivationFormProps {
  inviteCode: string;
  /** Called once the server bound the email; the caller stores the token, toasts and moves on. */
  onActivated: (session: PremiumSession, email: string) => void;
}

/** Premium e-mail: required email, 'Activating...' while loading, a toast on failure. */
export function ActivationForm({ inviteCode, onActivated }: ActivationFormProps) {
  const inputId = useId();
  const noteId = useId();
  const [email, setEmail] = useState('');
  const activation = useMutation({
    ...premiumLoginMutation(),
    onSuccess: (session, { email: address }) => onActivated(session, address),
    onError: () => toast.error('Error', 'Failed to activate premium account. Please try again.'),
  });
  // After success the page leaves in 1.5 s; the form stays locked so it cannot be sent twice.
  const locked = activation.isPending || activation.isSuccess;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (locked) return;
    warmUpToasts();
    activation.mutate({ email: email.trim(), inviteCode });
  };

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      onFocus={warmUpToasts}
      onPointerDown={warmUpToasts}
      aria-busy={activation.isPending}
    >
      <label htmlFor={inputId} className={styles.label}>
        Email address
      </label>
      <div className={styles.row}>
        <input
          id={inputId}
          name="email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          className={styles.input}
          aria-describedby={noteId}
          value={email}
          readOnly={locked}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <p id={noteId} className={styles.hint}>
        We use this email only to send your premium updates and strategy reports.
      </p>
      <button
        type="submit"
        className={`btn btn-primary ${styles.submit} ${styles.submitWide}`}
        disabled={locked}
      >
        {activation.isPending ? (
          <>
            <span className={styles.busyDot} aria-hidden="true" />
            {ACTIVATE_BUTTON_BUSY}
          </>
        ) : (
          ACTIVATE_BUTTON_IDLE
        )}
      </button>
    </form>
  );
}
