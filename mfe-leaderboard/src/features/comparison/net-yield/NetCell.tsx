import { formatApr } from '@yield/ui';
import type { ComparisonRow } from '../model.ts';
import { breakEvenText, netDetail, unknownReason } from './model.ts';
import styles from './net-yield.module.css';

/**
 * A source's Net APR for the saver's amount, with its break-even day; "Unknown" with the reason
 * (its tooltip, and read out) when a cost cannot be known.
 */
export function NetCell({
  row,
  amount,
  days,
}: {
  row: ComparisonRow;
  amount: number;
  days: number;
}) {
  const net = row.net ?? null;
  if (!net || net.netApr === null) {
    const reason = unknownReason(net);
    return (
      <span className={styles.unknown} title={reason} tabIndex={0} data-testid="net-unknown">
        Unknown<span className="visually-hidden">. {reason}</span>
      </span>
    );
  }
  return (
    <span className={styles.netCell} title={netDetail(net, amount, days)} data-testid="net-cell">
      <span>{formatApr(net.netApr)}</span>
      <span className={styles.netSub}>{breakEvenText(net, days)}</span>
    </span>
  );
}
