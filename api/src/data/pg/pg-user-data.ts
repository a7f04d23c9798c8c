/**
 * The user data in PostgreSQL (chosen when DATABASE_URL is set): the mailing list, invite codes
 * and their uses, premium users, alert subscriptions and the ledger of sent alerts, rate-limit
 * counters and the lock of scheduled jobs, shared by any number of API processes on any number of
 * machines. Client: node-postgres (`pg`) with its pool, the most used and maintained PostgreSQL
 * client for Node (pure JavaScript, no native build, parameterised queries, a pool that replaces
 * lost connections by itself).
 *
 * Each rule that must hold across processes is one statement or one transaction, never a
 * read-then-write: a unique index on lower(email) keeps one row per address; an invite use is one
 * conditional UPDATE (a one-use code redeemed on two processes at once succeeds once); logins of
 * one invite are serialised by a row lock on it; an alert delivery is an INSERT ... ON CONFLICT DO
 * NOTHING, true for exactly one caller. A method resolves only after its COMMIT.
 *
 * Faults: an error that means "the database cannot be reached" (refused, lost, shutting down,
 * connect timeout) becomes UserDataUnavailableError (the routes answer 503 with Retry-After).
 * Nothing is half-written: a lost connection rolls its transaction back. The pool opens new
 * connections on the next request, so the process recovers by itself when the database returns;
 * migrations not yet applied (the database was down at start) are applied then.
 */
import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import type { Logger } from '../../logger.ts';
import type { RateCount, RateCounter } from '../../http/rate-limit.ts';
import { inviteUsable } from '../../premium/invite-codes.ts';
import {
  alertScope,
  CONFIRMATION_WINDOW_MS,
  confirmationAllowed,
  MAILING_LIST_SCOPE,
  UNCONFIRMED_TTL_MS,
} from '../user-data.ts';
import type {
  AlertsFile,
  InviteRecord,
  InvitesFile,
  MailingListFile,
  UserRecord,
  UsersFile,
} from '../schemas.ts';
import {
  UserDataUnavailableError,
  type AlertDelivery,
  type AlertKind,
  type AlertSubscription,
  type Activation,
  type InviteEmailActivation,
  type ConfirmationDecision,
  type MailingListEntry,
  type InviteLogin,
  type NewSubscriber,
  type Redemption,
  type UserDataHealth,
  type UserDataStore,
} from '../user-data.ts';
import { LOCK_NAMESPACE, migrate } from './migrate.ts';

/** Advisory locks of withExclusiveLock: (this namespace, hashtext(name)). */
const JOB_LOCK_NAMESPACE = LOCK_NAMESPACE + 1;
/** Transaction-level advisory locks of one address while its caps are decided. */
const CONFIRM_LOCK_NAMESPACE = LOCK_NAMESPACE + 2;
/** After a failed attempt to reach the database, requests fail fast for this long. */
const RETRY_AFTER_FAILURE_MS = 1000;

const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether `err` means the database could not be reached (as opposed to a bug or a bad query). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERRNOS.has(code)) return true;
    // SQLSTATE classes 08 (connection exception), 57P (operator intervention: shutdown, cannot
    // connect now), 53 (insufficient resources: too many connections).
    if (/^(08|57P|53)/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|connection is not open|Client was closed/i.test(
    err.message,
  );
}

export interface PgUserDataOptions {
  /** postgres://user:password@host:port/database (DATABASE_URL). */
  connectionString: string;
  logger: Logger;
  /** Connections of this process (PG_POOL_MAX, default 10). */
  poolMax?: number;
  /** Apply pending migrations when the database is first reached (default true). */
  migrate?: boolean;
}

type InviteRow = {
  id: string;
  salt: string;
  hash: string;
  created_at: Date;
  expires_at: Date | null;
  max_uses: number | null;
  uses: number;
  note: string | null;
  disabled: boolean;
};
type UserRow = {
  user_id: string;
  invite_id: string;
  email: string | null;
  created_at: Date;
  last_login_at: Date;
};
type SubscriptionRow = {
  id: string;
  email: string;
  source_id: number;
  kind: AlertKind;
  created_at: Date;
  confirmed_at: Date | null;
};
type DeliveryRow = {
  subscription_id: string;
  crossing: string;
  recorded_at: Date;
  sent_at: Date | null;
};

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function toInvite(r: InviteRow): InviteRecord {
  return {
    id: r.id,
    salt: r.salt,
    hash: r.hash,
    createdAt: r.created_at.toISOString(),
    expiresAt: iso(r.expires_at),
    maxUses: r.max_uses,
    uses: r.uses,
    ...(r.note !== null ? { note: r.note } : {}),
    ...(r.disabled ? { disabled: true } : {}),
  };
}

function toUser(r: UserRow): UserRecord {
  return {
    userId: r.user_id,
    inviteId: r.invite_id,
    email: r.email,
    createdAt: r.created_at.toISOString(),
    lastLoginAt: r.last_login_at.toISOString(),
  };
}

function toSubscription(r: SubscriptionRow): AlertSubscription {
  return {
    id: r.id,
    email: r.email,
    sourceId: r.source_id,
    kind: r.kind,
    createdAt: r.created_at.toISOString(),
    confirmedAt: iso(r.confirmed_at),
  };
}

function toDelivery(r: DeliveryRow): AlertDelivery {
  return {
    subscriptionId: r.subscription_id,
    crossing: r.crossing,
    recordedAt: r.recorded_at.toISOString(),
    sentAt: iso(r.sent_at),
  };
}

type ListRow = {
  id: string | null;
  email: string;
  source: string;
  created_at: Date;
  confirmed_at: Date | null;
};
const LIST_COLUMNS = 'id, email, source, created_at, confirmed_at';

function toListEntry(r: ListRow): MailingListEntry {
  return {
    id: r.id ?? '',
    email: r.email,
    source: r.source,
    createdAt: r.created_at.toISOString(),
    confirmedAt: iso(r.confirmed_at),
  };
}

const SUBSCRIPTION_COLUMNS = 'id, email, source_id, kind, created_at, confirmed_at';
const INVITE_COLUMNS = 'id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled';
const USER_COLUMNS = 'user_id, invite_id, email, created_at, last_login_at';
const DELIVERY_COLUMNS = 'subscription_id, crossing, recorded_at, sent_at';

/** The user data in the shape of the file store's JSON files (db:import-files, db:export-files). */
export interface UserDataFiles {
  mailingList: MailingListFile;
  invites: InvitesFile;
  users: UsersFile;
  alerts: AlertsFile;
}

export class PgUserDataStore implements UserDataStore, RateCounter {
  readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly runMigrations: boolean;
  private ready = false;
  private readying: Promise<void> | null = null;
  private lastFailureAt = 0;
  private lastError: string | null = null;
  private hits = 0;
  private closed = false;

  constructor(options: PgUserDataOptions) {
    this.logger = options.logger;
    this.runMigrations = options.migrate ?? true;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolMax ?? 10,
      // A database that does not answer is reported within seconds, not after the OS's timeout.
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      query_timeout: 15_000,
      application_name: 'yield-api',
    });
    // An idle connection lost (the database restarted) must not take the process down; the pool
    // drops it and opens a new one on demand.
    this.pool.on('error', (err) => this.noteFailure(err));
  }

  /**
   * Opens the store and applies pending migrations. A database that cannot be reached does not
   * stop the start (the site's reads do not need it): writes answer 503 until it is back.
   */
  static async open(options: PgUserDataOptions): Promise<PgUserDataStore> {
    const store = new PgUserDataStore(options);
    try {
      await store.ensureReady();
    } catch (err) {
      if (!(err instanceof UserDataUnavailableError)) {
        await store.pool.end();
        throw err;
      }
      store.logger.warn('database unreachable at start: the site serves reads meanwhile', {
        error: store.lastError,
      });
    }
    return store;
  }

  // ------------------------------------------------------------------ faults

  private noteFailure(err: Error): void {
    this.lastFailureAt = Date.now();
    const code = (err as { code?: unknown }).code;
    const wasDown = this.lastError !== null;
    this.lastError = `database unreachable (${typeof code === 'string' ? code : err.message})`;
    if (!wasDown)
      this.logger.error('database unreachable: writes answer 503 until it is back', {
        error: this.lastError,
      });
  }

  private noteSuccess(): void {
    if (this.lastError === null) return;
    this.lastError = null;
    this.logger.info('database reachable again');
  }

  /** Applies migrations once the database answers; fails fast right after a failed attempt. */
  private async ensureReady(): Promise<void> {
    if (this.ready) return;
    if (this.closed) throw new UserDataUnavailableError('the user-data store is closed');
    if (!this.readying) {
      if (Date.now() - this.lastFailureAt < RETRY_AFTER_FAILURE_MS)
        throw new UserDataUnavailableError(this.lastError ?? 'database unreachable');
      this.readying = (async () => {
        try {
          if (this.runMigrations) await migrate(this.pool, this.logger);
          else await this.pool.query('SELECT 1');
          this.ready = true;
          this.noteSuccess();
        } finally {
          this.readying = null;
        }
      })();
    }
    try {
      await this.readying;
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** A connection failure becomes UserDataUnavailableError; anything else is passed on. */
  private translate(err: unknown): unknown {
    if (err instanceof UserDataUnavailableError) return err;
    if (!isConnectionError(err)) return err;
    this.noteFailure(err as Error);
    return new UserDataUnavailableError(this.lastError!);
  }

  private async query<R extends QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    await this.ensureReady();
    try {
      const result = await this.pool.query<R>(text, values);
      this.noteSuccess();
      return result;
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** A connection of the pool for several statements (release it). */
  private async connection(): Promise<PoolClient> {
    await this.ensureReady();
    try {
      return await this.pool.connect();
    } catch (err) {
      throw this.translate(err);
    }
  }

  /**
   * A connection of the pool for `fn`, released after it (discarded when it failed). The pool
   * listens for errors of idle connections only, and a promise resolves a turn after its answer
   * arrived: a server shutting down while a connection is checked out would be an unhandled
   * 'error' event of that connection, which ends the process. So the connection has its own
   * listener from checkout to release.
   */
  private async withConnection<T>(
    fn: (client: PoolClient, discard: () => void) => Promise<T>,
  ): Promise<T> {
    const client = await this.connection();
    let broken = false;
    const discard = () => {
      broken = true;
    };
    const onError = (err: Error) => {
      broken = true;
      this.noteFailure(err);
    };
    client.on('error', onError);
    try {
      return await fn(client, discard);
    } finally {
      // release() puts the pool's own listener back (or discards the connection) first.
      client.release(broken);
      client.off('error', onError);
    }
  }

  /** Runs `fn` in one transaction on one connection: committed entirely or not at all. */
  private transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.withConnection(async (client, discard) => {
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        this.noteSuccess();
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(discard);
        if (isConnectionError(err)) discard();
        throw this.translate(err);
      }
    });
  }

  async health(): Promise<UserDataHealth> {
    try {
      await this.query('SELECT 1');
      return { store: 'postgres', available: true, error: null };
    } catch (err) {
      const message =
        err instanceof UserDataUnavailableError ? err.message : 'database query failed';
      return { store: 'postgres', available: false, error: message };
    }
  }

  // ------------------------------------------------------------------ mailing list

  async addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }> {
    const r = await this.query(
      `INSERT INTO mailing_list (email, source, created_at, confirmed_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT ((lower(email))) DO NOTHING`,
      [entry.email, entry.source, entry.createdAt],
    );
    return { created: r.rowCount === 1 };
  }

  // ------------------------------------------------------------------ invites and users

  async listInvites(): Promise<InviteRecord[]> {
    const r = await this.query<InviteRow>(
      `SELECT ${INVITE_COLUMNS} FROM invites WHERE NOT disabled ORDER BY seq`,
    );
    return r.rows.map(toInvite);
  }

  async createInvite(invite: InviteRecord): Promise<void> {
    await this.query(
      `INSERT INTO invites (id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
      [
        invite.id,
        invite.salt,
        invite.hash,
        invite.createdAt,
        invite.expiresAt,
        invite.maxUses,
        invite.uses,
        invite.note ?? null,
        invite.disabled ?? false,
      ],
    );
  }

  async redeemInvite(input: {
    inviteId: string;
    user: UserRecord;
    now: Date;
  }): Promise<Redemption> {
    return this.transaction((c) => this.redeem(c, input.inviteId, input.user, input.now));
  }

  /** Spends one use (one conditional UPDATE) and creates the user, inside the caller's transaction. */
  private async redeem(
    c: PoolClient,
    inviteId: string,
    user: UserRecord,
    now: Date,
  ): Promise<Redemption> {
    const spent = await c.query(
      `UPDATE invites SET uses = uses + 1
       WHERE id = $1 AND NOT disabled AND (expires_at IS NULL OR expires_at > $2)
         AND (max_uses IS NULL OR uses < max_uses)`,
      [inviteId, now],
    );
    if (spent.rowCount !== 1) {
      const r = await c.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites WHERE id = $1`, [
        inviteId,
      ]);
      const row = r.rows[0];
      if (!row || row.disabled) return { ok: false, reason: 'invalid' };
      const check = inviteUsable(toInvite(row), now);
      return { ok: false, reason: check.ok ? 'exhausted' : check.reason };
    }
    await c.query(
      `INSERT INTO premium_users (user_id, invite_id, email, created_at, last_login_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [user.userId, inviteId, user.email, user.createdAt, user.lastLoginAt],
    );
    return { ok: true, user: { ...user, inviteId } };
  }

  async loginWithInvite(input: InviteLogin): Promise<Redemption> {
    return this.transaction(async (c) => {
      // Logins of one invite take turns (two at once with one address must find one user).
      await c.query('SELECT 1 FROM invites WHERE id = $1 FOR UPDATE', [input.inviteId]);
      const r = await c.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM premium_users
         WHERE invite_id = $1 AND (email = $2 OR user_id = $3 OR email IS NULL) ORDER BY seq`,
        [input.inviteId, input.email, input.tokenUserId],
      );
      const mine = r.rows;
      const found =
        mine.find((u) => u.email === input.email) ??
        mine.find((u) => input.tokenUserId !== null && u.user_id === input.tokenUserId) ??
        mine.findLast((u) => u.email === null);
      if (!found) return this.redeem(c, input.inviteId, input.newUser, input.now);
      const updated = await c.query<UserRow>(
        `UPDATE premium_users SET email = $2, last_login_at = $3 WHERE user_id = $1
         RETURNING ${USER_COLUMNS}`,
        [found.user_id, input.email, input.now],
      );
      return { ok: true, user: toUser(updated.rows[0]!) };
    });
  }

  async activateInviteEmail(input: InviteEmailActivation): Promise<Activation> {
    return this.transaction(async (c) => {
      // Activations of one invite take turns (two at once with one address must make one user).
      const locked = await c.query<InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM invites WHERE id = $1 FOR UPDATE`,
        [input.inviteId],
      );
      if (input.tokenUserId !== null) {
        const updated = await c.query<UserRow>(
          `UPDATE premium_users SET email = $3, last_login_at = $4
           WHERE user_id = $1 AND invite_id = $2 RETURNING ${USER_COLUMNS}`,
          [input.tokenUserId, input.inviteId, input.email, input.now],
        );
        if (updated.rows[0]) return { ok: true, user: toUser(updated.rows[0]), created: false };
      }
      const taken = await c.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM premium_users
         WHERE invite_id = $1 AND lower(email) = lower($2) ORDER BY seq LIMIT 1`,
        [input.inviteId, input.email],
      );
      if (taken.rows[0]) return { ok: false, reason: 'email_taken', user: toUser(taken.rows[0]) };
      const row = locked.rows[0];
      if (!row || row.disabled) return { ok: false, reason: 'invalid' };
      const check = inviteUsable(toInvite(row), input.now);
      if (!check.ok) return { ok: false, reason: check.reason };
      const redeemed = await this.redeem(c, input.inviteId, input.newUser, input.now);
      return redeemed.ok ? { ...redeemed, created: true } : redeemed;
    });
  }

  async activePremiumUser(userId: string): Promise<UserRecord | null> {
    const r = await this.query<UserRow>(
      `SELECT u.user_id, u.invite_id, u.email, u.created_at, u.last_login_at
       FROM premium_users u JOIN invites i ON i.id = u.invite_id
       WHERE u.user_id = $1 AND NOT i.disabled`,
      [userId],
    );
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async disableInvite(id: string): Promise<boolean> {
    const r = await this.query('UPDATE invites SET disabled = true WHERE id = $1', [id]);
    return (r.rowCount ?? 0) > 0;
  }

  // ------------------------------------------------------------------ alerts

  async addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    // A subscription removed between the two statements is simply tried again.
    for (;;) {
      const inserted = await this.query<SubscriptionRow>(
        `INSERT INTO alert_subscriptions (id, email, source_id, kind, created_at, confirmed_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ((lower(email)), source_id, kind) DO NOTHING RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [sub.id, sub.email, sub.sourceId, sub.kind, sub.createdAt, sub.confirmedAt],
      );
      if (inserted.rows[0])
        return { created: true, subscription: toSubscription(inserted.rows[0]) };
      const existing = await this.query<SubscriptionRow>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM alert_subscriptions
         WHERE lower(email) = lower($1) AND source_id = $2 AND kind = $3`,
        [sub.email, sub.sourceId, sub.kind],
      );
      if (existing.rows[0])
        return { created: false, subscription: toSubscription(existing.rows[0]) };
    }
  }

  async confirmAlertSubscription(input: {
    id: string;
    now: Date;
  }): Promise<AlertSubscription | null> {
    const r = await this.query<SubscriptionRow>(
      `UPDATE alert_subscriptions SET confirmed_at = COALESCE(confirmed_at, $2) WHERE id = $1
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [input.id, input.now],
    );
    return r.rows[0] ? toSubscription(r.rows[0]) : null;
  }

  async removeAlertSubscription(id: string): Promise<boolean> {
    const r = await this.query('DELETE FROM alert_subscriptions WHERE id = $1', [id]);
    return r.rowCount === 1;
  }

  async listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]> {
    const r = await this.query<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM alert_subscriptions
       WHERE confirmed_at IS NOT NULL ORDER BY created_at, seq`,
    );
    return r.rows.map(toSubscription);
  }

  async recordAlertDelivery(entry: AlertDelivery): Promise<boolean> {
    const r = await this.query(
      `INSERT INTO alert_deliveries (subscription_id, crossing, recorded_at, sent_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT (subscription_id, crossing) DO NOTHING`,
      [entry.subscriptionId, entry.crossing, entry.recordedAt, entry.sentAt],
    );
    return r.rowCount === 1;
  }

  async markAlertDelivered(input: {
    subscriptionId: string;
    crossing: string;
    sentAt: Date;
  }): Promise<void> {
    await this.query(
      `UPDATE alert_deliveries SET sent_at = COALESCE(sent_at, $3)
       WHERE subscription_id = $1 AND crossing = $2`,
      [input.subscriptionId, input.crossing, input.sentAt],
    );
  }

  async listUndeliveredAlerts(): Promise<AlertDelivery[]> {
    const r = await this.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries
       WHERE sent_at IS NULL ORDER BY recorded_at, subscription_id, crossing`,
    );
    return r.rows.map(toDelivery);
  }

  // ------------------------------------------------------------------ confirmation e-mails

  /**
   * Counts a confirmation e-mail to `email` (lower-cased) for `scope` if it is `wanted` and the
   * caps allow it, and stamps the row `id` of `table` with it, inside a transaction holding the
   * address's advisory lock. The same two statements run whatever the outcome, so every request
   * costs alike.
   */
  private async claimConfirmation(
    c: PoolClient,
    input: {
      email: string;
      scope: string;
      wanted: boolean;
      now: Date;
      table: 'alert_subscriptions' | 'mailing_list';
      id: string | null;
    },
  ): Promise<boolean> {
    const { email, scope, now } = input;
    const recent = await c.query<{ scope: string; sent_at: Date }>(
      'SELECT scope, sent_at FROM confirmation_mails WHERE email = $1 AND sent_at > $2',
      [email, new Date(now.getTime() - CONFIRMATION_WINDOW_MS)],
    );
    const mails = recent.rows.map((r) => ({ email, scope: r.scope, sentAt: iso(r.sent_at)! }));
    const mail = input.wanted && confirmationAllowed(mails, scope, now);
    await c.query(
      `WITH counted AS (
         INSERT INTO confirmation_mails (email, scope, sent_at)
         SELECT $1, $2, $3::timestamptz WHERE $4::boolean RETURNING 1)
       UPDATE ${input.table} SET mailed_at = $3 WHERE id = $5 AND EXISTS (SELECT 1 FROM counted)`,
      [email, scope, now, mail, input.id],
    );
    return mail;
  }

  async requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>> {
    const email = sub.email.trim();
    return this.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
        CONFIRM_LOCK_NAMESPACE,
        email.toLowerCase(),
      ]);
      // DO UPDATE (to itself) rather than DO NOTHING: one row written and returned in every case.
      const r = await c.query<SubscriptionRow>(
        `INSERT INTO alert_subscriptions (id, email, source_id, kind, created_at, confirmed_at)
         VALUES ($1, $2, $3, $4, $5, NULL)
         ON CONFLICT ((lower(email)), source_id, kind) DO UPDATE SET email = alert_subscriptions.email
         RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [sub.id, email, sub.sourceId, sub.kind, sub.createdAt],
      );
      const row = r.rows[0]!;
      const mail = await this.claimConfirmation(c, {
        email: email.toLowerCase(),
        scope: alertScope(sub),
        wanted: row.confirmed_at === null,
        now,
        table: 'alert_subscriptions',
        id: row.id,
      });
      return { record: toSubscription(row), mail };
    });
  }

  async requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>> {
    return this.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
        CONFIRM_LOCK_NAMESPACE,
        entry.email.toLowerCase(),
      ]);
      const r = await c.query<ListRow>(
        `INSERT INTO mailing_list (id, email, source, created_at, confirmed_at)
         VALUES ($1, $2, $3, $4, NULL)
         ON CONFLICT ((lower(email))) DO UPDATE SET email = mailing_list.email
         RETURNING ${LIST_COLUMNS}`,
        [entry.id, entry.email, entry.source, entry.createdAt],
      );
      const row = r.rows[0]!;
      const mail = await this.claimConfirmation(c, {
        email: entry.email.toLowerCase(),
        scope: MAILING_LIST_SCOPE,
        wanted: row.confirmed_at === null,
        now,
        table: 'mailing_list',
        id: row.id,
      });
      return { record: toListEntry(row), mail };
    });
  }

  async confirmMailingListEntry(input: {
    id: string;
    now: Date;
  }): Promise<MailingListEntry | null> {
    const r = await this.query<ListRow>(
      `UPDATE mailing_list SET confirmed_at = COALESCE(confirmed_at, $2) WHERE id = $1
       RETURNING ${LIST_COLUMNS}`,
      [input.id, input.now],
    );
    return r.rows[0] ? toListEntry(r.rows[0]) : null;
  }

  async removeMailingListEntry(id: string): Promise<boolean> {
    const r = await this.query('DELETE FROM mailing_list WHERE id = $1', [id]);
    return r.rowCount === 1;
  }

  async purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }> {
    const before = new Date(now.getTime() - UNCONFIRMED_TTL_MS);
    return this.transaction(async (c) => {
      const subs = await c.query(
        `DELETE FROM alert_subscriptions
         WHERE confirmed_at IS NULL AND COALESCE(mailed_at, created_at) <= $1`,
        [before],
      );
      const list = await c.query(
        `DELETE FROM mailing_list WHERE confirmed_at IS NULL AND COALESCE(mailed_at, created_at) <= $1`,
        [before],
      );
      await c.query('DELETE FROM confirmation_mails WHERE sent_at <= $1', [
        new Date(now.getTime() - CONFIRMATION_WINDOW_MS),
      ]);
      return { alertSubscriptions: subs.rowCount ?? 0, mailingList: list.rowCount ?? 0 };
    });
  }

  // ------------------------------------------------------------------ rate limits and locks

  /** One upsert per hit: a window past its end starts again at 1. */
  async hit(key: string, windowMs: number): Promise<RateCount> {
    const r = await this.query<{ count: number; ms_left: number }>(
      `INSERT INTO rate_limits AS r (key, count, reset_at)
       VALUES ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.reset_at <= clock_timestamp() THEN 1 ELSE r.count + 1 END,
         reset_at = CASE WHEN r.reset_at <= clock_timestamp() THEN EXCLUDED.reset_at ELSE r.reset_at END
       RETURNING count, (extract(epoch FROM r.reset_at - clock_timestamp()) * 1000)::float8 AS ms_left`,
      [key, windowMs],
    );
    // Counters of windows long over are removed now and then (by whichever process).
    if (++this.hits % 1000 === 0) {
      this.pool
        .query(`DELETE FROM rate_limits WHERE reset_at < clock_timestamp() - interval '1 minute'`)
        .catch(() => undefined);
    }
    const row = r.rows[0]!;
    return { count: row.count, msLeft: row.ms_left };
  }

  /**
   * A session-level advisory lock on a connection of its own, held while `fn` runs. If that
   * connection is lost meanwhile the database releases the lock, so a crashed holder never
   * blocks the job for good.
   */
  async withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean> {
    return this.withConnection(async (client, discard) => {
      let locked: boolean;
      try {
        const r = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
          [JOB_LOCK_NAMESPACE, name],
        );
        locked = r.rows[0]!.locked;
      } catch (err) {
        discard();
        throw this.translate(err);
      }
      if (!locked) return false;
      try {
        await fn();
      } finally {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, name])
          .catch(discard);
      }
      return true;
    });
  }

  // ------------------------------------------------------------------ moving between stores

  /**
   * Copies the content of the JSON files in (db:import-files), in one transaction: rows already
   * there are kept as they are, an invite's use count is raised to the file's, a delivery of the
   * ledger sent in the file is marked sent, so a rerun adds nothing. An alert subscription whose
   * id or (address in any case, source, kind) is in the database already is kept as it is there.
   * Returns how many rows were added per table.
   */
  async importFiles(files: UserDataFiles): Promise<{
    subscribers: number;
    invites: number;
    users: number;
    alertSubscriptions: number;
    alertDeliveries: number;
  }> {
    return this.transaction(async (c) => {
      const entries = files.mailingList.entries;
      let subscribers = 0;
      for (let i = 0; i < entries.length; i += 5000) {
        const slice = entries.slice(i, i + 5000);
        // An entry without confirmedAt (written before confirmations existed) counts as confirmed.
        const r = await c.query(
          `INSERT INTO mailing_list (email, source, created_at, id, confirmed_at, mailed_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[],
                                $5::timestamptz[], $6::timestamptz[])
           ON CONFLICT DO NOTHING`,
          [
            slice.map((e) => e.email),
            slice.map((e) => e.source),
            slice.map((e) => e.createdAt),
            slice.map((e) => e.id ?? null),
            slice.map((e) => (e.confirmedAt === undefined ? e.createdAt : e.confirmedAt)),
            slice.map((e) => e.mailedAt ?? null),
          ],
        );
        subscribers += r.rowCount ?? 0;
      }
      let invites = 0;
      for (const inv of files.invites.invites) {
        const r = await c.query(
          `INSERT INTO invites (id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (id) DO UPDATE SET uses = GREATEST(invites.uses, EXCLUDED.uses)
           RETURNING (xmax = 0) AS inserted`,
          [
            inv.id,
            inv.salt,
            inv.hash,
            inv.createdAt,
            inv.expiresAt,
            inv.maxUses,
            inv.uses,
            inv.note ?? null,
            inv.disabled ?? false,
          ],
        );
        if ((r.rows[0] as { inserted: boolean }).inserted) invites++;
      }
      let users = 0;
      for (const u of files.users.users) {
        const r = await c.query(
          `INSERT INTO premium_users (user_id, invite_id, email, created_at, last_login_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING`,
          [u.userId, u.inviteId, u.email, u.createdAt, u.lastLoginAt],
        );
        users += r.rowCount ?? 0;
      }
      let alertSubscriptions = 0;
      for (const a of files.alerts.subscriptions) {
        const r = await c.query(
          `INSERT INTO alert_subscriptions
             (id, email, source_id, kind, created_at, confirmed_at, mailed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [a.id, a.email, a.sourceId, a.kind, a.createdAt, a.confirmedAt, a.mailedAt ?? null],
        );
        alertSubscriptions += r.rowCount ?? 0;
      }
      let alertDeliveries = 0;
      for (const d of files.alerts.deliveries) {
        const r = await c.query(
          `INSERT INTO alert_deliveries (subscription_id, crossing, recorded_at, sent_at)
           VALUES ($1, $2, $3, $4) ON CONFLICT (subscription_id, crossing)
           DO UPDATE SET sent_at = COALESCE(alert_deliveries.sent_at, EXCLUDED.sent_at)
           RETURNING (xmax = 0) AS inserted`,
          [d.subscriptionId, d.crossing, d.recordedAt, d.sentAt],
        );
        if ((r.rows[0] as { inserted: boolean }).inserted) alertDeliveries++;
      }
      // The caps' record: each e-mail once, however often the import runs.
      for (const m of files.alerts.confirmations ?? [])
        await c.query(
          `INSERT INTO confirmation_mails (email, scope, sent_at)
           SELECT $1, $2, $3::timestamptz WHERE NOT EXISTS (
             SELECT 1 FROM confirmation_mails WHERE email = $1 AND scope = $2 AND sent_at = $3)`,
          [m.email, m.scope, m.sentAt],
        );
      return { subscribers, invites, users, alertSubscriptions, alertDeliveries };
    });
  }

  /** Everything in the shape of the JSON files (db:export-files), in the order it was written. */
  async exportFiles(): Promise<UserDataFiles> {
    return this.transaction(async (c) => {
      const subscribers = await c.query<ListRow & { mailed_at: Date | null }>(
        `SELECT ${LIST_COLUMNS}, mailed_at FROM mailing_list ORDER BY seq`,
      );
      const confirmations = await c.query<{ email: string; scope: string; sent_at: Date }>(
        'SELECT email, scope, sent_at FROM confirmation_mails ORDER BY sent_at',
      );
      const invites = await c.query<InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM invites ORDER BY seq`,
      );
      const users = await c.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM premium_users ORDER BY seq`,
      );
      const subscriptions = await c.query<SubscriptionRow & { mailed_at: Date | null }>(
        `SELECT ${SUBSCRIPTION_COLUMNS}, mailed_at FROM alert_subscriptions ORDER BY seq`,
      );
      const deliveries = await c.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries
         ORDER BY recorded_at, subscription_id, crossing`,
      );
      return {
        mailingList: {
          entries: subscribers.rows.map((r) => ({
            email: r.email,
            createdAt: r.created_at.toISOString(),
            source: r.source,
            // A row without id was added confirmed (before confirmations existed, or by an
            // operator's import): without the field, as in the file it came from.
            ...(r.id !== null ? { id: r.id, confirmedAt: iso(r.confirmed_at) } : {}),
            ...(r.mailed_at !== null ? { mailedAt: r.mailed_at.toISOString() } : {}),
          })),
        },
        invites: { invites: invites.rows.map(toInvite) },
        users: { users: users.rows.map(toUser) },
        alerts: {
          subscriptions: subscriptions.rows.map((r) => ({
            ...toSubscription(r),
            ...(r.mailed_at !== null ? { mailedAt: r.mailed_at.toISOString() } : {}),
          })),
          deliveries: deliveries.rows.map(toDelivery),
          ...(confirmations.rows.length > 0
            ? {
                confirmations: confirmations.rows.map((r) => ({
                  email: r.email,
                  scope: r.scope,
                  sentAt: r.sent_at.toISOString(),
                })),
              }
            : {}),
        },
      };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.readying?.catch(() => undefined);
    await this.pool.end();
  }
}
