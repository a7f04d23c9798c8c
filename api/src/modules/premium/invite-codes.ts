/**
 * Invite codes are stored only as scrypt hashes, so a leaked invites.json does not hand out
 * premium access. Codes are compared case-insensitively and without surrounding spaces, because
 * people type them from an e-mail.
 *
 * New codes reuse the salt of the newest existing code: a login attempt then costs one scrypt
 * whatever the number of codes (with a salt per code it would cost one per code, which on a busy
 * 2-core machine is seconds). Each record still carries its salt, so older records with other
 * salts keep working; the price is that one guess is tested against all codes at once, which
 * matters little for random 60-bit codes and cannot save a guessable code either way.
 */
import {
  randomBytes,
  randomUUID,
  scrypt as scryptCb,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';
import { INVITE_CODE_MAX_LENGTH } from '@yield/contract';
import pLimit from 'p-limit';
import { AppError } from '../../platform/http/errors.ts';
import type { InviteRecord } from './schemas.ts';
import type { PremiumStore } from './store.ts';

const KEY_LENGTH = 32;
/** N = 2^14 (16 MiB): 30-130 ms per check on these 2-core machines, enough to make guessing costly. */
const SCRYPT_OPTIONS: ScryptOptions = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, KEY_LENGTH, SCRYPT_OPTIONS, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export async function hashCode(
  code: string,
  salt: Buffer = randomBytes(16),
): Promise<{ salt: string; hash: string }> {
  const hash = await scrypt(normalizeCode(code), salt);
  return { salt: salt.toString('base64'), hash: hash.toString('base64') };
}

/** Unambiguous alphabet (no 0/O, 1/I/L) for codes read aloud or retyped. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function randomCode(groups = 3, groupLength = 4): string {
  const bytes = randomBytes(groups * groupLength);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  const parts: string[] = [];
  for (let g = 0; g < groups; g++)
    parts.push(chars.slice(g * groupLength, (g + 1) * groupLength).join(''));
  return `YIELD-${parts.join('-')}`;
}

export type InviteCheck =
  { ok: true; invite: InviteRecord } | { ok: false; reason: 'invalid' | 'expired' | 'exhausted' };

export function inviteUsable(invite: InviteRecord, now: Date): InviteCheck {
  if (invite.expiresAt !== null && Date.parse(invite.expiresAt) <= now.getTime())
    return { ok: false, reason: 'expired' };
  if (invite.maxUses !== null && invite.uses >= invite.maxUses)
    return { ok: false, reason: 'exhausted' };
  return { ok: true, invite };
}

/**
 * Code checks running at once in this process. scrypt runs on libuv's thread pool (4 threads by
 * default), which file reads and writes share: two checks at a time leave it room for the rest.
 */
export const INVITE_CHECK_CONCURRENCY = 2;
/** Checks waiting for a turn; one more is refused at once, so a flood of guesses holds no one. */
export const INVITE_CHECK_QUEUE = 8;
const inviteChecks = pLimit(INVITE_CHECK_CONCURRENCY);

/** 429 `rate_limited` with the premium calls' `success:false`: every slot and queue place taken. */
function inviteChecksBusy(): AppError {
  return new AppError(
    429,
    'rate_limited',
    'Too many requests, try again in 1 s',
    { 'Retry-After': '1' },
    { success: false },
  );
}

/**
 * Finds the invite a code belongs to (the store reads invites fresh, so new codes work at once).
 * At most INVITE_CHECK_CONCURRENCY checks run at once, INVITE_CHECK_QUEUE more wait; beyond that
 * it throws a 429 AppError at once.
 */
export async function findInvite(
  userData: PremiumStore,
  code: string,
): Promise<InviteRecord | null> {
  if (code.trim().length === 0 || code.length > INVITE_CODE_MAX_LENGTH) return null;
  const invites = await userData.listInvites();
  const bySalt = new Map<string, InviteRecord[]>();
  for (const invite of invites)
    bySalt.set(invite.salt, [...(bySalt.get(invite.salt) ?? []), invite]);
  if (bySalt.size === 0) return null;
  if (
    inviteChecks.activeCount + inviteChecks.pendingCount >=
    INVITE_CHECK_CONCURRENCY + INVITE_CHECK_QUEUE
  )
    throw inviteChecksBusy();
  return inviteChecks(async () => {
    let found: InviteRecord | null = null;
    for (const [salt, group] of bySalt) {
      const actual = await scrypt(normalizeCode(code), Buffer.from(salt, 'base64'));
      for (const invite of group) {
        const expected = Buffer.from(invite.hash, 'base64');
        // Compare against every record (no early exit) so timing does not reveal which one matched.
        if (expected.length === actual.length && timingSafeEqual(expected, actual) && !found)
          found = invite;
      }
    }
    return found;
  });
}

export interface CreateInviteOptions {
  code?: string | undefined;
  maxUses?: number | null | undefined;
  expiresAt?: Date | null | undefined;
  note?: string | undefined;
  now?: Date | undefined;
}

/** Operator path (CLI and tests): stores a new hashed code and returns the plain code once. */
export async function createInvite(
  userData: PremiumStore,
  options: CreateInviteOptions = {},
): Promise<{ id: string; code: string; invite: InviteRecord }> {
  const code = options.code ?? randomCode();
  if (normalizeCode(code).length < 6 || code.length > INVITE_CODE_MAX_LENGTH) {
    throw new Error(`An invite code must be 6 to ${INVITE_CODE_MAX_LENGTH} characters`);
  }
  if (await findInvite(userData, code)) throw new Error('That invite code already exists');
  const existing = await userData.listInvites();
  const sharedSalt =
    existing.length > 0 ? Buffer.from(existing[existing.length - 1]!.salt, 'base64') : undefined;
  const { salt, hash } = await hashCode(code, sharedSalt);
  const now = options.now ?? new Date();
  const invite: InviteRecord = {
    id: randomUUID(),
    salt,
    hash,
    createdAt: now.toISOString(),
    expiresAt: options.expiresAt ? options.expiresAt.toISOString() : null,
    maxUses: options.maxUses ?? null,
    uses: 0,
    ...(options.note ? { note: options.note } : {}),
  };
  await userData.createInvite(invite);
  return { id: invite.id, code, invite };
}
