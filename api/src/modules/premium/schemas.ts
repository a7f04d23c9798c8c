/** The premium module's files: invite codes and their users (runtime-written, user data). */
import { z } from 'zod';
import { isoDateTimeSchema as isoDateTime, nonEmptySchema as nonEmpty } from '@yield/contract';

// ---------------------------------------------------------------- invites.json (runtime-written)
export const invitesFileSchema = z.strictObject({
  invites: z.array(
    z.strictObject({
      id: nonEmpty,
      /** scrypt parameters are fixed in modules/premium/invite-codes.ts; salt and hash are base64. */
      salt: nonEmpty,
      hash: nonEmpty,
      createdAt: isoDateTime,
      expiresAt: isoDateTime.nullable(),
      maxUses: z.number().int().positive().nullable(),
      uses: z.number().int().min(0),
      note: z.string().optional(),
      disabled: z.boolean().optional(),
    }),
  ),
});
export type InvitesFile = z.infer<typeof invitesFileSchema>;
export type InviteRecord = InvitesFile['invites'][number];

// ---------------------------------------------------------------- users.json (runtime-written)
export const usersFileSchema = z.strictObject({
  users: z.array(
    z.strictObject({
      userId: nonEmpty,
      inviteId: nonEmpty,
      email: z.string().email().nullable(),
      createdAt: isoDateTime,
      lastLoginAt: isoDateTime,
    }),
  ),
  /**
   * The sign-in links already used (each works once), by the id signed into the link, kept until
   * they have expired (removed at a later use of any link).
   */
  signInLinks: z
    .array(
      z.strictObject({
        id: nonEmpty,
        userId: nonEmpty,
        expiresAt: isoDateTime,
        usedAt: isoDateTime,
      }),
    )
    .optional(),
});
export type UsersFile = z.infer<typeof usersFileSchema>;
export type UserRecord = UsersFile['users'][number];
export type UsedSignInLink = NonNullable<UsersFile['signInLinks']>[number];
