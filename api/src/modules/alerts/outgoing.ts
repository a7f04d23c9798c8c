/**
 * Confirmation e-mails (alerts and the mailing list) leave after the HTTP answer: a request only
 * records, in the user-data store, that a confirmation may be sent (the caps decide there), and
 * answers; the message is then composed and handed to the mailer in the background, so neither
 * the answer nor its timing depends on the address or on the mail server.
 *
 * A send that fails is logged and tried again after 30 s, 2 min and 10 min; after the last try it
 * is logged as given up (the saver can ask again once the 24-hour cap of that address and scope
 * has passed). Retries live in this process: a restart in between drops them, logged the same way
 * as a failure. The count of confirmations given up since the start is `failed` (for the log).
 *
 * That is the embedded default (the JSON files). With DATABASE_URL the same interface,
 * `MailSender`, is implemented by the PostgreSQL outbox (pg-outbox.ts): every message is written
 * to a table first and any process sends it, so no process keeps a mail only in its memory.
 */
import type { Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000];

/** How e-mails leave, whatever keeps them meanwhile (this process, or the outbox table). */
export interface MailSender {
  /**
   * Composes (`compose`) and sends a message once `answered` resolves (the HTTP answer has been
   * written) and on a later turn of the event loop; never throws. `what` names it in the log.
   */
  enqueue(what: string, compose: () => OutgoingMail, answered: Promise<void>): void;
  /**
   * The outbox only: stores an alert e-mail of the evaluation for the delivery it names, to be
   * sent by a drain, which marks the delivery sent (once per delivery; one given up is stored
   * again). Resolves once stored: true when it was written (or written again), false when it
   * already waits or was sent.
   */
  deliverAlert?(
    delivery: { subscriptionId: string; crossing: string },
    mail: OutgoingMail,
  ): Promise<boolean>;
  /** Resolves once every e-mail handed over so far and due now has been tried. */
  settled(): Promise<void>;
  /** Stops sending (what is stored stays for another process or the next start). */
  close(): void;
  /** E-mails given up after their last try by this process, since the start. */
  failed: number;
}

export class MailQueue implements MailSender {
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Confirmation e-mails given up after their last try, since the start. */
  failed = 0;

  constructor(
    private readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
    /** Counts each try by outcome: sent, retried (tried again later), failed (given up). */
    private readonly metrics?: Pick<Metrics, 'email'>,
  ) {}

  enqueue(what: string, compose: () => OutgoingMail, answered: Promise<void>): void {
    this.track(
      answered
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => this.attempt(what, compose, 0)),
    );
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async attempt(what: string, compose: () => OutgoingMail, n: number): Promise<void> {
    if (this.closed) return;
    try {
      await this.mailer.send(compose());
      this.metrics?.email('confirmation', 'sent');
    } catch (err) {
      const delay = this.retryDelaysMs[n];
      const error = (err as Error).message;
      if (delay === undefined || this.closed) {
        this.failed++;
        this.metrics?.email('confirmation', 'failed');
        this.logger.error('confirmation e-mail not sent, given up', { what, tries: n + 1, error });
        return;
      }
      this.metrics?.email('confirmation', 'retried');
      this.logger.warn('confirmation e-mail not sent, tried again later', {
        what,
        inSeconds: delay / 1000,
        error,
      });
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.track(this.attempt(what, compose, n + 1));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  /** Resolves once every send started so far has finished (retries waiting on a timer excepted). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Stops: pending retries are dropped (logged when they would have run). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    if (this.timers.size > 0)
      this.logger.warn('confirmation e-mails dropped at shutdown', { count: this.timers.size });
    this.timers.clear();
  }
}
