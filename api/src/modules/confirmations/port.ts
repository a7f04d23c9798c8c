/**
 * The caps on confirmation e-mails (alerts and the mailing list), decided inside the store so they
 * hold across processes and restarts: at most one per address and scope per window, and at most
 * MAX_CONFIRMATIONS_PER_ADDRESS per address per window, whoever asks.
 */
import type { AlertKind } from '@yield/contract';

export const CONFIRMATION_WINDOW_MS = 24 * 3_600_000;
export const MAX_CONFIRMATIONS_PER_ADDRESS = 5;
/** Unconfirmed subscriptions and sign-ups are purged this long after their last confirmation e-mail. */
export const UNCONFIRMED_TTL_MS = 7 * 24 * 3_600_000;

/** A confirmation e-mail counted by the caps. */
export interface ConfirmationMail {
  email: string; // lower-cased
  scope: string; // `alert:<sourceId>:<kind>` or `mailing-list`
  sentAt: string; // ISO
}

export const alertScope = (s: { sourceId: number; kind: AlertKind }) =>
  `alert:${s.sourceId}:${s.kind}`;
export const MAILING_LIST_SCOPE = 'mailing-list';

/** Whether the caps allow one more confirmation e-mail to `email` for `scope` at `now`. */
export function confirmationAllowed(
  recent: readonly ConfirmationMail[],
  scope: string,
  now: Date,
): boolean {
  const since = now.getTime() - CONFIRMATION_WINDOW_MS;
  const inWindow = recent.filter((m) => Date.parse(m.sentAt) > since);
  return (
    inWindow.length < MAX_CONFIRMATIONS_PER_ADDRESS && !inWindow.some((m) => m.scope === scope)
  );
}

/** The answer of a request for a confirmation e-mail: `mail` true when one may be sent now. */
export interface ConfirmationDecision<T> {
  record: T;
  mail: boolean;
}
