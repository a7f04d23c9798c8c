import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Modal } from 'antd';
import { mailSignupMutation } from '@yield/platform';
import { toast, warmUpToasts } from '@yield/ui';
import { HeadingAt } from './small-bits.tsx';
import styles from './comparison.module.css';

/** Newsletter signup: POST /api/addToMailList {email, source: 'newsletter'}. */
export function Newsletter({ headingLevel }: { headingLevel: number }) {
  const [email, setEmail] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const inputId = useId();
  const headingId = useId();
  const signup = useMutation({
    ...mailSignupMutation(),
    onSuccess: () => {
      setEmail('');
      setConfirmed(true);
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
            onFocus={warmUpToasts}
            className={styles.newsletterInput}
          />
          <button type="submit" className="btn btn-primary" disabled={signup.isPending}>
            {signup.isPending ? 'Subscribing…' : 'Subscribe'}
          </button>
        </div>
      </form>
      <Modal
        open={confirmed}
        title="Successfully Subscribed!"
        onCancel={() => setConfirmed(false)}
        footer={
          <button type="button" className="btn btn-primary" onClick={() => setConfirmed(false)}>
            Got it!
          </button>
        }
        centered
      >
        <p>Thank you. We will email you when the rankings change.</p>
      </Modal>
    </section>
  );
}
