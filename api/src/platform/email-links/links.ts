/**
 * The signed links of every e-mail (alerts, the mailing list, premium sign-in): a platform part,
 * owned by no module.
 *
 * The signed links of alert e-mails: confirm (valid CONFIRM_TTL_MS) and unsubscribe (no expiry:
 * an old alert's link must still work). A token is `<payload>.<signature>`, both base64url; the
 * payload is `<action>.<subscription id>.<expiry in s, 0 for none>` and the signature its
 * HMAC-SHA256 under the alerts secret, compared in constant time.
 *
 * The secret is ALERTS_SECRET when set (at least 32 bytes, else the start stops). Without it, the
 * secret is kept in the data directory (`.alerts-secret`, written once at the first start, see
 * api/src/composition/deps.ts) and made by deriving it from the JWT secret of that moment, which is what links
 * were signed with before the file existed: rotating JWT_SECRET later does not touch it, so links
 * already sent keep working. Changing ALERTS_SECRET or deleting the file invalidates them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type LinkAction = 'confirm' | 'unsubscribe';

export const CONFIRM_TTL_MS = 7 * 24 * 3_600_000;

/** The shortest ALERTS_SECRET accepted, in bytes. */
export const MIN_ALERTS_SECRET_BYTES = 32;

/**
 * The secret links are signed with: ALERTS_SECRET (refused when shorter than
 * MIN_ALERTS_SECRET_BYTES), else one derived from `jwtSecret` (composition/deps.ts pins it into the data
 * directory at the first start, so it does not follow later changes of the JWT secret).
 */
export function alertsSecret(jwtSecret: string, explicit: string | undefined): string {
  if (explicit !== undefined && explicit.trim() !== '') {
    const bytes = Buffer.byteLength(explicit, 'utf8');
    if (bytes < MIN_ALERTS_SECRET_BYTES)
      throw new Error(
        `ALERTS_SECRET must be at least ${MIN_ALERTS_SECRET_BYTES} bytes long (it has ${bytes}); generate one with: openssl rand -base64 48`,
      );
    return explicit;
  }
  return createHmac('sha256', jwtSecret).update('pigi alert links v1').digest('base64url');
}

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest();

export function signAlertToken(
  secret: string,
  action: LinkAction,
  subscriptionId: string,
  expiresAt: Date | null,
): string {
  const exp = expiresAt === null ? 0 : Math.ceil(expiresAt.getTime() / 1000);
  const payload = `${action}.${subscriptionId}.${exp}`;
  return `${Buffer.from(payload).toString('base64url')}.${sign(secret, payload).toString('base64url')}`;
}

export type TokenCheck =
  { ok: true; subscriptionId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** The subscription a token names, if it is intact, made for `action` and not expired. */
export function verifyAlertToken(
  secret: string,
  action: LinkAction,
  token: string,
  now: Date,
): TokenCheck {
  const invalid: TokenCheck = { ok: false, reason: 'invalid' };
  const parts = token.split('.');
  if (parts.length !== 2 || !/^[\w-]+$/.test(parts[0]!) || !/^[\w-]+$/.test(parts[1]!))
    return invalid;
  const payload = Buffer.from(parts[0]!, 'base64url').toString('utf8');
  // Only the spellings signAlertToken writes: base64url has several spellings of the same bytes
  // (the last character's unused bits), and a link changed by a character is not the one sent.
  if (Buffer.from(payload).toString('base64url') !== parts[0]) return invalid;
  const given = Buffer.from(parts[1]!);
  const expected = Buffer.from(sign(secret, payload).toString('base64url'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  const m = /^(confirm|unsubscribe)\.([\w-]{1,100})\.(\d{1,12})$/.exec(payload);
  if (!m || m[1] !== action) return invalid;
  const exp = Number(m[3]);
  if (exp !== 0 && now.getTime() >= exp * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, subscriptionId: m[2]! };
}

/** The public address of an e-mailed link: `<site URL>/api/alerts/<action>?token=…`. */
export function alertLink(siteUrl: string, path: string, token: string): string {
  const url = new URL(path.replace(/^\//, ''), siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`);
  url.searchParams.set('token', token);
  return url.toString();
}
