/** Rows of the alert tables (subscriptions, deliveries) and their records. */
import type { AlertDelivery, AlertKind, AlertSubscription } from './store.ts';
import { iso } from '../../platform/pg/rows.ts';

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

export const SUBSCRIPTION_COLUMNS = 'id, email, source_id, kind, created_at, confirmed_at';

export const DELIVERY_COLUMNS = 'subscription_id, crossing, recorded_at, sent_at';

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
