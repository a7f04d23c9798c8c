/**
 * The e-mail outbox of a site whose user data is in PostgreSQL (DATABASE_URL): the same
 * `MailSender` as this process's queue (outgoing.ts), but every e-mail (confirmations of alerts
 * and of the mailing list, premium sign-in links, alerts) is first written as a row of
 * `mail_outbox` (migration 007) and any process of the site sends it.
 *
 * - Handing over: a confirmation's row is written right after the HTTP answer, where the queue
 *   composes its message (the answer neither waits for the database write nor depends on it); a
 *   write that fails (database down) is tried again on the same backoff, in this process. An
 *   alert's row is written by the evaluation for the delivery it recorded in the ledger (one row
 *   per delivery; a row given up is due again when the next evaluation finds its delivery still
 *   unsent). Either way this process's drain is woken at once.
 * - Draining, every `drainIntervalMs` (1 s) and after each local hand-over, in every process, one
 *   row at a time: a transaction claims the oldest due row (`FOR UPDATE SKIP LOCKED`: two
 *   processes never claim one row), sends it, and marks it sent, or counts the try and schedules
 *   the next one after 30 s, 2 min and 10 min (RETRY_DELAYS_MS), or gives it up after the last
 *   (logged, counted in yield_emails_total as before), then commits. An alert's delivery is
 *   marked sent in the ledger in that same transaction.
 * - The claim is the row lock of that open transaction, and its lease is the server's: the
 *   transaction sets `idle_in_transaction_session_timeout` to `leaseMs` (LEASE_MS, 2 min, longer
 *   than the mailer's timeouts). A process that dies mid-send loses its connection, so PostgreSQL
 *   rolls the claim back at once; one stuck mid-send loses it when the lease expires. Either way
 *   the row is due again and another process sends it: no mail is lost. The one window where a
 *   mail can go twice: the SMTP server accepted it and the process died (or lost the database, or
 *   its lease) before its commit, one round trip to the database after the SMTP answer.
 * - Rows sent or given up are deleted after KEEP_MS (7 days): they hold an address.
 */
import type { Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { PgConnection } from '../../platform/pg/connection.ts';
import { UserDataUnavailableError } from '../../platform/store-health.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { RETRY_DELAYS_MS, type MailSender } from './outgoing.ts';

/** How long a claim may stay idle (a send under way); longer than mailer.ts's timeouts. */
export const LEASE_MS = 120_000;
export const DRAIN_INTERVAL_MS = 1_000;
/** How long rows sent or given up are kept. */
export const KEEP_MS = 7 * 24 * 3_600_000;
const PURGE_EVERY_MS = 3_600_000;

export interface PgMailOutboxOptions {
  db: PgConnection;
  mailer: Mailer;
  logger: Logger;
  metrics?: Pick<Metrics, 'email'> | undefined;
  retryDelaysMs?: readonly number[];
  leaseMs?: number;
  drainIntervalMs?: number;
  /** The time of the rows (due, next tries, purge). Default: this machine's clock. */
  now?: () => Date;
}

interface ClaimedRow {
  id: string;
  kind: string;
  message: OutgoingMail;
  alert_subscription_id: string | null;
  alert_crossing: string | null;
  /** Tries before this one. */
  attempts: number;
}

const after = (at: Date, ms: number) => new Date(at.getTime() + ms);

export class PgMailOutbox implements MailSender {
  failed = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private interval: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private lastPurge = 0;
  private readonly retryDelaysMs: readonly number[];
  private readonly leaseMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: PgMailOutboxOptions) {
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** Drains every drainIntervalMs from now on (and once now). */
  start(): this {
    this.interval = setInterval(
      () => this.wake(),
      this.options.drainIntervalMs ?? DRAIN_INTERVAL_MS,
    );
    this.interval.unref();
    this.wake();
    return this;
  }

  enqueue(what: string, compose: () => OutgoingMail, answered: Promise<void>): void {
    this.track(
      answered
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => this.store(what, compose, 0)),
    );
  }

  /**
   * Two statements that never wait for a row being sent (its claim holds a row lock): the insert
   * does nothing when the delivery has a row, and only a row given up (never claimed) is updated.
   */
  async deliverAlert(
    delivery: { subscriptionId: string; crossing: string },
    mail: OutgoingMail,
  ): Promise<boolean> {
    const at = this.now();
    const values = [JSON.stringify(mail), at, delivery.subscriptionId, delivery.crossing];
    const inserted = await this.options.db.query(
      `INSERT INTO mail_outbox
         (kind, message, created_at, next_attempt_at, alert_subscription_id, alert_crossing)
       VALUES ('alert', $1, $2, $2, $3, $4)
       ON CONFLICT (alert_subscription_id, alert_crossing) DO NOTHING`,
      values,
    );
    const revived =
      inserted.rowCount === 1
        ? inserted
        : await this.options.db.query(
            `UPDATE mail_outbox SET message = $1, attempts = 0, failed_at = NULL, next_attempt_at = $2
             WHERE alert_subscription_id = $3 AND alert_crossing = $4 AND failed_at IS NOT NULL`,
            values,
          );
    if (revived.rowCount !== 1) return false;
    this.wake();
    return true;
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async insert(kind: string, mail: OutgoingMail): Promise<void> {
    const at = this.now();
    await this.options.db.query(
      `INSERT INTO mail_outbox (kind, message, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $3)`,
      [kind, JSON.stringify(mail), at],
    );
  }

  /** Writes a confirmation's row; when that fails (database down), tries again on the backoff. */
  private async store(what: string, compose: () => OutgoingMail, n: number): Promise<void> {
    if (this.closed) return;
    try {
      await this.insert(what, compose());
      this.wake();
    } catch (err) {
      const delay = this.retryDelaysMs[n];
      const error = (err as Error).message;
      if (delay === undefined || this.closed) {
        this.failed++;
        this.options.metrics?.email('confirmation', 'failed');
        this.options.logger.error('confirmation e-mail not sent, given up', {
          what,
          tries: n + 1,
          error,
        });
        return;
      }
      this.options.logger.warn('confirmation e-mail not stored, tried again later', {
        what,
        inSeconds: delay / 1000,
        error,
      });
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.track(this.store(what, compose, n + 1));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  /** Starts a drain, or has the one under way look again once it is done. */
  private wake(): void {
    if (this.closed) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.purge();
        while (!this.closed && (await this.drainOne()));
      } while (this.again && !this.closed);
    } catch (err) {
      // The connection logs an outage once; anything else is this drain's to report.
      if (!(err instanceof UserDataUnavailableError))
        this.options.logger.warn('mail outbox drain failed, tried again shortly', {
          error: (err as Error).message,
        });
    }
  }

  /**
   * Claims the oldest due row (its row lock, in a transaction that the server ends after
   * `leaseMs` idle), sends it and marks it sent, or schedules its next try, before the commit.
   * Answers whether there was one.
   */
  private async drainOne(): Promise<boolean> {
    const outcome = await this.options.db.transaction(async (client) => {
      await client.query(
        `SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(this.leaseMs)}`,
      );
      const { rows } = await client.query<ClaimedRow>(
        `SELECT id, kind, message, attempts, alert_subscription_id, alert_crossing FROM mail_outbox
         WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $1
         ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1`,
        [this.now()],
      );
      const row = rows[0];
      if (!row) return null;
      try {
        await this.options.mailer.send(row.message);
      } catch (err) {
        const error = (err as Error).message;
        const delay = this.retryDelaysMs[row.attempts];
        const at = this.now();
        await client.query(
          `UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2,
             next_attempt_at = COALESCE($3, next_attempt_at), failed_at = $4 WHERE id = $1`,
          [
            row.id,
            error,
            delay === undefined ? null : after(at, delay),
            delay === undefined ? at : null,
          ],
        );
        return { row, error, delay };
      }
      const sentAt = this.now();
      await client.query(
        'UPDATE mail_outbox SET attempts = attempts + 1, sent_at = $2, last_error = NULL WHERE id = $1',
        [row.id, sentAt],
      );
      if (row.alert_subscription_id !== null)
        await client.query(
          `UPDATE alert_deliveries SET sent_at = COALESCE(sent_at, $3)
           WHERE subscription_id = $1 AND crossing = $2`,
          [row.alert_subscription_id, row.alert_crossing, sentAt],
        );
      return { row, error: null, delay: undefined };
    });
    if (outcome) this.report(outcome.row, outcome.error, outcome.delay);
    return outcome !== null;
  }

  /** Logs and counts a try, once its outcome is committed. */
  private report(row: ClaimedRow, error: string | null, delay: number | undefined): void {
    const { logger, metrics } = this.options;
    const kind = row.alert_subscription_id === null ? 'confirmation' : 'alert';
    if (error === null) {
      metrics?.email(kind, 'sent');
    } else if (delay === undefined) {
      this.failed++;
      metrics?.email(kind, 'failed');
      logger.error(`${kind} e-mail not sent, given up`, {
        what: row.kind,
        tries: row.attempts + 1,
        error,
      });
    } else {
      metrics?.email(kind, 'retried');
      logger.warn(`${kind} e-mail not sent, tried again later`, {
        what: row.kind,
        inSeconds: delay / 1000,
        error,
      });
    }
  }

  /** Deletes the rows sent or given up more than KEEP_MS ago (at most once an hour). */
  private async purge(): Promise<void> {
    const at = this.now();
    if (at.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = at.getTime();
    const cutoff = after(at, -KEEP_MS);
    const { rowCount } = await this.options.db.query(
      'DELETE FROM mail_outbox WHERE sent_at < $1 OR failed_at < $1',
      [cutoff],
    );
    if (rowCount)
      this.options.logger.info('sent e-mails purged from the outbox', { count: rowCount });
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
    this.wake();
    while (this.draining) await this.draining;
  }

  close(): void {
    this.closed = true;
    if (this.interval) clearInterval(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
