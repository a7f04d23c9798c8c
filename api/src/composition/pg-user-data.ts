/**
 * The user data in PostgreSQL (chosen when DATABASE_URL is set): the mailing list, invite codes
 * and their uses, premium users, alert subscriptions and the ledger of sent alerts, rate-limit
 * counters and the lock of scheduled jobs, shared by any number of API processes on any number of
 * machines.
 *
 * Built from one module per aggregate, each holding its SQL, over one shared connection
 * (platform/pg/connection.ts: the pool, transactions, connection faults):
 *
 * - modules/mailing-list/pg-store.ts (`mailing_list`), modules/premium/pg-store.ts (`invites`,
 *   `premium_users`, `premium_sign_in_links`), modules/alerts/pg-store.ts
 *   (`alert_subscriptions`, `alert_deliveries`), confirmations.ts (`confirmation_mails`, the caps
 *   that requests for a confirmation e-mail or a sign-in link share), job-locks.ts (advisory locks),
 *   rate-limits.ts (`rate_limits`), transfer.ts (db:import-files, db:export-files).
 *
 * Each rule that must hold across processes is one statement or one transaction, never a
 * read-then-write: a unique index on lower(email) keeps one row per address; an invite use is one
 * conditional UPDATE (a one-use code redeemed on two processes at once succeeds once); logins of
 * one invite are serialised by a row lock on it; an alert delivery is an INSERT ... ON CONFLICT DO
 * NOTHING, true for exactly one caller. A method resolves only after its COMMIT.
 */
import type pg from 'pg';
import type { RateCount, RateCounter } from '../platform/http/rate-limit.ts';
import type { InviteRecord, UserRecord } from '../modules/premium/schemas.ts';
import {
  UserDataUnavailableError,
  type Activation,
  type AlertDelivery,
  type AlertSubscription,
  type ConfirmationDecision,
  type InviteEmailActivation,
  type InviteLogin,
  type MailingListEntry,
  type NewSubscriber,
  type Redemption,
  type SignInLinkUse,
  type UserDataHealth,
  type UserDataStore,
} from './user-data.ts';
import { PgAlerts } from '../modules/alerts/pg-store.ts';
import { PgConnection, type PgUserDataOptions } from '../platform/pg/connection.ts';
import { PgJobLocks } from '../platform/job-locks/pg.ts';
import { PgMailingList } from '../modules/mailing-list/pg-store.ts';
import { PgPremium } from '../modules/premium/pg-store.ts';
import { PgRateCounter } from '../platform/pg/rate-counter.ts';
import { PgTransfer, type UserDataFiles } from './pg-transfer.ts';

export { isConnectionError, type PgUserDataOptions } from '../platform/pg/connection.ts';
export type { UserDataFiles } from './pg-transfer.ts';

export class PgUserDataStore implements UserDataStore, RateCounter {
  readonly pool: pg.Pool;
  /** The shared connection (the published data reads through it too). */
  private readonly db: PgConnection;
  private readonly mailingList: PgMailingList;
  private readonly premium: PgPremium;
  private readonly alerts: PgAlerts;
  private readonly locks: PgJobLocks;
  private readonly rateCounter: PgRateCounter;
  private readonly transfer: PgTransfer;

  constructor(options: PgUserDataOptions) {
    this.db = new PgConnection(options);
    this.pool = this.db.pool;
    this.mailingList = new PgMailingList(this.db);
    this.premium = new PgPremium(this.db);
    this.alerts = new PgAlerts(this.db);
    this.locks = new PgJobLocks(this.db);
    this.rateCounter = new PgRateCounter(this.db);
    this.transfer = new PgTransfer(this.db);
  }

  /**
   * The connection, shared with the tables beside the user data: the published data, the pool
   * histories and the backfill's state, the e-mail outbox (deps.ts).
   */
  get connection(): PgConnection {
    return this.db;
  }

  /**
   * Opens the store and applies pending migrations. A database that cannot be reached does not
   * stop the start (the site's reads do not need it): writes answer 503 until it is back.
   */
  static async open(options: PgUserDataOptions): Promise<PgUserDataStore> {
    const store = new PgUserDataStore(options);
    try {
      await store.db.ensureReady();
    } catch (err) {
      if (!(err instanceof UserDataUnavailableError)) {
        await store.pool.end();
        throw err;
      }
      options.logger.warn('database unreachable at start: the site serves reads meanwhile', {
        error: store.db.lastError,
      });
    }
    return store;
  }

  health(): Promise<UserDataHealth> {
    return this.db.health();
  }

  close(): Promise<void> {
    return this.db.close();
  }

  // ------------------------------------------------------------------ mailing list

  addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }> {
    return this.mailingList.addSubscriber(entry);
  }

  requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>> {
    return this.mailingList.requestMailingListConfirmation(entry, now);
  }

  confirmMailingListEntry(input: { id: string; now: Date }): Promise<MailingListEntry | null> {
    return this.mailingList.confirmMailingListEntry(input);
  }

  removeMailingListEntry(id: string): Promise<boolean> {
    return this.mailingList.removeMailingListEntry(id);
  }

  // ------------------------------------------------------------------ invites and users

  listInvites(): Promise<InviteRecord[]> {
    return this.premium.listInvites();
  }

  createInvite(invite: InviteRecord): Promise<void> {
    return this.premium.createInvite(invite);
  }

  redeemInvite(input: { inviteId: string; user: UserRecord; now: Date }): Promise<Redemption> {
    return this.premium.redeemInvite(input);
  }

  loginWithInvite(input: InviteLogin): Promise<Redemption> {
    return this.premium.loginWithInvite(input);
  }

  activateInviteEmail(input: InviteEmailActivation): Promise<Activation> {
    return this.premium.activateInviteEmail(input);
  }

  requestSignInMail(input: { email: string; now: Date }): Promise<boolean> {
    return this.premium.requestSignInMail(input);
  }

  consumeSignInLink(input: SignInLinkUse): Promise<boolean> {
    return this.premium.consumeSignInLink(input);
  }

  activePremiumUser(userId: string): Promise<UserRecord | null> {
    return this.premium.activePremiumUser(userId);
  }

  disableInvite(id: string): Promise<boolean> {
    return this.premium.disableInvite(id);
  }

  // ------------------------------------------------------------------ alerts

  addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    return this.alerts.addAlertSubscription(sub);
  }

  confirmAlertSubscription(input: { id: string; now: Date }): Promise<AlertSubscription | null> {
    return this.alerts.confirmAlertSubscription(input);
  }

  removeAlertSubscription(id: string): Promise<boolean> {
    return this.alerts.removeAlertSubscription(id);
  }

  listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]> {
    return this.alerts.listConfirmedAlertSubscriptions();
  }

  recordAlertDelivery(entry: AlertDelivery): Promise<boolean> {
    return this.alerts.recordAlertDelivery(entry);
  }

  markAlertDelivered(input: {
    subscriptionId: string;
    crossing: string;
    sentAt: Date;
  }): Promise<void> {
    return this.alerts.markAlertDelivered(input);
  }

  listUndeliveredAlerts(): Promise<AlertDelivery[]> {
    return this.alerts.listUndeliveredAlerts();
  }

  requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>> {
    return this.alerts.requestAlertConfirmation(sub, now);
  }

  purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }> {
    return this.alerts.purgeUnconfirmed(now);
  }

  // ------------------------------------------------------------------ rate limits and locks

  hit(key: string, windowMs: number): Promise<RateCount> {
    return this.rateCounter.hit(key, windowMs);
  }

  withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean> {
    return this.locks.withExclusiveLock(name, fn);
  }

  // ------------------------------------------------------------------ moving between stores

  importFiles(files: UserDataFiles): ReturnType<PgTransfer['importFiles']> {
    return this.transfer.importFiles(files);
  }

  exportFiles(): Promise<UserDataFiles> {
    return this.transfer.exportFiles();
  }
}
