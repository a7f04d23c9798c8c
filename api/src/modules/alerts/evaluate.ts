/**
 * Alerts: subscribing (double opt-in), confirming, unsubscribing, and the evaluation that sends
 * one e-mail per crossing per confirmed subscription (api/src/modules/alerts/crossings.ts defines the
 * crossings and their keys).
 *
 * The evaluation, `evaluateAlerts`, is one function so that a lock can be put around it. For each
 * confirmed subscription and each crossing in force, the delivery is recorded in the ledger
 * BEFORE the e-mail is sent (`recordAlertDelivery` answers false when the crossing was handled
 * already) and marked sent after; a delivery recorded but never sent (the send failed, or the
 * process died in between) is sent on the next evaluation, as long as its crossing is still in
 * force. All of this lives in the user-data store, so a restart sends nothing twice.
 *
 * A crossing already in force when a subscription is confirmed is recorded as handled at that
 * moment without an e-mail: a subscriber hears of crossings that happen after they subscribed.
 *
 * Only live data is evaluated (docs/decisions.md 45): sample figures make no crossing
 * (crossings.ts), and with published data (DATABASE_URL) a process skips its evaluations until it
 * has read the fleet's published versions (`AlertContext.ready`), so the files of its own data
 * directory are never evaluated.
 *
 * In this process, evaluations and confirmations run one at a time (a queue), so a confirmation
 * never races an evaluation. Across processes, an evaluation runs under the user-data store's lock
 * `EVALUATION_LOCK` (a PostgreSQL advisory lock, or this process's own mutex with the files): one
 * process at a time evaluates, and a process that finds another one evaluating skips that round
 * (logged) instead of waiting. Without it, a delivery another process has recorded and is sending
 * right now would look undelivered and be sent a second time. A skipped round loses nothing: the
 * ledger is shared, and every process evaluates again after its next import or data change.
 * A confirmation is not under that lock (it cannot skip): should another process's evaluation read
 * the subscriptions in the instant between a confirmation and its recording of the crossings in
 * force, that saver gets one e-mail about a crossing already in force when they confirmed (never
 * a second one).
 *
 * E-mails leave through `outgoing`: this process's queue (outgoing.ts) with the files, the outbox
 * table drained by every process (pg-outbox.ts) with DATABASE_URL. With the outbox, the evaluation
 * does not send: it writes each alert e-mail there for the delivery it recorded, and the process
 * that sends it marks the delivery sent in the same transaction; a delivery still unsent is
 * written again (a no-op unless its e-mail was given up) by the next evaluation.
 */
import { randomUUID } from 'node:crypto';
import { API_PATHS } from '@yield/contract';
import type { SettingsFile, SourcesFile } from '../yields/index.ts';
import type { Snapshot } from '../yields/index.ts';
import { runExclusive, type JobLocks } from '../../platform/job-locks/port.ts';
import type { MailingListStore } from '../mailing-list/index.ts';
import type { AlertKind, AlertStore, AlertSubscription } from './store.ts';

/** The user data the alerts work on: their own, the mailing list's links, and the job locks. */
type AlertsUserData = AlertStore & MailingListStore & JobLocks;
import type { Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';
import { crossingsOf, type Crossing } from './crossings.ts';
import {
  alertLink,
  CONFIRM_TTL_MS,
  signAlertToken,
  verifyAlertToken,
} from '../../platform/email-links/links.ts';
import type { Mailer } from './mailer.ts';
import { alertMail, confirmationMail, mailingListConfirmationMail } from './messages.ts';
import { MailQueue, type MailSender } from './outgoing.ts';

export interface AlertContext {
  userData: AlertsUserData;
  snapshot(): Snapshot;
  sources(): SourcesFile | null;
  settings(): SettingsFile | null;
  mailer: Mailer;
  /** Signs the e-mailed links (api/src/platform/email-links/links.ts). */
  secret: string;
  /** Base of the e-mailed links: PUBLIC_URL, else settings.json's siteUrl. */
  publicUrl: string | undefined;
  /** From address: MAIL_FROM, else "<site title> alerts <contact e-mail of settings.json>". */
  from: string | undefined;
  logger: Logger;
  /** Counts e-mail sends by outcome (yield_emails_total); none in commands and some tests. */
  metrics?: Pick<Metrics, 'email'> | undefined;
  now(): Date;
  /**
   * Where e-mails go: the PostgreSQL outbox with DATABASE_URL (pg-outbox.ts); by default this
   * process's queue (outgoing.ts) over `mailer`, and the evaluation sends alerts itself.
   */
  outgoing?: MailSender;
  /**
   * With published data: whether this process serves the fleet's published versions (read from
   * the database since it started). Until then an evaluation is skipped: the files of its data
   * directory, or its cache, are not the fleet's data. Absent: always (the files are the data).
   */
  ready?: () => boolean;
}

/** The lock an evaluation runs under (AlertsUserData.withExclusiveLock), shared by all processes. */
export const EVALUATION_LOCK = 'alert-evaluation';

export interface EvaluationResult {
  /** E-mails sent in this evaluation (with the outbox: written there, to be sent by a drain). */
  sent: number;
  /** E-mails that could not be sent (recorded; retried next time). */
  failed: number;
}

function siteOf(ctx: AlertContext) {
  const settings = ctx.settings();
  const siteUrl = ctx.publicUrl ?? settings?.siteUrl;
  if (!siteUrl) throw new Error('settings.json has not loaded and PUBLIC_URL is not set');
  const siteTitle = settings?.siteTitle ?? 'Pigi';
  const from =
    ctx.from ?? `${siteTitle} alerts <${settings?.siteContactEmail ?? 'alerts@localhost'}>`;
  return { siteUrl, siteTitle, from };
}

function unsubscribeUrl(ctx: AlertContext, siteUrl: string, id: string): string {
  const token = signAlertToken(ctx.secret, 'unsubscribe', id, null);
  return alertLink(siteUrl, API_PATHS.alertUnsubscribe, token);
}

async function sendAlert(
  ctx: AlertContext,
  sub: AlertSubscription,
  c: Crossing,
): Promise<'sent' | 'queued' | 'waiting'> {
  const site = siteOf(ctx);
  const unsubscribe = unsubscribeUrl(ctx, site.siteUrl, sub.id);
  const mail = alertMail({
    crossing: c,
    siteTitle: site.siteTitle,
    pageUrl: new URL(`strategy/${c.sourceId}`, `${site.siteUrl.replace(/\/$/, '')}/`).toString(),
    unsubscribeUrl: unsubscribe,
  });
  const message = {
    from: site.from,
    to: sub.email,
    ...mail,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
  if (ctx.outgoing?.deliverAlert) {
    const written = await ctx.outgoing.deliverAlert(
      { subscriptionId: sub.id, crossing: c.key },
      message,
    );
    return written ? 'queued' : 'waiting';
  }
  await ctx.mailer.send(message);
  return 'sent';
}

function crossingsFor(ctx: AlertContext, sub: Pick<AlertSubscription, 'sourceId' | 'kind'>) {
  const sources = ctx.sources();
  if (!sources) return [];
  return crossingsOf(ctx.snapshot().series, sources, sub.sourceId, sub.kind);
}

/**
 * One evaluation over every confirmed subscription (see the file comment). Resolves when every
 * e-mail of this round is sent (with the outbox: written there) or has failed (failures are
 * logged and retried next time).
 */
export async function evaluateAlerts(ctx: AlertContext): Promise<EvaluationResult> {
  const result: EvaluationResult = { sent: 0, failed: 0 };
  const subs = await ctx.userData.listConfirmedAlertSubscriptions();
  if (subs.length === 0) return result;
  const undelivered = new Set(
    (await ctx.userData.listUndeliveredAlerts()).map((d) => `${d.subscriptionId}|${d.crossing}`),
  );
  for (const sub of subs) {
    for (const c of crossingsFor(ctx, sub)) {
      const now = ctx.now();
      const first = await ctx.userData.recordAlertDelivery({
        subscriptionId: sub.id,
        crossing: c.key,
        recordedAt: now.toISOString(),
        sentAt: null,
      });
      if (!first && !undelivered.has(`${sub.id}|${c.key}`)) continue;
      let delivery: 'sent' | 'queued' | 'waiting';
      try {
        delivery = await sendAlert(ctx, sub, c);
      } catch (err) {
        result.failed++;
        ctx.metrics?.email('alert', 'failed');
        ctx.logger.error('alert e-mail not sent, retried at the next evaluation', {
          crossing: c.key,
          error: (err as Error).message,
        });
        continue;
      }
      // An outbox row (written now, or waiting or being sent already): its sender marks the
      // delivery (and counts it) once the e-mail is sent.
      if (delivery === 'waiting') continue;
      result.sent++;
      if (delivery === 'queued') continue;
      await ctx.userData.markAlertDelivered({
        subscriptionId: sub.id,
        crossing: c.key,
        sentAt: ctx.now(),
      });
      ctx.metrics?.email('alert', 'sent');
    }
  }
  if (result.sent + result.failed > 0) ctx.logger.info('alerts evaluated', { ...result });
  return result;
}

export type ConfirmOutcome = 'confirmed' | 'invalid' | 'expired' | 'unknown';

/** How often unconfirmed subscriptions and sign-ups past their 7 days are purged. */
export const PURGE_INTERVAL_MS = 3_600_000;

export class AlertService {
  private queue: Promise<unknown> = Promise.resolve();
  /** Confirmation e-mails, sent after the answer (outgoing.ts, or pg-outbox.ts). */
  readonly outgoing: MailSender;
  private readonly purgeTimer: NodeJS.Timeout;

  constructor(readonly ctx: AlertContext) {
    this.outgoing = ctx.outgoing ?? new MailQueue(ctx.mailer, ctx.logger, undefined, ctx.metrics);
    this.purgeTimer = setInterval(() => void this.purgeLogged(), PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  /**
   * Purges unconfirmed alert subscriptions and mailing-list sign-ups whose last confirmation
   * e-mail is 7 days old (their links have expired), and the caps' record older than a day. Runs
   * every hour in each process (the store makes a repeat harmless).
   */
  async purge(): Promise<{ alertSubscriptions: number; mailingList: number }> {
    const purged = await this.ctx.userData.purgeUnconfirmed(this.ctx.now());
    if (purged.alertSubscriptions + purged.mailingList > 0)
      this.ctx.logger.info('unconfirmed subscriptions purged', { ...purged });
    return purged;
  }

  private async purgeLogged(): Promise<void> {
    try {
      await this.purge();
    } catch (err) {
      this.ctx.logger.warn('purge of unconfirmed subscriptions failed, tried again in an hour', {
        error: (err as Error).message,
      });
    }
  }

  /** Runs `fn` after everything queued before it (evaluations and confirmations of this process). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Evaluates now (after any evaluation of this process under way), under EVALUATION_LOCK; null
   * when another process holds it, or before the published data is installed (`ready`): this
   * round is skipped (see the file comment).
   */
  evaluate(): Promise<EvaluationResult | null> {
    return this.serial(async () => {
      if (this.ctx.ready && !this.ctx.ready()) {
        this.ctx.logger.info('alert evaluation skipped: the published data is not installed yet');
        return null;
      }
      const result = await runExclusive(this.ctx.userData, EVALUATION_LOCK, () =>
        evaluateAlerts(this.ctx),
      );
      if (result === null)
        this.ctx.logger.info('alert evaluation skipped: another process evaluates');
      return result;
    });
  }

  /** Evaluates in the background (after an import, a data change, at start); failures are logged. */
  trigger(reason: string): void {
    this.evaluate().catch((err: unknown) =>
      this.ctx.logger.error('alert evaluation failed', { reason, error: (err as Error).message }),
    );
  }

  /** Resolves when everything queued so far has finished, confirmation e-mails included. */
  async settled(): Promise<void> {
    await this.queue;
    await this.outgoing.settled();
  }

  /**
   * Stores the subscription (or finds the existing one) and, when it is not confirmed and the
   * caps allow it, e-mails the confirmation link once `answered` resolves (after the HTTP
   * answer). One store call whatever the case: the caller answers the same, in the same time.
   */
  async subscribe(
    input: { email: string; sourceId: number; kind: AlertKind },
    answered: Promise<void> = Promise.resolve(),
  ): Promise<void> {
    const now = this.ctx.now();
    const { record: subscription, mail } = await this.ctx.userData.requestAlertConfirmation(
      {
        id: randomUUID(),
        email: input.email,
        sourceId: input.sourceId,
        kind: input.kind,
        createdAt: now.toISOString(),
        confirmedAt: null,
      },
      now,
    );
    if (!mail) return;
    this.outgoing.enqueue(
      'alert confirmation',
      () => {
        const site = siteOf(this.ctx);
        const expires = new Date(now.getTime() + CONFIRM_TTL_MS);
        const token = signAlertToken(this.ctx.secret, 'confirm', subscription.id, expires);
        const sourceName =
          this.ctx.sources()?.sources.find((s) => s.id === subscription.sourceId)?.name ??
          `source ${subscription.sourceId}`;
        const text = confirmationMail({
          siteTitle: site.siteTitle,
          sourceName,
          kind: subscription.kind,
          confirmUrl: alertLink(site.siteUrl, API_PATHS.alertConfirm, token),
          unsubscribeUrl: unsubscribeUrl(this.ctx, site.siteUrl, subscription.id),
        });
        return { from: site.from, to: subscription.email, ...text };
      },
      answered,
    );
  }

  /**
   * A mailing-list sign-up (double opt-in): the entry is stored unconfirmed (or the existing one
   * kept) and, when it is not confirmed and the caps allow it, a confirmation e-mail leaves after
   * the answer. The same for every address, as for alerts.
   */
  async joinMailingList(
    input: { email: string; source: string },
    answered: Promise<void> = Promise.resolve(),
  ): Promise<void> {
    const now = this.ctx.now();
    const { record: entry, mail } = await this.ctx.userData.requestMailingListConfirmation(
      {
        id: randomUUID(),
        email: input.email,
        source: input.source,
        createdAt: now.toISOString(),
        confirmedAt: null,
      },
      now,
    );
    if (!mail) return;
    this.outgoing.enqueue(
      'mailing-list confirmation',
      () => {
        const site = siteOf(this.ctx);
        const expires = new Date(now.getTime() + CONFIRM_TTL_MS);
        const confirm = signAlertToken(this.ctx.secret, 'confirm', entry.id, expires);
        const leave = signAlertToken(this.ctx.secret, 'unsubscribe', entry.id, null);
        const text = mailingListConfirmationMail({
          siteTitle: site.siteTitle,
          confirmUrl: alertLink(site.siteUrl, API_PATHS.mailConfirm, confirm),
          unsubscribeUrl: alertLink(site.siteUrl, API_PATHS.mailUnsubscribe, leave),
        });
        return { from: site.from, to: entry.email, ...text };
      },
      answered,
    );
  }

  /** The mailing list's confirmation link. */
  async confirmMailingList(token: string): Promise<ConfirmOutcome> {
    const check = verifyAlertToken(this.ctx.secret, 'confirm', token, this.ctx.now());
    if (!check.ok) return check.reason;
    const entry = await this.ctx.userData.confirmMailingListEntry({
      id: check.subscriptionId,
      now: this.ctx.now(),
    });
    return entry ? 'confirmed' : 'unknown';
  }

  /** The mailing list's unsubscribe link: true when the token is valid (also when already gone). */
  async leaveMailingList(token: string): Promise<boolean> {
    const check = verifyAlertToken(this.ctx.secret, 'unsubscribe', token, this.ctx.now());
    if (!check.ok) return false;
    await this.ctx.userData.removeMailingListEntry(check.subscriptionId);
    return true;
  }

  /**
   * The confirmation link: confirms, and records the crossings in force now as handled (in the
   * queue, so no evaluation of this process sees the subscription in between).
   */
  confirm(token: string): Promise<ConfirmOutcome> {
    const check = verifyAlertToken(this.ctx.secret, 'confirm', token, this.ctx.now());
    if (!check.ok) return Promise.resolve(check.reason);
    return this.serial(async () => {
      const id = check.subscriptionId;
      const now = this.ctx.now();
      const confirmed = await this.ctx.userData.confirmAlertSubscription({ id, now });
      if (!confirmed) return 'unknown';
      // A second click finds it confirmed earlier: its crossings are the evaluation's business.
      if (confirmed.confirmedAt !== now.toISOString()) return 'confirmed';
      for (const c of crossingsFor(this.ctx, confirmed)) {
        const first = await this.ctx.userData.recordAlertDelivery({
          subscriptionId: id,
          crossing: c.key,
          recordedAt: now.toISOString(),
          sentAt: null,
        });
        if (first)
          await this.ctx.userData.markAlertDelivered({
            subscriptionId: id,
            crossing: c.key,
            sentAt: now,
          });
      }
      return 'confirmed';
    });
  }

  /** The unsubscribe link (also RFC 8058 one-click POST): true when the token is valid. */
  async unsubscribe(token: string): Promise<boolean> {
    const check = verifyAlertToken(this.ctx.secret, 'unsubscribe', token, this.ctx.now());
    if (!check.ok) return false;
    await this.ctx.userData.removeAlertSubscription(check.subscriptionId);
    return true;
  }

  close(): void {
    clearInterval(this.purgeTimer);
    this.outgoing.close();
    this.ctx.mailer.close();
  }
}
