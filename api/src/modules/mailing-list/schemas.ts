/** The mailing list's file (runtime-written, user data). */
import { z } from 'zod';
import { isoDateTimeSchema as isoDateTime, nonEmptySchema as nonEmpty } from '@yield/contract';

// ---------------------------------------------------------------- mailing-list.json (runtime-written)
export const mailingListFileSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      email: z.string().email(),
      createdAt: isoDateTime,
      source: nonEmpty,
      /** The id its e-mailed confirm and unsubscribe links name (entries of older files have none). */
      id: nonEmpty.optional(),
      /**
       * When the address confirmed its sign-up (double opt-in); null: not yet, the entry does not
       * count and is purged 7 days after its last confirmation e-mail. An entry without this field
       * (written before confirmations existed) counts as confirmed.
       */
      confirmedAt: isoDateTime.nullable().optional(),
      /** When its last confirmation e-mail was sent. */
      mailedAt: isoDateTime.optional(),
    }),
  ),
});
export type MailingListFile = z.infer<typeof mailingListFileSchema>;
