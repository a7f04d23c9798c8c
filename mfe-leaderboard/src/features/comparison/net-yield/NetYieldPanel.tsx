import { useId } from 'react';
import type { NetYieldRankingAnswer } from '@yield/contract';
import { NET_YIELD_MAX_DAYS } from '@yield/contract/constants';
import { HeadingAt } from '../small-bits.tsx';
import styles from './net-yield.module.css';

export interface NetYieldPanelProps {
  /** The texts as typed (and as the URL keeps them). */
  amountText: string;
  daysText: string;
  amountValid: boolean;
  daysValid: boolean;
  onAmount: (text: string) => void;
  onDays: (text: string) => void;
  /** idle: no valid amount yet; loading; ready: `answer` ranks the tables; failed. */
  status: 'idle' | 'loading' | 'ready' | 'failed';
  answer: NetYieldRankingAnswer | null;
  retry: () => void;
}

function StatusLine({
  status,
  answer,
  retry,
}: Pick<NetYieldPanelProps, 'status' | 'answer' | 'retry'>) {
  if (status === 'failed')
    return (
      <p className={styles.failed} role="alert">
        The net ranking could not be loaded just now.{' '}
        <button type="button" className="btn btn-secondary" onClick={retry}>
          Try again
        </button>
      </p>
    );
  const text =
    status === 'ready' && answer
      ? `Ranked by net APR: ${answer.amount.toLocaleString('en-US')} in each source's unit, held ${answer.days} days, after its entry and exit fees and the gas of going in and out. Sources whose costs are unknown come last.`
      : status === 'loading'
        ? 'Ranking by net APR…'
        : 'Type an amount to rank the sources by what it keeps after its costs.';
  return (
    <p className={styles.status} role="status" aria-live="polite" data-testid="net-status">
      {text}
    </p>
  );
}

/**
 * "Net yield for your deposit": the amount (in each source's own unit) and the holding days; the
 * tables then show a Net APR column and rank by it.
 */
export function NetYieldPanel(props: NetYieldPanelProps & { headingLevel: number }) {
  const { amountText, daysText, amountValid, daysValid, onAmount, onDays } = props;
  const amountId = useId();
  const daysId = useId();
  const hintId = useId();
  return (
    <section className={styles.panel} aria-labelledby={`${amountId}-title`} data-testid="net-panel">
      <HeadingAt level={props.headingLevel} id={`${amountId}-title`} className={styles.title}>
        Net yield for your deposit
      </HeadingAt>
      <div className={styles.fields}>
        <div className={styles.field}>
          <label htmlFor={amountId}>Amount deposited</label>
          <input
            id={amountId}
            className={styles.input}
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 500"
            value={amountText}
            aria-invalid={!amountValid}
            aria-describedby={hintId}
            onChange={(event) => onAmount(event.currentTarget.value)}
            data-testid="net-amount"
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={daysId}>Held for (days)</label>
          <input
            id={daysId}
            className={`${styles.input} ${styles.days}`}
            inputMode="numeric"
            autoComplete="off"
            value={daysText}
            aria-invalid={!daysValid}
            aria-describedby={hintId}
            onChange={(event) => onDays(event.currentTarget.value)}
            data-testid="net-days"
          />
        </div>
      </div>
      <p id={hintId} className={styles.hint}>
        In each source&apos;s own unit: dollars for stablecoin sources, ETH for ETH sources.
        {!amountValid ? <strong> The amount must be a number above 0.</strong> : null}
        {!daysValid ? (
          <strong> The days must be a whole number from 1 to {NET_YIELD_MAX_DAYS}.</strong>
        ) : null}
      </p>
      <StatusLine {...props} />
    </section>
  );
}
