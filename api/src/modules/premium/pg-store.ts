/**
 * Invite codes, premium users and used sign-in links in PostgreSQL: the tables `invites`,
 * `premium_users` and `premium_sign_in_links`. An invite use is one conditional UPDATE in the
 * transaction that creates the user (a one-use code redeemed on two processes at once succeeds
 * once); logins of one invite are serialised by a row lock on it; a sign-in link is spent by one
 * INSERT ... ON CONFLICT DO NOTHING, true for exactly one caller. The e-mails of sign-in links are
 * decided under the caps' advisory lock of the address (modules/confirmations/pg-store.ts).
 */
import type { PoolClient } from 'pg';
import { inviteUsable } from './invite-codes.ts';
import type { InviteRecord, UserRecord } from './schemas.ts';
import type {
  Activation,
  ActivationOutcome,
  InviteEmailActivation,
  InviteLogin,
  PremiumStore,
  Redemption,
  SignInLinkUse,
} from './store.ts';
import type { PgConnection } from '../../platform/pg/connection.ts';
import { claimConfirmation, lockAddress } from '../confirmations/index.ts';
import { PREMIUM_SIGN_IN_SCOPE } from '../confirmations/index.ts';
import {
  INVITE_COLUMNS,
  toInvite,
  toUser,
  USER_COLUMNS,
  type InviteRow,
  type UserRow,
} from './pg-rows.ts';

export class PgPremium implements PremiumStore {
  constructor(private readonly db: PgConnection) {}

  async listInvites(): Promise<InviteRecord[]> {
    const r = await this.db.query<InviteRow>(
      `SELECT ${INVITE_COLUMNS} FROM invites WHERE NOT disabled ORDER BY seq`,
    );
    return r.rows.map(toInvite);
  }

  async createInvite(invite: InviteRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO invites (id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
      [
        invite.id,
        invite.salt,
        invite.hash,
        invite.createdAt,
        invite.expiresAt,
        invite.maxUses,
        invite.uses,
        invite.note ?? null,
        invite.disabled ?? false,
      ],
    );
  }

  async redeemInvite(input: {
    inviteId: string;
    user: UserRecord;
    now: Date;
  }): Promise<Redemption> {
    return this.db.transaction((c) => this.redeem(c, input.inviteId, input.user, input.now));
  }

  /** Spends one use (one conditional UPDATE) and creates the user, inside the caller's transaction. */
  private async redeem(
    c: PoolClient,
    inviteId: string,
    user: UserRecord,
    now: Date,
  ): Promise<Redemption> {
    const spent = await c.query(
      `UPDATE invites SET uses = uses + 1
       WHERE id = $1 AND NOT disabled AND (expires_at IS NULL OR expires_at > $2)
         AND (max_uses IS NULL OR uses < max_uses)`,
      [inviteId, now],
    );
    if (spent.rowCount !== 1) {
      const r = await c.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites WHERE id = $1`, [
        inviteId,
      ]);
      const row = r.rows[0];
      if (!row || row.disabled) return { ok: false, reason: 'invalid' };
      const check = inviteUsable(toInvite(row), now);
      return { ok: false, reason: check.ok ? 'exhausted' : check.reason };
    }
    await c.query(
      `INSERT INTO premium_users (user_id, invite_id, email, created_at, last_login_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [user.userId, inviteId, user.email, user.createdAt, user.lastLoginAt],
    );
    return { ok: true, user: { ...user, inviteId } };
  }

  async loginWithInvite(input: InviteLogin): Promise<Redemption> {
    return this.db.transaction(async (c) => {
      // Logins of one invite take turns (two at once with one address must find one user).
      await c.query('SELECT 1 FROM invites WHERE id = $1 FOR UPDATE', [input.inviteId]);
      const r = await c.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM premium_users
         WHERE invite_id = $1 AND (email = $2 OR user_id = $3 OR email IS NULL) ORDER BY seq`,
        [input.inviteId, input.email, input.tokenUserId],
      );
      const mine = r.rows;
      const found =
        mine.find((u) => u.email === input.email) ??
        mine.find((u) => input.tokenUserId !== null && u.user_id === input.tokenUserId) ??
        mine.findLast((u) => u.email === null);
      if (!found) return this.redeem(c, input.inviteId, input.newUser, input.now);
      const updated = await c.query<UserRow>(
        `UPDATE premium_users SET email = $2, last_login_at = $3 WHERE user_id = $1
         RETURNING ${USER_COLUMNS}`,
        [found.user_id, input.email, input.now],
      );
      return { ok: true, user: toUser(updated.rows[0]!) };
    });
  }

  async activateInviteEmail(input: InviteEmailActivation): Promise<Activation> {
    return this.db.transaction(async (c) => {
      // Activations of one invite take turns (two at once with one address must make one user).
      const locked = await c.query<InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM invites WHERE id = $1 FOR UPDATE`,
        [input.inviteId],
      );
      if (input.tokenUserId !== null) {
        const updated = await c.query<UserRow>(
          `UPDATE premium_users SET email = $3, last_login_at = $4
           WHERE user_id = $1 AND invite_id = $2 RETURNING ${USER_COLUMNS}`,
          [input.tokenUserId, input.inviteId, input.email, input.now],
        );
        if (updated.rows[0])
          return { ok: true, user: toUser(updated.rows[0]), created: false, signInMail: false };
      }
      const email = input.email.toLowerCase();
      await lockAddress(c, email);
      const outcome = await this.activateOther(c, input, locked.rows[0]);
      // The sign-in link's e-mail, counted in this transaction whatever the outcome.
      const signInMail = await claimConfirmation(c, {
        email,
        scope: PREMIUM_SIGN_IN_SCOPE,
        wanted: outcome.ok || outcome.reason === 'email_taken',
        now: input.now,
      });
      return { ...outcome, signInMail };
    });
  }

  /** activateInviteEmail without the caller's own user: the email's user, or a redemption. */
  private async activateOther(
    c: PoolClient,
    input: InviteEmailActivation,
    row: InviteRow | undefined,
  ): Promise<ActivationOutcome> {
    const taken = await c.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM premium_users
       WHERE invite_id = $1 AND lower(email) = lower($2) ORDER BY seq LIMIT 1`,
      [input.inviteId, input.email],
    );
    if (taken.rows[0]) return { ok: false, reason: 'email_taken', user: toUser(taken.rows[0]) };
    if (!row || row.disabled) return { ok: false, reason: 'invalid' };
    const check = inviteUsable(toInvite(row), input.now);
    if (!check.ok) return { ok: false, reason: check.reason };
    const redeemed = await this.redeem(c, input.inviteId, input.newUser, input.now);
    return redeemed.ok ? { ...redeemed, created: true } : redeemed;
  }

  async requestSignInMail(input: { email: string; now: Date }): Promise<boolean> {
    const email = input.email.toLowerCase();
    return this.db.transaction(async (c) => {
      await lockAddress(c, email);
      return claimConfirmation(c, {
        email,
        scope: PREMIUM_SIGN_IN_SCOPE,
        wanted: true,
        now: input.now,
      });
    });
  }

  async consumeSignInLink(input: SignInLinkUse): Promise<boolean> {
    // One statement: the links expired by now are deleted, and this one is recorded once.
    const r = await this.db.query(
      `WITH expired AS (DELETE FROM premium_sign_in_links WHERE expires_at <= $4)
       INSERT INTO premium_sign_in_links (id, user_id, expires_at, used_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [input.id, input.userId, input.expiresAt, input.now],
    );
    return r.rowCount === 1;
  }

  async activePremiumUser(userId: string): Promise<UserRecord | null> {
    const r = await this.db.query<UserRow>(
      `SELECT u.user_id, u.invite_id, u.email, u.created_at, u.last_login_at
       FROM premium_users u JOIN invites i ON i.id = u.invite_id
       WHERE u.user_id = $1 AND NOT i.disabled`,
      [userId],
    );
    return r.rows[0] ? toUser(r.rows[0]) : null;
  }

  async disableInvite(id: string): Promise<boolean> {
    const r = await this.db.query('UPDATE invites SET disabled = true WHERE id = $1', [id]);
    return (r.rowCount ?? 0) > 0;
  }
}
