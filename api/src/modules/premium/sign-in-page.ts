/**
 * The pages of the sign-in links (sign-in.ts): what GET /api/premium/sign-in?token=… answers when
 * the link is opened, and what the button of a used or expired link (POST to the same address)
 * answers.
 *
 * A page is small HTML with its own CSP (inline style; the signed-in page adds one script allowed
 * by its hash, which stores a fresh premium token under `premiumToken` in the browser, as the site
 * does after a login, and goes to the home page `/`; the site serves /api on its own origin). The
 * page of a used or expired link carries a form that posts back the link's token: a new link goes
 * to the address the old one went to, never anywhere else, within the caps of every sign-in link,
 * and a form is sent by a person, not by a program that opens the links of e-mails.
 */
import { createHash } from 'node:crypto';
import { API_PATHS, type PremiumUser } from '@yield/contract';
import { escapeHtml } from '../../platform/email-links/html.ts';
import type { HtmlPage } from '../../platform/email-links/pages.ts';
import { siteOf, type SignInDeps, type SignInLinks } from './sign-in.ts';
import type { PremiumStore } from './store.ts';
import { signPremiumToken } from './tokens.ts';

const SIGN_IN_SCRIPT =
  "var s=JSON.parse(document.getElementById('premium-session').textContent);" +
  "try{localStorage.setItem('premiumToken',s.token)}catch(e){}" +
  'location.replace(s.home);';
const SCRIPT_HASH = createHash('sha256').update(SIGN_IN_SCRIPT).digest('base64');
const csp = (formAction: "'none'" | "'self'") =>
  `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action ${formAction}`;

/** JSON safe inside a <script> element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f1f1f}a{color:#0958d9}' +
  'button{font:inherit;padding:.5rem 1rem;border:0;border-radius:6px;background:#0958d9;color:#fff;cursor:pointer}';

/** What the pages of sign-in links take: sign-in's, the tokens' key and lifetime, the caps. */
export interface SignInPageDeps extends SignInDeps {
  userData: SignInDeps['userData'] & Pick<PremiumStore, 'requestSignInMail'>;
  jwtSecret: string;
  tokenTtlSeconds: number;
}

export interface PageExtras {
  /** Signed in: the script that stores this user's fresh token and goes home. */
  session?: { user: PremiumUser };
  /** A used or expired link: the form that asks for a new one with this token. */
  renewToken?: string;
}

/**
 * The page of the link: a short text, and with `session` the script that stores its token and
 * goes home (the text says what to do without JavaScript), or with `renewToken` the button that
 * asks for a new link.
 */
export function signInPage<S extends number>(
  deps: SignInPageDeps,
  status: S,
  title: string,
  text: string,
  extras: PageExtras = {},
): HtmlPage<S> {
  const site = siteOf(deps);
  // The page's own origin: where the token was stored (the site serves /api itself).
  const home = '/';
  const headers = {
    'Content-Security-Policy': csp(extras.renewToken ? "'self'" : "'none'"),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  };
  const script = extras.session
    ? `<script type="application/json" id="premium-session">${scriptJson({
        token: signPremiumToken(extras.session.user, deps.jwtSecret, deps.tokenTtlSeconds),
        home,
      })}</script>
<script>${SIGN_IN_SCRIPT}</script>`
    : '';
  const form = extras.renewToken
    ? `<form method="post" action="${escapeHtml(
        `${API_PATHS.premiumSignInRenew}?token=${encodeURIComponent(extras.renewToken)}`,
      )}"><button type="submit">Send me a new link</button></form>`
    : '';
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(site.siteTitle)}</title>
<style>${STYLE}</style>
</head><body><main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
${form}
<p><a href="${escapeHtml(home)}">Go to ${escapeHtml(site.siteTitle)}</a></p>
</main>
${script}
</body></html>
`;
  return { status, headers, body } as unknown as HtmlPage<S>;
}

const INVALID_TEXT =
  'This sign-in link is not valid. Open the link from the e-mail exactly as it was sent.';
const UNKNOWN_TEXT =
  'This premium account no longer exists, or its invite code was disabled, or its e-mail changed.';

export const invalidLinkPage = (deps: SignInPageDeps) =>
  signInPage(deps, 400, 'Invalid link', INVALID_TEXT);

export const unavailableSignInPage = (deps: SignInPageDeps) => () =>
  signInPage(deps, 503, 'Try again later', 'Premium access is temporarily unavailable.');

/** GET of a sign-in link: signs in the first time, then says it was used. */
export async function openSignInLink(deps: SignInPageDeps, links: SignInLinks, token: string) {
  const found = await links.check(token);
  if (found.ok) {
    if (!(await links.consume(found)))
      return signInPage(
        deps,
        410,
        'Link already used',
        'This sign-in link has already been used: each link signs in once. To sign in here, ask for a new link; it goes to the same address.',
        { renewToken: token },
      );
    const user = { userId: found.user.userId, email: found.user.email, accessLevel: 'premium' };
    return signInPage(
      deps,
      200,
      'Signed in',
      'You are signed in to premium. Taking you to the site…',
      {
        session: { user: user as PremiumUser },
      },
    );
  }
  if (found.reason === 'unknown') return signInPage(deps, 404, 'Account not found', UNKNOWN_TEXT);
  if (found.reason === 'invalid') return invalidLinkPage(deps);
  const renewable = (await links.check(token, true)).ok;
  return signInPage(
    deps,
    400,
    'Link expired',
    renewable
      ? 'This sign-in link has expired (links work for one hour). Ask for a new one; it goes to the same address.'
      : 'This sign-in link has expired (links work for one hour). Log in again with your invite code and e-mail for a new one.',
    renewable ? { renewToken: token } : {},
  );
}

/** POST of the button of a used or expired link: a new link to the same address, within the caps. */
export async function renewSignInLink(
  deps: SignInPageDeps,
  links: SignInLinks,
  token: string,
  answered: Promise<void>,
) {
  const found = await links.check(token, true);
  if (!found.ok) {
    if (found.reason === 'unknown') return signInPage(deps, 404, 'Account not found', UNKNOWN_TEXT);
    if (found.reason === 'invalid') return invalidLinkPage(deps);
    return signInPage(
      deps,
      400,
      'Link expired',
      'This sign-in link is too old to ask for a new one. Log in again with your invite code and e-mail.',
    );
  }
  const email = found.user.email!;
  if (!(await deps.userData.requestSignInMail({ email, now: deps.now() })))
    return signInPage(
      deps,
      200,
      'Check your inbox',
      'A sign-in link was sent to your address less than 10 minutes ago (at most one every 10 minutes, five a day): open the newest e-mail, or try again later.',
    );
  links.send(found.user, email, answered);
  return signInPage(
    deps,
    202,
    'New link on its way',
    'We are e-mailing a new sign-in link to your address. It works once, for one hour.',
  );
}
