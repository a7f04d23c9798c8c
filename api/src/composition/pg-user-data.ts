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
 *   (`alert_subscriptions`, `alert_deliveries`), modules/confirmations/pg-store.ts
 *   (`confirmation_mails`, the caps that requests for a confirmation e-mail or a sign-in link
 *   share), platform/job-locks/pg.ts (advisory locks), platform/pg/rate-counter.ts
 *   (`rate_limits`), pg-transfer.ts (db:import-files, db:export-files).
 *
 * The store builds these parts; `UserDataFacade` (user-data-facade.ts) forwards every method of
 * the user-data ports to them, and the store adds only what is PostgreSQL's own (the rate-limit
 * counts, moving the data between stores, the connection).
 *
 * Each rule that must hold across processes is one statement or one transaction, never a
 * read-then-write: a unique index on lower(email) keeps one row per address; an invite use is one
 * conditional UPDATE (a one-use code redeemed on two processes at once succeeds once); logins of
 * one invite are serialised by a row lock on it; an alert delivery is an INSERT ... ON CONFLICT DO
 * NOTHING, true for exactly one caller. A method resolves only after its COMMIT.
 */
import type pg from 'pg';
import type { RateCount, RateCounter } from '../platform/http/rate-limit.ts';
import { UserDataUnavailableError } from './user-data.ts';
import { PgAlerts } from '../modules/alerts/pg-store.ts';
import { PgConnection, type PgUserDataOptions } from '../platform/pg/connection.ts';
import { PgJobLocks } from '../platform/job-locks/pg.ts';
import { PgMailingList } from '../modules/mailing-list/pg-store.ts';
import { PgPremium } from '../modules/premium/pg-store.ts';
import { PgRateCounter } from '../platform/pg/rate-counter.ts';
import { PgTransfer, type UserDataFiles } from './pg-transfer.ts';
import { UserDataFacade, type UserDataParts } from './user-data-facade.ts';

export { isConnectionError, type PgUserDataOptions } from '../platform/pg/connection.ts';
export type { UserDataFiles } from './pg-transfer.ts';

/** The aggregates over one connection, which is also their health and close. */
function pgParts(db: PgConnection): UserDataParts {
  const alerts = new PgAlerts(db);
  return {
    mailingList: new PgMailingList(db),
    premium: new PgPremium(db),
    alerts,
    purgeUnconfirmed: (now) => alerts.purgeUnconfirmed(now),
    locks: new PgJobLocks(db),
    lifecycle: db,
  };
}

export class PgUserDataStore extends UserDataFacade implements RateCounter {
  readonly pool: pg.Pool;
  /** The shared connection (the published data reads through it too). */
  private readonly db: PgConnection;
  private readonly rateCounter: PgRateCounter;
  private readonly transfer: PgTransfer;

  constructor(options: PgUserDataOptions) {
    const db = new PgConnection(options);
    super(pgParts(db));
    this.db = db;
    this.pool = db.pool;
    this.rateCounter = new PgRateCounter(db);
    this.transfer = new PgTransfer(db);
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

  // ------------------------------------------------------------------ rate limits

  hit(key: string, windowMs: number): Promise<RateCount> {
    return this.rateCounter.hit(key, windowMs);
  }

  // ------------------------------------------------------------------ moving between stores

  importFiles(files: UserDataFiles): ReturnType<PgTransfer['importFiles']> {
    return this.transfer.importFiles(files);
  }

  exportFiles(): Promise<UserDataFiles> {
    return this.transfer.exportFiles();
  }
}
