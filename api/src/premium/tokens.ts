/**
 * Premium tokens: HS256 JWTs. The algorithm is pinned on both sides so `alg: none` and
 * asymmetric-key confusion are refused; the payload carries what the site reads
 * (exp in seconds, accessLevel, email, userId).
 */
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { PremiumUser } from '@yield/contract';

export const JWT_ALGORITHM = 'HS256' as const;
export const TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const JWT_SECRET_FILE = '.jwt-secret';

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
    (c.userId === undefined || c.userId === c.sub)
  );
}

/**
 * JWT_SECRET from the environment wins; otherwise one random secret is generated into the data
 * directory on first start (git-ignored) and reused, so tokens survive restarts.
 */
export async function loadOrCreateSecret(
  dataDir: string,
  fromEnv: string | undefined,
): Promise<string> {
  if (fromEnv && fromEnv.length > 0) return fromEnv;
  const file = path.join(dataDir, JWT_SECRET_FILE);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const secret = randomBytes(48).toString('base64url');
  try {
    // 'wx': if two processes start at once, the second reads the first one's secret.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      return (await readFile(file, 'utf8')).trim();
    throw e;
  }
}
