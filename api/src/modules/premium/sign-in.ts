/**
 * Sign-in links: POST /api/premiumLogin without the caller's own token never answers a token. It
 * mails a sign-in link to the address instead (the user already registered with it, or the one the
 * request just created), and whoever can read that mailbox signs in by opening it.
 *
 * The link is `<site>/api/premium/sign-in?token=…`, signed and checked like the alerts' links
 * (api/src/platform/email-links/links.ts: HMAC-SHA256, constant-time comparison, an expiry) under a key
 * derived from the alerts' key, so no alert link is a sign-in link. It names the user, a hash of
 * the email it was sent to and a random link id, and is valid SIGN_IN_TTL_MS: a user deleted, a
 * code disabled or an email changed since makes it useless. It works once: the first open spends
 * its id in the user-data store (`consumeSignInLink`, atomic in both stores), and every later open
 * answers a page that says so, with a button that asks for a new link (sign-in-page.ts).
 *
 * Its e-mails are counted by the store with the confirmation e-mails, in their own scope
 * (PREMIUM_SIGN_IN_SCOPE, api/src/modules/confirmations/port.ts: one per address every 10 minutes,
 * 5 a day), so the cap holds across processes and restarts; the request that asks for one only
 * records the store's decision, and the e-mail leaves after the answer through the alerts' mail
 * queue (SMTP_URL, else the outbox folder; tried again on failure).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { API_PATHS } from '@yield/contract';
import type { UserRecord } from './schemas.ts';
import type { PremiumStore } from './store.ts';
import type { AlertService } from '../alerts/index.ts';
import type { SettingsFile } from '../yields/index.ts';
import { alertLink, signAlertToken, verifyAlertToken } from '../../platform/email-links/links.ts';
import { escapeHtml } from '../../platform/email-links/html.ts';

export const SIGN_IN_TTL_MS = 3_600_000;
/** A used or expired link may still ask for a new one (to the same address) this long after it expired. */
export const SIGN_IN_RENEW_MS = 7 * 24 * 3_600_000;
/** The answer of premiumLogin without the caller's own token, whether or not the email was registered. */
export const SIGN_IN_SENT_MESSAGE =
  'Check your inbox: we are e-mailing a sign-in link to this address (valid 1 hour, it works once).';

const HASH_LENGTH = 22;
const LINK_ID_BYTES = 16; // 22 base64url characters
const emailHash = (email: string) =>
  createHash('sha256').update(email.toLowerCase()).digest('base64url').slice(0, HASH_LENGTH);
/** `<userId>_<hash of the email>_<link id>`, the id the signed token carries. */
const LINK_SUBJECT = /^(.+)_([\w-]{22})_([\w-]{22})$/;

/** The key of the sign-in links, derived from the alerts' link key (v2: links carry an id). */
export function signInSecret(alertsKey: string): string {
  return createHmac('sha256', alertsKey).update('premium sign-in links v2').digest('base64url');
}

/**
 * What sign-in links take: the mail side of the alert service (its link key, public URL, sender
 * and outgoing e-mails), the site's settings, the premium users, the clock.
 */
export interface SignInDeps {
  alerts: Pick<AlertService, 'ctx' | 'outgoing'>;
  store: { get(key: 'settings'): SettingsFile | null };
  userData: Pick<PremiumStore, 'activePremiumUser' | 'consumeSignInLink'>;
  now(): Date;
}

/** The site's title, public URL and the sender of its e-mails. */
export function siteOf(deps: Pick<SignInDeps, 'alerts' | 'store'>) {
  const settings = deps.store.get('settings');
  const siteTitle = settings?.siteTitle ?? 'Pigi';
  return {
    siteUrl: deps.alerts.ctx.publicUrl ?? settings?.siteUrl ?? null,
    siteTitle,
    from:
      deps.alerts.ctx.from ?? `${siteTitle} <${settings?.siteContactEmail ?? 'premium@localhost'}>`,
  };
}

/** What a link names: its user (still with that email) and its id; or why it is refused. */
export type LinkCheck =
  | { ok: true; user: UserRecord; linkId: string }
  | { ok: false; reason: 'invalid' | 'expired' | 'unknown' };

export class SignInLinks {
  private readonly secret: string;

  constructor(private readonly deps: SignInDeps) {
    this.secret = signInSecret(deps.alerts.ctx.secret);
  }

  /** A new link (a new id) for `user` at `email`, valid SIGN_IN_TTL_MS from now. */
  link(user: UserRecord, email: string, siteUrl: string): string {
    const expires = new Date(this.deps.now().getTime() + SIGN_IN_TTL_MS);
    const id = randomBytes(LINK_ID_BYTES).toString('base64url');
    const subject = `${user.userId}_${emailHash(email)}_${id}`;
    const token = signAlertToken(this.secret, 'confirm', subject, expires);
    return alertLink(siteUrl, API_PATHS.premiumSignIn, token);
  }

  /**
   * Mails a new link to `email` (the address of `user`) once `answered` resolves: the caller has
   * had the store count it (the caps). Never throws; a failed send is logged and tried again.
   */
  send(user: UserRecord, email: string, answered: Promise<void>): void {
    let url: string | undefined;
    this.deps.alerts.outgoing.enqueue(
      'premium sign-in',
      () => {
        const site = siteOf(this.deps);
        if (!site.siteUrl)
          throw new Error('settings.json has not loaded and PUBLIC_URL is not set');
        url ??= this.link(user, email, site.siteUrl);
        return { from: site.from, to: email, ...signInMail(site.siteTitle, url) };
      },
      answered,
    );
  }

  /**
   * The user a link names, if it is intact, not expired (with `renew`: expired less than
   * SIGN_IN_RENEW_MS ago), and that user still has the email it was sent to.
   */
  async check(token: string, renew = false): Promise<LinkCheck> {
    const now = this.deps.now().getTime();
    const at = new Date(renew ? now - SIGN_IN_RENEW_MS : now);
    const verified = verifyAlertToken(this.secret, 'confirm', token, at);
    if (!verified.ok) return verified;
    const parts = LINK_SUBJECT.exec(verified.subscriptionId);
    if (!parts) return { ok: false, reason: 'invalid' };
    const [, userId, hash, linkId] = parts as unknown as [string, string, string, string];
    const user = await this.deps.userData.activePremiumUser(userId);
    if (!user || user.email === null || emailHash(user.email) !== hash)
      return { ok: false, reason: 'unknown' };
    return { ok: true, user, linkId };
  }

  /** Spends the link: true the first time, in any process; false once it was used. */
  consume(link: { user: UserRecord; linkId: string }): Promise<boolean> {
    const now = this.deps.now();
    return this.deps.userData.consumeSignInLink({
      id: link.linkId,
      userId: link.user.userId,
      // Every link is issued at the latest now, so it has expired by then.
      expiresAt: new Date(now.getTime() + SIGN_IN_TTL_MS),
      now,
    });
  }
}

/** The e-mail of a sign-in link. */
function signInMail(
  siteTitle: string,
  url: string,
): { subject: string; text: string; html: string } {
  const ask = `Someone (hopefully you) asked to sign in to ${siteTitle} premium with this address.`;
  const note =
    'The link works once, for one hour. If you did not ask for it, ignore this e-mail: nothing happens without a click.';
  return {
    subject: `Sign in to ${siteTitle} premium`,
    text: [ask, '', `Sign in: ${url}`, '', note].join('\n'),
    html: `<p>${escapeHtml(ask)}</p>
<p><a href="${escapeHtml(url)}">Sign in</a></p>
<p>${escapeHtml(note)}</p>`,
  };
}
