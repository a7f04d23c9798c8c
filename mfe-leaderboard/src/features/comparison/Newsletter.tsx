import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { mailSignupMutation } from '@yield/platform';
import { loadOnce, toast, warmUpToasts } from '@yield/ui';
import { HeadingAt } from './small-bits.tsx';
import styles from './Newsletter.module.css';

/** The confirmation's chunk, loaded once (a failed load is tried again when it is needed). */
const loadModal = loadOnce(() => import('./SubscribedModal.tsx'));
const SubscribedModal = lazy(loadModal);

/** A saver starting on the form: the toasts and the confirmation load while they type. */
function warmUp(): void {
  warmUpToasts();
  loadModal().catch(() => undefined);
}

/** Newsletter signup: POST /api/addToMailList {email, source: 'newsletter'}. */
export function Newsletter({ headingLevel }: { headingLevel: number }) {
  const [email, setEmail] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  // Mounted from the first confirmation on, so that closing it plays antd's animation.
  const [everConfirmed, setEverConfirmed] = useState(false);
  const inputId = useId();
  const headingId = useId();
  const signup = useMutation({
    ...mailSignupMutation(),
    onSuccess: () => {
      setEmail('');
      setConfirmed(true);
      setEverConfirmed(true);
    },
    onError: () => toast.error('Error', 'Failed to add to mailing list. Please try again later.'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signup.mutate({ email: email.trim(), source: 'newsletter' });
  };

  return (
    <section className={styles.newsletter} aria-labelledby={headingId} data-testid="newsletter">
      <HeadingAt level={headingLevel} id={headingId} className={styles.newsletterTitle}>
        Get the rankings in your inbox
      </HeadingAt>
      <p className="muted">
        A short email when rates or rankings change. No spam; unsubscribe at any time.
      </p>
      <form className={styles.newsletterForm} onSubmit={submit}>
        <label htmlFor={inputId} className={styles.newsletterLabel}>
          Email address
        </label>
        <div className={styles.newsletterRow}>
          <input
            id={inputId}
            type="email"
            name="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onFocus={warmUp}
            className={styles.newsletterInput}
          />
          <button type="submit" className="btn btn-primary" disabled={signup.isPending}>
            {signup.isPending ? 'Subscribing…' : 'Subscribe'}
          </button>
        </div>
      </form>
      {everConfirmed ? (
        <Suspense fallback={null}>
          <SubscribedModal open={confirmed} onClose={() => setConfirmed(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
