/** Invite codes with their uses, and the premium users they created. */
import type { InviteRecord, UserRecord } from './schemas.ts';

export type InviteFailure = 'invalid' | 'expired' | 'exhausted';

export type Redemption = { ok: true; user: UserRecord } | { ok: false; reason: InviteFailure };

export interface InviteLogin {
  inviteId: string;
  email: string;
  tokenUserId: string | null;
  newUser: UserRecord;
  now: Date;
}

/**
 * POST /api/premiumLogin: `tokenUserId` is the user of the caller's verified token (null without
 * one); `newUser` (carrying the email) is created when the email is not yet one of the code's.
 */
export interface InviteEmailActivation {
  inviteId: string;
  email: string;
  tokenUserId: string | null;
  newUser: UserRecord;
  now: Date;
}

/**
 * `email_taken`: the email is already `user`'s (a user of the invite); without that user's token
 * the caller gets no token (the route mails that address a sign-in link instead).
 *
 * `signInMail`: whether a sign-in link may be mailed to the email now (the caps of
 * PREMIUM_SIGN_IN_SCOPE, modules/confirmations/port.ts); then it is counted. Always false when
 * the caller's own token bound the email.
 */
export type ActivationOutcome =
  | { ok: true; user: UserRecord; created: boolean }
  | { ok: false; reason: InviteFailure }
  | { ok: false; reason: 'email_taken'; user: UserRecord };
export type Activation = ActivationOutcome & { signInMail: boolean };

/** A sign-in link being opened: its id (signed into the link) and until when it works. */
export interface SignInLinkUse {
  id: string;
  userId: string;
  /** The link works until then at the latest: its record is kept until that time. */
  expiresAt: Date;
  now: Date;
}

export interface PremiumStore {
  /** Every invite code record that may be used (not disabled), oldest first; fresh from storage. */
  listInvites(): Promise<InviteRecord[]>;

  /** Stores a new invite code (operator command). A record whose id exists changes nothing. */
  createInvite(invite: InviteRecord): Promise<void>;

  /** Spends one use of an invite and creates `user` for it, or says why the invite is refused. */
  redeemInvite(input: { inviteId: string; user: UserRecord; now: Date }): Promise<Redemption>;

  /**
   * Logs an email in with an invite: the user of this invite with that email, else the user the
   * caller's token names (`tokenUserId`), else the newest user of the invite without an email gets
   * the email; only when none exists is a use spent to create `newUser` (which carries the email).
   */
  loginWithInvite(input: InviteLogin): Promise<Redemption>;

  /**
   * Binds an email with an invite, in one step: the user named by `tokenUserId`, when it is one
   * of this invite's, gets the email (no use spent). Else, when a user of the invite has the email
   * (any letter case), `email_taken` with that user; else this is a redemption: `newUser` is
   * created with one use spent, or the invite is refused (expired, used up, disabled). Without
   * the caller's own user, the same step also decides and counts the sign-in link's e-mail
   * (`signInMail`, true only for `email_taken` or a created user), and writes once whatever the
   * outcome, so its time does not tell a registered email from a new one.
   */
  activateInviteEmail(input: InviteEmailActivation): Promise<Activation>;

  /**
   * A request for a new sign-in link to `email` (the page of a used or expired link): true when
   * the caps of PREMIUM_SIGN_IN_SCOPE allow one now, and then it is counted.
   */
  requestSignInMail(input: { email: string; now: Date }): Promise<boolean>;

  /**
   * Spends a sign-in link: true for the first caller with its id, whatever the process, and false
   * for every later one. Each used id is kept until its `expiresAt`; expired ones are removed
   * along the way.
   */
  consumeSignInLink(input: SignInLinkUse): Promise<boolean>;

  /**
   * The premium user, if it may still use its tokens: it exists and its invite exists and is not
   * disabled; else null. Reads the store as it is now (a user deleted by hand counts as deleted).
   */
  activePremiumUser(userId: string): Promise<UserRecord | null>;

  /** Disables an invite (operator command): no new use, and its users' tokens are refused. False when the id is unknown. */
  disableInvite(id: string): Promise<boolean>;
}
