/**
 * The storage interface of the mutable user data: the mailing list, invite codes and their uses,
 * premium users. Routes and operator commands call it; they never read-modify-write a file.
 *
 * The embedded default is `FileUserDataStore` (JSON files an operator can read and edit, plus a
 * journal). The interface is shaped so that a database can implement it with several processes
 * writing at once, so each method takes the whole decision inside the store:
 *
 * - `addSubscriber` decides "already on the list" itself (a database: a unique index on the
 *   lower-cased address, not a read-then-write);
 * - `redeemInvite` / `loginWithInvite` check expiry and use limit and spend the use in one step
 *   (a database: one conditional UPDATE in the transaction that creates the user), so a one-use
 *   code redeemed twice at once succeeds once;
 * - every method resolves only once its change is durable, and returns copies, never live state.
 *
 * Failures to read or write the data (a file broken by hand, a failed write) are DataFileError;
 * the routes answer them with 503. Alert subscriptions and their ledger of deliveries
 * (api/src/alerts) follow the same rules: `addAlertSubscription` decides "already subscribed"
 * (a database: a unique index on lower-cased email, source and kind) and `recordAlertDelivery`
 * decides "already handled" (a unique key on subscription and crossing). Rate-limit counters and
 * the lock of scheduled jobs belong here too when the features need shared storage.
 */
import type { InviteRecord, UserRecord } from './schemas.ts';

export type InviteFailure = 'invalid' | 'expired' | 'exhausted';

export type Redemption = { ok: true; user: UserRecord } | { ok: false; reason: InviteFailure };

export interface NewSubscriber {
  /** Stored as given; "already on the list" compares addresses in any letter case. */
  email: string;
  source: string;
  createdAt: string;
}

export type AlertKind = 'below-base' | 'incident' | 'stale';

export interface AlertSubscription {
  /** Random id (crypto.randomUUID()). */
  id: string;
  /** As typed (trimmed); uniqueness is case-insensitive. */
  email: string;
  sourceId: number;
  kind: AlertKind;
  /** ISO. */
  createdAt: string;
  confirmedAt: string | null;
}

export interface AlertDelivery {
  subscriptionId: string;
  /** Stable key of one crossing, e.g. "below-base:13:2026-11-20". */
  crossing: string;
  /** ISO, written before the e-mail is sent. */
  recordedAt: string;
  /** ISO once sent. */
  sentAt: string | null;
}

export interface UserDataStore {
  /** Adds an address to the mailing list unless it is on it in any letter case. */
  addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }>;

  /** Every invite code record that may be used (not disabled), oldest first; fresh from storage. */
  listInvites(): Promise<InviteRecord[]>;

  /** Stores a new invite code (operator command). A record whose id exists changes nothing. */
  createInvite(invite: InviteRecord): Promise<void>;

  /** Spends one use of an invite and creates `user` for it, or says why the invite is refused. */
  redeemInvite(input: { inviteId: string; user: UserRecord; now: Date }): Promise<Redemption>;

  /**
   * Logs an email in with an invite: the user of this invite with that email, else the user the
   * caller's token names (`tokenUserId`), else the newest user of the invite without an email gets
   * the email; only when none exists is a use spent to create `newUser` (which carries the email).
   */
  loginWithInvite(input: {
    inviteId: string;
    email: string;
    tokenUserId: string | null;
    newUser: UserRecord;
    now: Date;
  }): Promise<Redemption>;

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

  /** Finishes pending work (the file store folds its journal into the JSON files). */
  close(): Promise<void>;
}
