/**
 * Premium tokens: HS256 JWTs. The algorithm is pinned on both sides so `alg: none` and
 * asymmetric-key confusion are refused; the payload carries what the site reads
 * (exp in seconds, accessLevel, email, userId). A token without `exp` is refused: every token
 * ends. A valid signature is not enough either: the token's user must still exist and its invite
 * must not be disabled (PremiumAccess, checked against the user-data store at most a minute ago).
 */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { PremiumUser } from '@yield/contract';
import { assertStrongSecret } from '../../platform/secrets.ts';

export const JWT_ALGORITHM = 'HS256' as const;
export const TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const JWT_SECRET_FILE = '.jwt-secret';
/** How long a check of a token's user and invite in the store is reused (ms). */
export const ACCESS_CACHE_MS = 60_000;

export interface PremiumClaims {
  sub: string;
  userId: string;
  email: string | null;
  accessLevel: 'premium';
  iat?: number;
  exp?: number;
}

export function signPremiumToken(
  user: PremiumUser,
  secret: string,
  ttlSeconds = TOKEN_TTL_SECONDS,
): string {
  const claims: PremiumClaims = {
    sub: user.userId,
    userId: user.userId,
    email: user.email,
    accessLevel: 'premium',
  };
  return jwt.sign(claims, secret, { algorithm: JWT_ALGORITHM, expiresIn: ttlSeconds });
}

/**
 * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to read it as a
 * public key and only makes a secret key after that throws, which costs ~2 ms per verification
 * (the scanner verifies the token of every premium request).
 */
const secretKeys = new Map<string, KeyObject>();
function secretKeyOf(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    secretKeys.set(secret, key);
  }
  return key;
}

/** Verifies a token outside koa-jwt (premiumLogin and the scanner read an optional bearer token). */
export function verifyPremiumToken(token: string, secret: string): PremiumClaims | null {
  try {
    const claims = jwt.verify(token, secretKeyOf(secret), { algorithms: [JWT_ALGORITHM] });
    return isPremiumClaims(claims) ? claims : null;
  } catch {
    return null;
  }
}

export function isPremiumClaims(value: unknown): value is PremiumClaims {
  const c = value as Partial<PremiumClaims> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.accessLevel === 'premium' &&
    typeof c.sub === 'string' &&
    c.sub.length > 0 &&
    (c.userId === undefined || c.userId === c.sub) &&
    // jsonwebtoken checks exp only when present: a token without it would never end.
    typeof c.exp === 'number' &&
    Number.isFinite(c.exp)
  );
}

/**
 * Whether the user a token names still has premium access: it exists in the store and its invite
 * is not disabled. The answer is kept ACCESS_CACHE_MS (default), so deleting the user or running
 * invite:disable refuses its tokens within that time on every process, whatever the store.
 */
export class PremiumAccess {
  private readonly cache = new Map<string, { active: boolean; at: number }>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly check: (userId: string) => Promise<boolean>,
    private readonly ttlMs: number = ACCESS_CACHE_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Rejects when the store cannot answer (the caller answers 503); nothing is cached then. */
  async active(userId: string): Promise<boolean> {
    const now = this.clock();
    const hit = this.cache.get(userId);
    if (hit && now - hit.at < this.ttlMs && now >= hit.at) return hit.active;
    let running = this.pending.get(userId);
    if (!running) {
      running = this.check(userId).finally(() => this.pending.delete(userId));
      this.pending.set(userId, running);
    }
    const active = await running;
    // Bounded: entries are only made for validly signed tokens; old ones are dropped in bulk.
    if (this.cache.size >= 50_000) this.cache.clear();
    this.cache.set(userId, { active, at: now });
    return active;
  }
}

/**
 * The secret kept in `file` (trimmed), else `make()` written there once (mode 0600, 'wx': if two
 * processes start at once, the second reads the first one's). A file holding fewer than
 * MIN_SECRET_BYTES stops the start instead of being used or silently replaced.
 */
export async function readOrCreateSecretFile(file: string, make: () => string): Promise<string> {
  const read = async (): Promise<string | null> => {
    try {
      const existing = (await readFile(file, 'utf8')).trim();
      assertStrongSecret(file, existing);
      return existing;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  };
  const existing = await read();
  if (existing !== null) return existing;
  const secret = make();
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      const other = await read();
      if (other !== null) return other;
    }
    throw e;
  }
}

/**
 * JWT_SECRET from the environment wins (at least MIN_SECRET_BYTES, else the start stops);
 * otherwise one random secret is generated into the data directory on first start (git-ignored)
 * and reused, so tokens survive restarts.
 */
export async function loadOrCreateSecret(
  dataDir: string,
  fromEnv: string | undefined,
): Promise<string> {
  if (fromEnv && fromEnv.length > 0) {
    assertStrongSecret('JWT_SECRET', fromEnv);
    return fromEnv;
  }
  return readOrCreateSecretFile(path.join(dataDir, JWT_SECRET_FILE), () =>
    randomBytes(48).toString('base64url'),
  );
}
