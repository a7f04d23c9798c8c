/** The alerts' file (runtime-written, user data). */
import { z } from 'zod';
import {
  ALERT_KINDS,
  isoDateTimeSchema as isoDateTime,
  nonEmptySchema as nonEmpty,
} from '@yield/contract';

// ---------------------------------------------------------------- alerts.json (runtime-written)
/**
 * Alert subscriptions (POST /api/alerts) and the ledger of alerts recorded or sent, one entry per
 * (subscription, crossing) (api/src/modules/alerts/evaluate.ts). Written by the user-data store.
 */
export const alertsFileSchema = z.strictObject({
  subscriptions: z.array(
    z.strictObject({
      id: nonEmpty,
      email: z.string().email(),
      sourceId: z.number().int().positive(),
      kind: z.enum(ALERT_KINDS),
      createdAt: isoDateTime,
      confirmedAt: isoDateTime.nullable(),
      /** When its last confirmation e-mail was sent (an unconfirmed one is purged 7 days later). */
      mailedAt: isoDateTime.optional(),
    }),
  ),
  deliveries: z.array(
    z.strictObject({
      subscriptionId: nonEmpty,
      crossing: nonEmpty,
      recordedAt: isoDateTime,
      sentAt: isoDateTime.nullable(),
    }),
  ),
  /**
   * The confirmation e-mails of the last 24 hours (alerts, the mailing list and premium sign-in
   * links), by lower-cased address and scope (`alert:<sourceId>:<kind>`, `mailing-list` or
   * `premium-sign-in`): what the caps count.
   */
  confirmations: z
    .array(z.strictObject({ email: nonEmpty, scope: nonEmpty, sentAt: isoDateTime }))
    .optional(),
});
export type AlertsFile = z.infer<typeof alertsFileSchema>;
