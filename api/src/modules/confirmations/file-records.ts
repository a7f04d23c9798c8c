/**
 * The journal records that two aggregates of the file store share: a mailing-list sign-up request
 * (`mailing-list.json` keeps the entry, `alerts.json` counts its confirmation e-mail), a premium
 * sign-in link's e-mail (the premium aggregate decides it, `alerts.json` counts it) and the purge
 * of unconfirmed subscriptions and sign-ups. The aggregates import them from here, so neither
 * imports the other.
 */
import { z } from 'zod';
import { UNCONFIRMED_TTL_MS } from './port.ts';

/** A sign-in link's e-mail as a record carries it: the address, the caps' decision, when. */
export const signInMailFields = { email: z.string(), mail: z.boolean(), at: z.string() };

export const sharedRecords = {
  // Requests for a confirmation e-mail carry the store's decision (`mail`), so a replay repeats it.
  mailingRequest: z.object({
    t: z.literal('mailingRequest'),
    entry: z.object({
      id: z.string(),
      email: z.string(),
      source: z.string(),
      createdAt: z.string(),
    }),
    mail: z.boolean(),
    at: z.string(),
  }),
  /**
   * A request for a premium sign-in link to `email` (lower-cased), with the store's decision
   * (`mail`: counted under PREMIUM_SIGN_IN_SCOPE). premiumLogin writes it whatever the decision,
   * so a registered and a new email cost alike.
   */
  signInMail: z.object({ t: z.literal('signInMail'), ...signInMailFields }),
  /** The purge of unconfirmed subscriptions and sign-ups, and of old confirmation e-mails. */
  purge: z.object({ t: z.literal('purge'), at: z.string() }),
};
export type MailingRequestRecord = z.infer<typeof sharedRecords.mailingRequest>;
export type SignInMailRecord = z.infer<typeof sharedRecords.signInMail>;
/**
 * A redemption of premiumLogin with its sign-in link's e-mail, in one line (`redeemSignIn`,
 * declared by the premium aggregate with the new user): the part that `alerts.json` applies.
 */
export type RedeemSignInPart = { t: 'redeemSignIn' } & Omit<SignInMailRecord, 't'>;
export type PurgeRecord = z.infer<typeof sharedRecords.purge>;

/** Whether an unconfirmed subscription or sign-up is due for the purge at `now`. */
export const unconfirmedExpired = (
  e: { confirmedAt?: string | null; mailedAt?: string; createdAt: string },
  now: number,
) => e.confirmedAt === null && Date.parse(e.mailedAt ?? e.createdAt) <= now - UNCONFIRMED_TTL_MS;
