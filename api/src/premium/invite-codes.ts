/**
 * Invite codes are stored only as scrypt hashes with a per-code salt, so a leaked invites.json
 * does not hand out premium access. Codes are compared case-insensitively and without
 * surrounding spaces, because people type them from an e-mail.
 */
import { randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { InviteRecord } from '../data/schemas.ts';
import type { ApiStore } from '../data/files.ts';

const KEY_LENGTH = 32;
/** N = 2^14 (16 MiB): ~30 ms per check on these machines, slow enough to make guessing costly. */
const SCRYPT_OPTIONS: ScryptOptions = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
export const MAX_CODE_LENGTH = 128;

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, KEY_LENGTH, SCRYPT_OPTIONS, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export async function hashCode(code: string): Promise<{ salt: string; hash: string }> {
  const salt = randomBytes(16);
  const hash = await scrypt(normalizeCode(code), salt);
  return { salt: salt.toString('base64'), hash: hash.toString('base64') };
}

export async function codeMatches(code: string, invite: Pick<InviteRecord, 'salt' | 'hash'>): Promise<boolean> {
  const expected = Buffer.from(invite.hash, 'base64');
  const actual = await scrypt(normalizeCode(code), Buffer.from(invite.salt, 'base64'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Unambiguous alphabet (no 0/O, 1/I/L) for codes read aloud or retyped. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function randomCode(groups = 3, groupLength = 4): string {
  const bytes = randomBytes(groups * groupLength);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  const parts: string[] = [];
  for (let g = 0; g < groups; g++) parts.push(chars.slice(g * groupLength, (g + 1) * groupLength).join(''));
  return `YIELD-${parts.join('-')}`;
}

export type InviteCheck =
  | { ok: true; invite: InviteRecord }
  | { ok: false; reason: 'invalid' | 'expired' | 'exhausted' };

export function inviteUsable(invite: InviteRecord, now: Date): InviteCheck {
  if (invite.expiresAt !== null && Date.parse(invite.expiresAt) <= now.getTime()) return { ok: false, reason: 'expired' };
  if (invite.maxUses !== null && invite.uses >= invite.maxUses) return { ok: false, reason: 'exhausted' };
  return { ok: true, invite };
}

/** Finds the invite a code belongs to (re-reading invites.json first so new codes work at once). */
export async function findInvite(store: ApiStore, code: string): Promise<InviteRecord | null> {
  await store.refreshFile('invites');
  const invites = (store.get('invites')?.invites ?? []).filter((i) => !i.disabled);
  if (code.length === 0 || code.length > MAX_CODE_LENGTH) return null;
  const matches = await Promise.all(invites.map((i) => codeMatches(code, i)));
  const index = matches.indexOf(true);
  return index >= 0 ? invites[index]! : null;
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
  store: ApiStore,
  options: CreateInviteOptions = {},
): Promise<{ id: string; code: string; invite: InviteRecord }> {
  const code = options.code ?? randomCode();
  if (normalizeCode(code).length < 6 || code.length > MAX_CODE_LENGTH) {
    throw new Error(`An invite code must be 6 to ${MAX_CODE_LENGTH} characters`);
  }
  if (await findInvite(store, code)) throw new Error('That invite code already exists');
  const { salt, hash } = await hashCode(code);
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
  await store.mutate('invites', (data) => {
    data.invites.push(invite);
    return { result: undefined, changed: true };
  });
  return { id: invite.id, code, invite };
}
