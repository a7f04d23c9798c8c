/**
 * Sign-in links: when POST /api/premiumLogin is sent, without that user's token, an email already
 * bound to a user of the code, the answer carries no token; a link is mailed to that address
 * instead, and whoever can read that mailbox signs in by opening it.
 *
 * The link is `<site>/api/premium/sign-in?token=…`, signed and checked like the alerts' links
 * (api/src/modules/alerts/links.ts: HMAC-SHA256, constant-time comparison, an expiry) under a key derived
 * from the alerts' key, so no alert link is a sign-in link. It names the user and a hash of the
 * email it was sent to, and is valid SIGN_IN_TTL_MS: a user deleted, a code disabled or an email
 * changed since makes it useless. It is sent through the alerts' mailer (SMTP_URL, else the
 * outbox folder), at most once per user every SIGN_IN_RESEND_MS per process.
 *
 * Opening it answers a small HTML page (its own CSP: inline style, and one script allowed by its
 * hash) that stores a fresh premium token under `premiumToken` in the browser (the site serves
 * /api on its own origin), as the site does after a login, and goes to the home page `/`.
 */
import { createHash, createHmac } from 'node:crypto';
import { API_PATHS, type PremiumUser } from '@yield/contract';
import type { AppDeps } from '../../deps.ts';
import type { UserRecord } from './schemas.ts';
import { alertLink, signAlertToken, verifyAlertToken } from '../alerts/links.ts';
import { escapeHtml } from '../alerts/messages.ts';
import type { HtmlPage } from '../alerts/routes.ts';
import { signPremiumToken } from './tokens.ts';

export const SIGN_IN_TTL_MS = 3_600_000;
export const SIGN_IN_RESEND_MS = 10 * 60_000;
export const SIGN_IN_SENT_MESSAGE =
  'This email already has a premium account: we sent it a sign-in link (valid 1 hour).';

const HASH_LENGTH = 22;
const emailHash = (email: string) =>
  createHash('sha256').update(email.toLowerCase()).digest('base64url').slice(0, HASH_LENGTH);

/** The key of the sign-in links, derived from the alerts' link key. */
export function signInSecret(alertsKey: string): string {
  return createHmac('sha256', alertsKey).update('premium sign-in links v1').digest('base64url');
}

function siteOf(deps: AppDeps) {
  const settings = deps.store.get('settings');
  const siteTitle = settings?.siteTitle ?? 'Pigi';
  return {
    siteUrl: deps.alerts.ctx.publicUrl ?? settings?.siteUrl ?? null,
    siteTitle,
    from:
      deps.alerts.ctx.from ?? `${siteTitle} <${settings?.siteContactEmail ?? 'premium@localhost'}>`,
  };
}

export class SignInLinks {
  private readonly secret: string;
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly deps: AppDeps) {
    this.secret = signInSecret(deps.alerts.ctx.secret);
  }

  /** The link for `user` at `email`, valid SIGN_IN_TTL_MS from now. */
  link(user: UserRecord, email: string, siteUrl: string): string {
    const expires = new Date(this.deps.now().getTime() + SIGN_IN_TTL_MS);
    const token = signAlertToken(
      this.secret,
      'confirm',
      `${user.userId}_${emailHash(email)}`,
      expires,
    );
    return alertLink(siteUrl, API_PATHS.premiumSignIn, token);
  }

  /**
   * Mails a sign-in link to `email` (the address of `user`), unless one went to this user less
   * than SIGN_IN_RESEND_MS ago. Never rejects: a failure is logged (the caller does not wait).
   */
  async send(user: UserRecord, email: string): Promise<void> {
    const now = this.deps.now().getTime();
    const last = this.lastSent.get(user.userId);
    if (last !== undefined && now - last < SIGN_IN_RESEND_MS && now >= last) return;
    this.lastSent.set(user.userId, now);
    if (this.lastSent.size > 10_000) this.lastSent.clear();
    try {
      const site = siteOf(this.deps);
      if (!site.siteUrl) throw new Error('settings.json has not loaded and PUBLIC_URL is not set');
      const url = this.link(user, email, site.siteUrl);
      await this.deps.alerts.ctx.mailer.send({
        from: site.from,
        to: email,
        subject: `Sign in to ${site.siteTitle} premium`,
        text: [
          `Someone (hopefully you) asked to sign in to ${site.siteTitle} premium with this address.`,
          '',
          `Sign in: ${url}`,
          '',
          'The link works for one hour. If you did not ask for it, ignore this e-mail: nothing happens without a click.',
        ].join('\n'),
        html: `<p>Someone (hopefully you) asked to sign in to ${escapeHtml(site.siteTitle)} premium with this address.</p>
<p><a href="${escapeHtml(url)}">Sign in</a></p>
<p>The link works for one hour. If you did not ask for it, ignore this e-mail: nothing happens without a click.</p>`,
      });
    } catch (err) {
      this.lastSent.delete(user.userId);
      this.deps.logger.error('premium sign-in e-mail not sent', { error: (err as Error).message });
    }
  }

  /** The user a link names, if it is intact, not expired, and still matches that user's email. */
  async userOf(
    token: string,
  ): Promise<
    { ok: true; user: UserRecord } | { ok: false; reason: 'invalid' | 'expired' | 'unknown' }
  > {
    const check = verifyAlertToken(this.secret, 'confirm', token, this.deps.now());
    if (!check.ok) return check;
    const id = check.subscriptionId;
    const userId = id.slice(0, -(HASH_LENGTH + 1));
    const hash = id.slice(-HASH_LENGTH);
    if (id[id.length - HASH_LENGTH - 1] !== '_' || userId.length === 0)
      return { ok: false, reason: 'invalid' };
    const user = await this.deps.userData.activePremiumUser(userId);
    if (!user || user.email === null || emailHash(user.email) !== hash)
      return { ok: false, reason: 'unknown' };
    return { ok: true, user };
  }
}

const SIGN_IN_SCRIPT =
  "var s=JSON.parse(document.getElementById('premium-session').textContent);" +
  "try{localStorage.setItem('premiumToken',s.token)}catch(e){}" +
  'location.replace(s.home);';
const SCRIPT_HASH = createHash('sha256').update(SIGN_IN_SCRIPT).digest('base64');
const PAGE_CSP = `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** JSON safe inside a <script> element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page of the link: a short text, and with `session` the script that stores its token and
 * goes home (the text says what to do without JavaScript).
 */
export function signInPage<S extends number>(
  deps: AppDeps,
  status: S,
  title: string,
  text: string,
  session?: { user: PremiumUser },
): HtmlPage<S> {
  const site = siteOf(deps);
  // The page's own origin: where the token was stored (the site serves /api itself).
  const home = '/';
  const headers = {
    'Content-Security-Policy': PAGE_CSP,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  };
  const script = session
    ? `<script type="application/json" id="premium-session">${scriptJson({
        token: signPremiumToken(session.user, deps.jwtSecret, deps.tokenTtlSeconds),
        home,
      })}</script>
<script>${SIGN_IN_SCRIPT}</script>`
    : '';
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(site.siteTitle)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f1f1f}a{color:#0958d9}</style>
</head><body><main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(home)}">Go to ${escapeHtml(site.siteTitle)}</a></p>
</main>
${script}
</body></html>
`;
  return { status, headers, body } as unknown as HtmlPage<S>;
}
