/**
 * The caps on confirmation e-mails (alerts and the mailing list) and on premium sign-in links,
 * decided inside the store so they hold across processes and restarts, whoever asks:
 *
 * - alerts and the mailing list: at most one per address and scope per window, and at most
 *   MAX_CONFIRMATIONS_PER_ADDRESS per address per window;
 * - sign-in links (their own scope, PREMIUM_SIGN_IN_SCOPE, counted apart from the others so that
 *   neither can use up the other's): at most one per address per SIGN_IN_MAIL_INTERVAL_MS, and at
 *   most MAX_SIGN_IN_MAILS_PER_ADDRESS per address per window.
 */
import type { AlertKind } from '@yield/contract';

export const CONFIRMATION_WINDOW_MS = 24 * 3_600_000;
export const MAX_CONFIRMATIONS_PER_ADDRESS = 5;
/** Unconfirmed subscriptions and sign-ups are purged this long after their last confirmation e-mail. */
export const UNCONFIRMED_TTL_MS = 7 * 24 * 3_600_000;

/** A confirmation e-mail counted by the caps. */
export interface ConfirmationMail {
  email: string; // lower-cased
  scope: string; // `alert:<sourceId>:<kind>`, `mailing-list` or `premium-sign-in`
  sentAt: string; // ISO
}

export const alertScope = (s: { sourceId: number; kind: AlertKind }) =>
  `alert:${s.sourceId}:${s.kind}`;
export const MAILING_LIST_SCOPE = 'mailing-list';
/** The e-mails carrying a premium sign-in link. */
export const PREMIUM_SIGN_IN_SCOPE = 'premium-sign-in';
export const SIGN_IN_MAIL_INTERVAL_MS = 10 * 60_000;
export const MAX_SIGN_IN_MAILS_PER_ADDRESS = 5;

/** Whether the caps allow one more e-mail to `email` (its `recent` ones) for `scope` at `now`. */
export function confirmationAllowed(
  recent: readonly ConfirmationMail[],
  scope: string,
  now: Date,
): boolean {
  const t = now.getTime();
  const since = t - CONFIRMATION_WINDOW_MS;
  const inWindow = recent.filter((m) => Date.parse(m.sentAt) > since);
  if (scope === PREMIUM_SIGN_IN_SCOPE) {
    const links = inWindow.filter((m) => m.scope === PREMIUM_SIGN_IN_SCOPE);
    return (
      links.length < MAX_SIGN_IN_MAILS_PER_ADDRESS &&
      !links.some((m) => Date.parse(m.sentAt) > t - SIGN_IN_MAIL_INTERVAL_MS)
    );
  }
  const confirmations = inWindow.filter((m) => m.scope !== PREMIUM_SIGN_IN_SCOPE);
  return (
    confirmations.length < MAX_CONFIRMATIONS_PER_ADDRESS &&
    !confirmations.some((m) => m.scope === scope)
  );
}

/** The answer of a request for a confirmation e-mail: `mail` true when one may be sent now. */
export interface ConfirmationDecision<T> {
  record: T;
  mail: boolean;
}
