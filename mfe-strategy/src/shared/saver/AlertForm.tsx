import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { alertSubscribeMutation, ApiError, sourcesQuery } from '@yield/platform';
import { ALERT_KINDS, type AlertKind } from '@yield/contract/constants';
import layout from '../page.module.css';
import styles from './saver.module.css';

/** What each kind of alert watches, as the form offers it. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  'below-base': 'Its risk-adjusted APR falls below the DeFi Base Rate',
  incident: 'An incident opens',
  stale: 'Its data stops arriving',
  warning:
    'A warning is detected from its data (deposits leaving, off its peg, APR spike, feeds disagree)',
};

/** The answer shown after a subscription (the API's text, the same whether or not it existed). */
const FALLBACK_SUCCESS =
  'Check your inbox: we sent you a link to confirm the alert. Nothing is sent until you confirm.';

function errorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 400 && error.code === 'invalid_email')
    return 'Enter a valid email address.';
  if (error instanceof ApiError && error.status === 429)
    return 'Too many requests: please wait a minute and try again.';
  return 'The alert could not be set up just now. Please try again later.';
}

/**
 * E-mail alerts on one source (POST /api/alerts): an address and what to be told about. A
 * confirmation e-mail follows (double opt-in); every alert carries a one-click unsubscribe link.
 * Takes the source id so any page can place it (the strategy pages, the comparison).
 */
export function AlertForm({
  sourceId,
  choices,
  headingLevel = 2,
}: {
  sourceId: number;
  /** Sources the saver picks from (the /compare page's); `sourceId` is the first choice. */
  choices?: readonly number[];
  headingLevel?: 2 | 3;
}) {
  const [email, setEmail] = useState('');
  const [kind, setKind] = useState<AlertKind>('below-base');
  const [chosen, setChosen] = useState(sourceId);
  const sources = useQuery(sourcesQuery);
  const nameOf = (id: number) =>
    sources.data?.find((s) => s.id === id && !s.isBaseRate)?.name ?? `source ${id}`;
  const name = sources.data ? nameOf(chosen) : 'this source';
  const subscribe = useMutation(alertSubscribeMutation());
  const headingId = useId();
  const sourceSelectId = useId();
  const emailId = useId();
  const statusId = useId();
  const Heading = `h${headingLevel}` as const;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    subscribe.mutate({ email: email.trim(), sourceId: chosen, kind });
  };

  return (
    <section className={layout.section} aria-labelledby={headingId} data-section="alerts">
      <Heading id={headingId}>Get an e-mail when it changes</Heading>
      <p className={styles.note}>
        One e-mail when it happens to {name}, with the figures. You confirm by e-mail first; every
        alert has a one-click unsubscribe link.
      </p>
      <form className={styles.alertForm} onSubmit={submit} data-testid="alert-form" noValidate>
        {choices && choices.length > 1 ? (
          <>
            <label htmlFor={sourceSelectId} className={styles.label}>
              Source
            </label>
            <select
              id={sourceSelectId}
              className={styles.input}
              value={chosen}
              onChange={(event) => {
                setChosen(Number(event.target.value));
                subscribe.reset();
              }}
            >
              {choices.map((id) => (
                <option key={id} value={id}>
                  {nameOf(id)}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <fieldset className={styles.alertKinds}>
          <legend className={styles.label}>Tell me when</legend>
          {ALERT_KINDS.map((k) => (
            <label key={k} className={styles.alertKind}>
              <input
                type="radio"
                name="alert-kind"
                value={k}
                checked={kind === k}
                onChange={() => setKind(k)}
              />
              {ALERT_KIND_LABELS[k]}
            </label>
          ))}
        </fieldset>
        <label htmlFor={emailId} className={styles.label}>
          Email address
        </label>
        <div className={styles.alertRow}>
          <input
            id={emailId}
            className={styles.input}
            type="email"
            name="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-describedby={subscribe.isIdle ? undefined : statusId}
            aria-invalid={subscribe.isError || undefined}
            data-testid="alert-email"
          />
          <button type="submit" className="btn btn-primary" disabled={subscribe.isPending}>
            {subscribe.isPending ? 'Sending…' : 'Send me alerts'}
          </button>
        </div>
        {subscribe.isSuccess ? (
          <p id={statusId} className={styles.success} role="status" data-testid="alert-status">
            {subscribe.data.message || FALLBACK_SUCCESS}
          </p>
        ) : null}
        {subscribe.isError ? (
          <p id={statusId} className={styles.error} role="alert" data-testid="alert-status">
            {errorText(subscribe.error)}
          </p>
        ) : null}
      </form>
    </section>
  );
}
