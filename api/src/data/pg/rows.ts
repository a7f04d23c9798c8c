/** Rows of the user-data tables and their conversion to the records of the ports. */
import type { AlertDelivery, AlertKind, AlertSubscription } from '../../modules/alerts/store.ts';
import type { MailingListEntry } from '../../modules/mailing-list/store.ts';
import type { InviteRecord, UserRecord } from '../schemas.ts';

export type InviteRow = {
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
export type UserRow = {
  user_id: string;
  invite_id: string;
  email: string | null;
  created_at: Date;
  last_login_at: Date;
};
export type SubscriptionRow = {
  id: string;
  email: string;
  source_id: number;
  kind: AlertKind;
  created_at: Date;
  confirmed_at: Date | null;
};
export type DeliveryRow = {
  subscription_id: string;
  crossing: string;
  recorded_at: Date;
  sent_at: Date | null;
};

export const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function toInvite(r: InviteRow): InviteRecord {
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

export function toUser(r: UserRow): UserRecord {
  return {
    userId: r.user_id,
    inviteId: r.invite_id,
    email: r.email,
    createdAt: r.created_at.toISOString(),
    lastLoginAt: r.last_login_at.toISOString(),
  };
}

export function toSubscription(r: SubscriptionRow): AlertSubscription {
  return {
    id: r.id,
    email: r.email,
    sourceId: r.source_id,
    kind: r.kind,
    createdAt: r.created_at.toISOString(),
    confirmedAt: iso(r.confirmed_at),
  };
}

export function toDelivery(r: DeliveryRow): AlertDelivery {
  return {
    subscriptionId: r.subscription_id,
    crossing: r.crossing,
    recordedAt: r.recorded_at.toISOString(),
    sentAt: iso(r.sent_at),
  };
}

export type ListRow = {
  id: string | null;
  email: string;
  source: string;
  created_at: Date;
  confirmed_at: Date | null;
};
export const LIST_COLUMNS = 'id, email, source, created_at, confirmed_at';

export function toListEntry(r: ListRow): MailingListEntry {
  return {
    id: r.id ?? '',
    email: r.email,
    source: r.source,
    createdAt: r.created_at.toISOString(),
    confirmedAt: iso(r.confirmed_at),
  };
}

export const SUBSCRIPTION_COLUMNS = 'id, email, source_id, kind, created_at, confirmed_at';
export const INVITE_COLUMNS =
  'id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled';
export const USER_COLUMNS = 'user_id, invite_id, email, created_at, last_login_at';
export const DELIVERY_COLUMNS = 'subscription_id, crossing, recorded_at, sent_at';
