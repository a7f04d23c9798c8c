/** Rows of the premium tables (invites, users) and their records. */
import type { InviteRecord, UserRecord } from './schemas.ts';
import { iso } from '../../platform/pg/rows.ts';

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

export const INVITE_COLUMNS =
  'id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled';

export const USER_COLUMNS = 'user_id, invite_id, email, created_at, last_login_at';

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
