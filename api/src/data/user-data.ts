/**
 * The storage interface of the mutable user data: the mailing list, invite codes and their uses,
 * premium users, alert subscriptions and the ledger of sent alerts, the lock of scheduled jobs.
 * Routes and operator commands call it; they never read-modify-write a file.
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
 * a database that cannot be reached is UserDataUnavailableError. The routes answer both with 503.
 * Alert subscriptions with their ledger of sent alerts and the lock of scheduled jobs follow the
 * same rules (the store decides, the caller never reads-then-writes).
 *
 * Two implementations: `FileUserDataStore` (file-user-data.ts, the default) and
 * `PgUserDataStore` (pg/pg-user-data.ts, chosen when DATABASE_URL is set), which any number of
 * processes on any number of machines share.
 */
import type { AlertKind } from '@yield/contract';
import type { InviteRecord, UserRecord } from './schemas.ts';

/**
 * The database holding the user data cannot be reached right now (connection refused or lost,
 * server shutting down). Nothing was written; the caller may retry after `retryAfterSeconds`.
 */
export class UserDataUnavailableError extends Error {
  readonly retryAfterSeconds = 5;
  constructor(message: string) {
    super(message);
    this.name = 'UserDataUnavailableError';
  }
}

export type InviteFailure = 'invalid' | 'expired' | 'exhausted';

export type Redemption = { ok: true; user: UserRecord } | { ok: false; reason: InviteFailure };

export interface NewSubscriber {
  /** Stored as given; "already on the list" compares addresses in any letter case. */
  email: string;
  source: string;
  createdAt: string;
}

export interface InviteLogin {
  inviteId: string;
  email: string;
  tokenUserId: string | null;
  newUser: UserRecord;
  now: Date;
}

/**
 * POST /api/premiumLogin: `tokenUserId` is the user of the caller's verified token (null without
 * one); `newUser` (carrying the email) is created when the email is not yet one of the code's.
 */
export interface InviteEmailActivation {
  inviteId: string;
  email: string;
  tokenUserId: string | null;
  newUser: UserRecord;
  now: Date;
}

/**
 * `email_taken`: the email is already `user`'s (a user of the invite); without that user's token
 * the caller gets no token (the route mails that address a sign-in link instead).
 */
export type Activation =
  | { ok: true; user: UserRecord; created: boolean }
  | { ok: false; reason: InviteFailure }
  | { ok: false; reason: 'email_taken'; user: UserRecord };

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

/**
 * The caps on confirmation e-mails (alerts and the mailing list), decided inside the store so they
 * hold across processes and restarts: at most one per address and scope per window, and at most
 * MAX_CONFIRMATIONS_PER_ADDRESS per address per window, whoever asks.
 */
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

export const alertScope = (s: Pick<AlertSubscription, 'sourceId' | 'kind'>) =>
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

/** A mailing-list sign-up with its double opt-in state. */
export interface MailingListEntry {
  id: string;
  email: string;
  source: string;
  createdAt: string;
  /** null until the address confirms. */
  confirmedAt: string | null;
}

/** The answer of a request for a confirmation e-mail: `mail` true when one may be sent now. */
export interface ConfirmationDecision<T> {
  record: T;
  mail: boolean;
}

/** What GET /api/health reports about the user data. */
export interface UserDataHealth {
  store: 'files' | 'postgres';
  /** Whether writes can be served right now. */
  available: boolean;
  /** Why not (no secrets: the database URL is never shown), else null. */
  error: string | null;
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
  loginWithInvite(input: InviteLogin): Promise<Redemption>;

  /**
   * Binds an email with an invite, in one step: the user named by `tokenUserId`, when it is one
   * of this invite's, gets the email (no use spent). Else, when a user of the invite has the email
   * (any letter case), `email_taken` with that user; else this is a redemption: `newUser` is
   * created with one use spent, or the invite is refused (expired, used up, disabled).
   */
  activateInviteEmail(input: InviteEmailActivation): Promise<Activation>;

  /**
   * The premium user, if it may still use its tokens: it exists and its invite exists and is not
   * disabled; else null. Reads the store as it is now (a user deleted by hand counts as deleted).
   */
  activePremiumUser(userId: string): Promise<UserRecord | null>;

  /** Disables an invite (operator command): no new use, and its users' tokens are refused. False when the id is unknown. */
  disableInvite(id: string): Promise<boolean>;

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
  /** The same for a mailing-list sign-up: an address on the list in any case keeps its entry. */
  requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>>;
  /** Confirms a sign-up (once; a confirmed one stays as it was); null when the id is unknown. */
  confirmMailingListEntry(input: { id: string; now: Date }): Promise<MailingListEntry | null>;
  /** Removes a sign-up from the list; false when the id is unknown. */
  removeMailingListEntry(id: string): Promise<boolean>;
  /**
   * Purges unconfirmed alert subscriptions and sign-ups whose last confirmation e-mail (or
   * creation) is older than UNCONFIRMED_TTL_MS, and confirmation e-mails older than the window.
   */
  purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }>;

  /**
   * Runs `fn` unless another holder of lock `name` runs it right now (in any process sharing the
   * store); resolves true when it ran, false when it was skipped. A failure of `fn` rejects.
   */
  withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean>;

  /** Whether the store can serve writes now (the database answers; the journal is writable). */
  health(): Promise<UserDataHealth>;

  /** Finishes pending work (the file store folds its journal into the JSON files). */
  close(): Promise<void>;
}

/**
 * Runs `job` under `userData`'s lock `name` (withExclusiveLock): its result, or null when another
 * holder runs it right now (in any process sharing the store), so this round is skipped and never
 * waits. Used by the scheduled import (api/src/deps.ts) and the alert evaluation
 * (api/src/alerts/evaluate.ts).
 */
export async function runExclusive<T>(
  userData: UserDataStore,
  name: string,
  job: () => Promise<T>,
): Promise<T | null> {
  let result: T | null = null;
  await userData.withExclusiveLock(name, async () => {
    result = await job();
  });
  return result;
}
