/** Alert subscriptions, the ledger of sent alerts, and the confirmation caps they share. */
import type { AlertKind } from '@yield/contract';
import type { ConfirmationDecision } from '../confirmations/index.ts';

export type { AlertKind };
export interface AlertSubscription {
  id: string; // random id (crypto.randomUUID())
  email: string; // as typed (trimmed); uniqueness is case-insensitive
  sourceId: number;
  kind: AlertKind;
  createdAt: string; // ISO
  confirmedAt: string | null;
  /** When its last confirmation e-mail was sent (absent: none yet). */
  mailedAt?: string;
}
export interface AlertDelivery {
  subscriptionId: string;
  crossing: string; // stable key of one crossing, e.g. "below-base:13:2026-11-20"
  recordedAt: string; // ISO, written before the e-mail is sent
  sentAt: string | null; // ISO once sent
}

export interface AlertStore {
  /** One subscription per (lower-cased email, sourceId, kind): an existing one is returned, created false. */
  addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }>;
  /** Sets confirmedAt (once; a confirmed one stays as it was); null when the id is unknown. */
  confirmAlertSubscription(input: { id: string; now: Date }): Promise<AlertSubscription | null>;
  /** Deletes the subscription (its deliveries may stay); false when the id is unknown. */
  removeAlertSubscription(id: string): Promise<boolean>;
  /** Every confirmed subscription, oldest first. */
  listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]>;
  /** Records a delivery before sending; true only the first time for (subscriptionId, crossing). */
  recordAlertDelivery(entry: AlertDelivery): Promise<boolean>;
  /** Marks a recorded delivery sent. */
  markAlertDelivered(input: {
    subscriptionId: string;
    crossing: string;
    sentAt: Date;
  }): Promise<void>;
  /** Recorded but not yet sent (a crash between recording and sending): retried on the next evaluation. */
  listUndeliveredAlerts(): Promise<AlertDelivery[]>;

  /**
   * A request to subscribe (POST /api/alerts), in one step: the subscription is created unless it
   * exists (one per address in any case, source and kind); when it is not confirmed and the caps
   * allow it (confirmationAllowed), a confirmation e-mail is counted and `mail` is true. Every call
   * writes once whatever the outcome, so the time it takes tells nothing about the address.
   */
  requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>>;
  /**
   * Purges unconfirmed alert subscriptions and sign-ups whose last confirmation e-mail (or
   * creation) is older than UNCONFIRMED_TTL_MS, and confirmation e-mails older than the window.
   */
  purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }>;
}
