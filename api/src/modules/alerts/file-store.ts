/**
 * Alerts of the file store: `alerts.json` (subscriptions, the ledger of their deliveries, and the
 * confirmation e-mails counted by the caps, which the mailing list and the premium sign-in links
 * share), its journal records and their reducer.
 */
import { z } from 'zod';
import type { FilesView, FileSpec } from '../../platform/files/data-store.ts';
import type { MailingListFile } from '../mailing-list/index.ts';
import { alertsFileSchema, type AlertsFile } from './schemas.ts';
import type { AlertDelivery, AlertStore, AlertSubscription } from './store.ts';
import {
  alertScope,
  CONFIRMATION_WINDOW_MS,
  confirmationAllowed,
  MAILING_LIST_SCOPE,
  PREMIUM_SIGN_IN_SCOPE,
  type ConfirmationDecision,
  type ConfirmationMail,
} from '../confirmations/index.ts';
import type { ModuleJournal } from '../../platform/files/journal-engine.ts';
import {
  sharedRecords,
  unconfirmedExpired,
  type MailingRequestRecord,
  type PurgeRecord,
  type RedeemSignInPart,
  type SignInMailRecord,
} from '../confirmations/index.ts';

/** The files the alerts' store reads and writes: its own, and the mailing list's (the caps). */
type AlertFiles = { alerts: FileSpec<AlertsFile>; mailingList: FileSpec<MailingListFile> };

export const alertRecords = {
  alertSub: z.object({
    t: z.literal('alertSub'),
    sub: alertsFileSchema.shape.subscriptions.element,
  }),
  alertConfirm: z.object({ t: z.literal('alertConfirm'), id: z.string(), at: z.string() }),
  alertRemove: z.object({ t: z.literal('alertRemove'), id: z.string() }),
  alertDelivery: z.object({
    t: z.literal('alertDelivery'),
    delivery: alertsFileSchema.shape.deliveries.element,
  }),
  alertSent: z.object({
    t: z.literal('alertSent'),
    subscriptionId: z.string(),
    crossing: z.string(),
    at: z.string(),
  }),
  // Requests for a confirmation e-mail carry the store's decision (`mail`), so a replay repeats it.
  alertRequest: z.object({
    t: z.literal('alertRequest'),
    sub: alertsFileSchema.shape.subscriptions.element,
    mail: z.boolean(),
    at: z.string(),
  }),
  purge: sharedRecords.purge,
};
type Records = { [T in keyof typeof alertRecords]: z.infer<(typeof alertRecords)[T]> };
type AlertRecord =
  Records[keyof Records] | MailingRequestRecord | SignInMailRecord | RedeemSignInPart;

/** "One subscription per address, source and kind": the key, in any letter case. */
const alertKey = (s: Pick<AlertSubscription, 'email' | 'sourceId' | 'kind'>) =>
  `${s.email.trim().toLowerCase()}|${s.sourceId}|${s.kind}`;
const deliveryKey = (d: Pick<AlertDelivery, 'subscriptionId' | 'crossing'>) =>
  `${d.subscriptionId}|${d.crossing}`;

export class FileAlerts implements Omit<AlertStore, 'purgeUnconfirmed'> {
  private readonly byId = new Map<string, AlertSubscription>();
  private readonly byKey = new Map<string, AlertSubscription>();
  private readonly deliveries = new Map<string, AlertDelivery>();
  /** Confirmation e-mails counted by the caps, by lower-cased address. */
  private readonly confirmations = new Map<string, ConfirmationMail[]>();

  constructor(
    private readonly engine: ModuleJournal<AlertFiles>,
    private readonly store: FilesView<AlertFiles>,
  ) {
    engine.declare(alertRecords);
    engine.register<AlertsFile, AlertRecord>({
      key: 'alerts',
      types: [
        'alertSub',
        'alertConfirm',
        'alertRemove',
        'alertDelivery',
        'alertSent',
        'alertRequest',
        'mailingRequest',
        'signInMail',
        'redeemSignIn',
        'purge',
      ],
      apply: (data, record) => this.apply(data, record),
      rebuild: (data) => this.rebuild(data),
      freeze: (alerts) => ({
        subscriptions: alerts.subscriptions.map((a) => ({ ...a })),
        deliveries: alerts.deliveries.map((d) => ({ ...d })),
        ...(alerts.confirmations ? { confirmations: alerts.confirmations.slice() } : {}),
      }),
    });
  }

  /** The confirmation e-mails counted for a lower-cased address. */
  confirmationsOf(email: string): readonly ConfirmationMail[] {
    return this.confirmations.get(email) ?? [];
  }

  private rebuild(data: AlertsFile): void {
    this.byId.clear();
    this.byKey.clear();
    this.deliveries.clear();
    for (const a of data.subscriptions) {
      this.byId.set(a.id, a);
      this.byKey.set(alertKey(a), a);
    }
    for (const d of data.deliveries) this.deliveries.set(deliveryKey(d), d);
    this.confirmations.clear();
    for (const c of data.confirmations ?? []) this.indexConfirmation(c);
  }

  private indexConfirmation(c: ConfirmationMail): void {
    const list = this.confirmations.get(c.email);
    if (list) list.push(c);
    else this.confirmations.set(c.email, [c]);
  }

  private addConfirmation(data: AlertsFile, mail: ConfirmationMail): void {
    data.confirmations ??= [];
    data.confirmations.push(mail);
    this.indexConfirmation(mail);
  }

  private addSubscription(data: AlertsFile, sub: AlertSubscription): void {
    this.byId.set(sub.id, sub);
    this.byKey.set(alertKey(sub), sub);
    data.subscriptions.push(sub);
  }

  private apply(data: AlertsFile, change: AlertRecord): void {
    if (change.t === 'alertSub') {
      if (this.byId.has(change.sub.id) || this.byKey.has(alertKey(change.sub))) return;
      this.addSubscription(data, { ...change.sub });
    } else if (change.t === 'alertConfirm') {
      const sub = this.byId.get(change.id);
      if (sub && sub.confirmedAt === null) sub.confirmedAt = change.at;
    } else if (change.t === 'alertRemove') {
      const sub = this.byId.get(change.id);
      if (!sub) return;
      this.byId.delete(sub.id);
      this.byKey.delete(alertKey(sub));
      const i = data.subscriptions.indexOf(sub);
      if (i >= 0) data.subscriptions.splice(i, 1);
    } else if (change.t === 'alertDelivery') {
      if (this.deliveries.has(deliveryKey(change.delivery))) return;
      const delivery = { ...change.delivery };
      this.deliveries.set(deliveryKey(delivery), delivery);
      data.deliveries.push(delivery);
    } else if (change.t === 'alertSent') {
      const delivery = this.deliveries.get(deliveryKey(change));
      if (delivery && delivery.sentAt === null) delivery.sentAt = change.at;
    } else if (change.t === 'alertRequest') {
      let sub = this.byKey.get(alertKey(change.sub));
      if (!sub && !this.byId.has(change.sub.id)) {
        sub = { ...change.sub };
        this.addSubscription(data, sub);
      }
      if (!change.mail) return;
      if (sub) sub.mailedAt = change.at;
      this.addConfirmation(data, {
        email: change.sub.email.trim().toLowerCase(),
        scope: alertScope(change.sub),
        sentAt: change.at,
      });
    } else if (change.t === 'mailingRequest') {
      if (change.mail)
        this.addConfirmation(data, {
          email: change.entry.email.toLowerCase(),
          scope: MAILING_LIST_SCOPE,
          sentAt: change.at,
        });
    } else if (change.t === 'signInMail' || change.t === 'redeemSignIn') {
      if (change.mail)
        this.addConfirmation(data, {
          email: change.email,
          scope: PREMIUM_SIGN_IN_SCOPE,
          sentAt: change.at,
        });
    } else {
      const now = Date.parse(change.at);
      const subs = data.subscriptions.filter((a) => !unconfirmedExpired(a, now));
      const mails = (data.confirmations ?? []).filter(
        (c) => Date.parse(c.sentAt) > now - CONFIRMATION_WINDOW_MS,
      );
      if (
        subs.length === data.subscriptions.length &&
        mails.length === (data.confirmations ?? []).length
      )
        return;
      data.subscriptions = subs;
      data.confirmations = mails;
      this.rebuild(data);
    }
  }

  async addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    await this.store.refreshFile('alerts');
    this.engine.writable('alerts');
    const key = `alert:${alertKey(sub)}`;
    const existing = this.byKey.get(alertKey(sub));
    if (existing) {
      await this.engine.pending(key);
      return { created: false, subscription: { ...existing } };
    }
    const change: Records['alertSub'] = { t: 'alertSub', sub: { ...sub, email: sub.email.trim() } };
    this.engine.apply(change);
    const stored = { ...this.byId.get(sub.id)! };
    await this.engine.recordKeyed(key, change);
    return { created: true, subscription: stored };
  }

  async requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>> {
    await this.store.refreshFile('alerts');
    const key = `alert:${alertKey(sub)}`;
    // A creation of the same subscription still on its way to the disk is waited for first.
    await this.engine.pending(key);
    this.engine.writable('alerts');
    // From here to the append nothing awaits: the decision and its change are one step.
    const existing = this.byKey.get(alertKey(sub));
    const email = sub.email.trim();
    const mail =
      (existing === undefined || existing.confirmedAt === null) &&
      confirmationAllowed(this.confirmationsOf(email.toLowerCase()), alertScope(sub), now);
    const { mailedAt: _ignored, ...fresh } = sub;
    const change: Records['alertRequest'] = {
      t: 'alertRequest',
      sub: { ...fresh, email },
      mail,
      at: now.toISOString(),
    };
    this.engine.apply(change);
    const stored = { ...this.byKey.get(alertKey(sub))! };
    if (existing) await this.engine.record(change);
    else await this.engine.recordKeyed(key, change);
    return { record: stored, mail };
  }

  /**
   * The purge (see AlertStore.purgeUnconfirmed): one line that both this file and the mailing
   * list apply; `listExpired` counts the sign-ups it removes.
   */
  async purgeUnconfirmed(
    now: Date,
    listExpired: (now: number) => number,
  ): Promise<{ alertSubscriptions: number; mailingList: number }> {
    await this.store.refreshFile('mailingList');
    await this.store.refreshFile('alerts');
    const t = now.getTime();
    const alerts = this.store.get('alerts');
    const counts = {
      alertSubscriptions: (alerts?.subscriptions ?? []).filter((a) => unconfirmedExpired(a, t))
        .length,
      mailingList: listExpired(t),
    };
    const staleMails = (alerts?.confirmations ?? []).some(
      (c) => Date.parse(c.sentAt) <= t - CONFIRMATION_WINDOW_MS,
    );
    if (counts.alertSubscriptions + counts.mailingList === 0 && !staleMails) return counts;
    this.engine.writable('mailingList');
    this.engine.writable('alerts');
    const change: PurgeRecord = { t: 'purge', at: now.toISOString() };
    this.engine.apply(change);
    await this.engine.record(change);
    return counts;
  }

  async confirmAlertSubscription(input: {
    id: string;
    now: Date;
  }): Promise<AlertSubscription | null> {
    await this.store.refreshFile('alerts');
    this.engine.writable('alerts');
    const sub = this.byId.get(input.id);
    if (!sub) return null;
    // The subscription itself may still be on its way to the disk.
    await this.engine.pending(`alert:${alertKey(sub)}`);
    if (sub.confirmedAt !== null) return { ...sub };
    const change: Records['alertConfirm'] = {
      t: 'alertConfirm',
      id: sub.id,
      at: input.now.toISOString(),
    };
    this.engine.apply(change);
    const confirmed = { ...sub };
    await this.engine.record(change);
    return confirmed;
  }

  async removeAlertSubscription(id: string): Promise<boolean> {
    await this.store.refreshFile('alerts');
    this.engine.writable('alerts');
    if (!this.byId.has(id)) return false;
    const change: Records['alertRemove'] = { t: 'alertRemove', id };
    this.engine.apply(change);
    await this.engine.record(change);
    return true;
  }

  async listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]> {
    await this.store.refreshFile('alerts');
    return (this.store.get('alerts')?.subscriptions ?? [])
      .filter((a) => a.confirmedAt !== null)
      .map((a) => ({ ...a }))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async recordAlertDelivery(entry: AlertDelivery): Promise<boolean> {
    await this.store.refreshFile('alerts');
    this.engine.writable('alerts');
    const key = `delivery:${deliveryKey(entry)}`;
    if (this.deliveries.has(deliveryKey(entry))) {
      await this.engine.pending(key);
      return false;
    }
    const change: Records['alertDelivery'] = { t: 'alertDelivery', delivery: { ...entry } };
    this.engine.apply(change);
    await this.engine.recordKeyed(key, change);
    return true;
  }

  async markAlertDelivered(input: {
    subscriptionId: string;
    crossing: string;
    sentAt: Date;
  }): Promise<void> {
    await this.store.refreshFile('alerts');
    this.engine.writable('alerts');
    const delivery = this.deliveries.get(deliveryKey(input));
    if (!delivery || delivery.sentAt !== null) return;
    const change: Records['alertSent'] = {
      t: 'alertSent',
      subscriptionId: input.subscriptionId,
      crossing: input.crossing,
      at: input.sentAt.toISOString(),
    };
    this.engine.apply(change);
    await this.engine.record(change);
  }

  async listUndeliveredAlerts(): Promise<AlertDelivery[]> {
    await this.store.refreshFile('alerts');
    return (this.store.get('alerts')?.deliveries ?? [])
      .filter((d) => d.sentAt === null)
      .map((d) => ({ ...d }));
  }
}
