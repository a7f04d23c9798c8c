/**
 * The one forwarding layer of the user data: `UserDataFacade` is the whole `UserDataStore` over
 * the parts an adapter builds (one store per aggregate, the job locks, health and close). Both
 * adapters extend it (`FileUserDataStore` in file-user-data.ts, `PgUserDataStore` in
 * pg-user-data.ts) and only build their parts, so a new store method is written once per adapter
 * (in its module's `file-store.ts` and `pg-store.ts`) and forwarded once, here.
 */
import type {
  Activation,
  AlertDelivery,
  AlertStore,
  AlertSubscription,
  ConfirmationDecision,
  InviteEmailActivation,
  InviteLogin,
  JobLocks,
  MailingListEntry,
  MailingListStore,
  NewSubscriber,
  PremiumStore,
  Redemption,
  SignInLinkUse,
  StoreHealth,
  UserDataHealth,
  UserDataStore,
} from './user-data.ts';
import type { InviteRecord, UserRecord } from '../modules/premium/schemas.ts';

/** What an adapter builds: the store of each aggregate, over its files or its database. */
export interface UserDataParts {
  mailingList: MailingListStore;
  premium: PremiumStore;
  /** The alerts' own methods; the purge (below) spans the alerts and the mailing list. */
  alerts: Omit<AlertStore, 'purgeUnconfirmed'>;
  purgeUnconfirmed: AlertStore['purgeUnconfirmed'];
  locks: JobLocks;
  lifecycle: StoreHealth;
}

export class UserDataFacade implements UserDataStore {
  constructor(private readonly parts: UserDataParts) {}

  // ------------------------------------------------------------------ mailing list

  addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }> {
    return this.parts.mailingList.addSubscriber(entry);
  }

  requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>> {
    return this.parts.mailingList.requestMailingListConfirmation(entry, now);
  }

  confirmMailingListEntry(input: { id: string; now: Date }): Promise<MailingListEntry | null> {
    return this.parts.mailingList.confirmMailingListEntry(input);
  }

  removeMailingListEntry(id: string): Promise<boolean> {
    return this.parts.mailingList.removeMailingListEntry(id);
  }

  // ------------------------------------------------------------------ invites and users

  listInvites(): Promise<InviteRecord[]> {
    return this.parts.premium.listInvites();
  }

  createInvite(invite: InviteRecord): Promise<void> {
    return this.parts.premium.createInvite(invite);
  }

  redeemInvite(input: { inviteId: string; user: UserRecord; now: Date }): Promise<Redemption> {
    return this.parts.premium.redeemInvite(input);
  }

  loginWithInvite(input: InviteLogin): Promise<Redemption> {
    return this.parts.premium.loginWithInvite(input);
  }

  activateInviteEmail(input: InviteEmailActivation): Promise<Activation> {
    return this.parts.premium.activateInviteEmail(input);
  }

  requestSignInMail(input: { email: string; now: Date }): Promise<boolean> {
    return this.parts.premium.requestSignInMail(input);
  }

  consumeSignInLink(input: SignInLinkUse): Promise<boolean> {
    return this.parts.premium.consumeSignInLink(input);
  }

  activePremiumUser(userId: string): Promise<UserRecord | null> {
    return this.parts.premium.activePremiumUser(userId);
  }

  disableInvite(id: string): Promise<boolean> {
    return this.parts.premium.disableInvite(id);
  }

  // ------------------------------------------------------------------ alerts

  addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    return this.parts.alerts.addAlertSubscription(sub);
  }

  confirmAlertSubscription(input: { id: string; now: Date }): Promise<AlertSubscription | null> {
    return this.parts.alerts.confirmAlertSubscription(input);
  }

  removeAlertSubscription(id: string): Promise<boolean> {
    return this.parts.alerts.removeAlertSubscription(id);
  }

  listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]> {
    return this.parts.alerts.listConfirmedAlertSubscriptions();
  }

  recordAlertDelivery(entry: AlertDelivery): Promise<boolean> {
    return this.parts.alerts.recordAlertDelivery(entry);
  }

  markAlertDelivered(input: {
    subscriptionId: string;
    crossing: string;
    sentAt: Date;
  }): Promise<void> {
    return this.parts.alerts.markAlertDelivered(input);
  }

  listUndeliveredAlerts(): Promise<AlertDelivery[]> {
    return this.parts.alerts.listUndeliveredAlerts();
  }

  requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>> {
    return this.parts.alerts.requestAlertConfirmation(sub, now);
  }

  purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }> {
    return this.parts.purgeUnconfirmed(now);
  }

  // ------------------------------------------------------------------ jobs and health

  withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean> {
    return this.parts.locks.withExclusiveLock(name, fn);
  }

  health(): Promise<UserDataHealth> {
    return this.parts.lifecycle.health();
  }

  close(): Promise<void> {
    return this.parts.lifecycle.close();
  }
}
