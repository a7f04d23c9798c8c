/**
 * Alerts in PostgreSQL: the tables `alert_subscriptions` (one per address in any letter case,
 * source and kind) and `alert_deliveries` (an INSERT ... ON CONFLICT DO NOTHING, true for exactly
 * one caller); a subscription request and its confirmation e-mail are one transaction
 * (confirmations.ts); the purge of unconfirmed subscriptions and sign-ups.
 */
import type { AlertDelivery, AlertStore, AlertSubscription } from './store.ts';
import {
  alertScope,
  CONFIRMATION_WINDOW_MS,
  UNCONFIRMED_TTL_MS,
  type ConfirmationDecision,
} from '../confirmations/index.ts';
import { claimConfirmation, lockAddress } from '../confirmations/index.ts';
import type { PgConnection } from '../../platform/pg/connection.ts';
import {
  DELIVERY_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  toDelivery,
  toSubscription,
  type DeliveryRow,
  type SubscriptionRow,
} from './pg-rows.ts';

export class PgAlerts implements AlertStore {
  constructor(private readonly db: PgConnection) {}

  async addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    // A subscription removed between the two statements is simply tried again.
    for (;;) {
      const inserted = await this.db.query<SubscriptionRow>(
        `INSERT INTO alert_subscriptions (id, email, source_id, kind, created_at, confirmed_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ((lower(email)), source_id, kind) DO NOTHING RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [sub.id, sub.email, sub.sourceId, sub.kind, sub.createdAt, sub.confirmedAt],
      );
      if (inserted.rows[0])
        return { created: true, subscription: toSubscription(inserted.rows[0]) };
      const existing = await this.db.query<SubscriptionRow>(
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
    const r = await this.db.query<SubscriptionRow>(
      `UPDATE alert_subscriptions SET confirmed_at = COALESCE(confirmed_at, $2) WHERE id = $1
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [input.id, input.now],
    );
    return r.rows[0] ? toSubscription(r.rows[0]) : null;
  }

  async removeAlertSubscription(id: string): Promise<boolean> {
    const r = await this.db.query('DELETE FROM alert_subscriptions WHERE id = $1', [id]);
    return r.rowCount === 1;
  }

  async listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]> {
    const r = await this.db.query<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM alert_subscriptions
       WHERE confirmed_at IS NOT NULL ORDER BY created_at, seq`,
    );
    return r.rows.map(toSubscription);
  }

  async recordAlertDelivery(entry: AlertDelivery): Promise<boolean> {
    const r = await this.db.query(
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
    await this.db.query(
      `UPDATE alert_deliveries SET sent_at = COALESCE(sent_at, $3)
       WHERE subscription_id = $1 AND crossing = $2`,
      [input.subscriptionId, input.crossing, input.sentAt],
    );
  }

  async listUndeliveredAlerts(): Promise<AlertDelivery[]> {
    const r = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries
       WHERE sent_at IS NULL ORDER BY recorded_at, subscription_id, crossing`,
    );
    return r.rows.map(toDelivery);
  }

  async requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>> {
    const email = sub.email.trim();
    return this.db.transaction(async (c) => {
      await lockAddress(c, email.toLowerCase());
      // DO UPDATE (to itself) rather than DO NOTHING: one row written and returned in every case.
      const r = await c.query<SubscriptionRow>(
        `INSERT INTO alert_subscriptions (id, email, source_id, kind, created_at, confirmed_at)
         VALUES ($1, $2, $3, $4, $5, NULL)
         ON CONFLICT ((lower(email)), source_id, kind) DO UPDATE SET email = alert_subscriptions.email
         RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [sub.id, email, sub.sourceId, sub.kind, sub.createdAt],
      );
      const row = r.rows[0]!;
      const mail = await claimConfirmation(c, {
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

  async purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }> {
    const before = new Date(now.getTime() - UNCONFIRMED_TTL_MS);
    return this.db.transaction(async (c) => {
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
}
