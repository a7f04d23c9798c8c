/**
 * The short HTML pages an e-mailed link answers (alerts, the mailing list): opened from a mail
 * client, with their own CSP (inline style only), never cached, also when the link is bad.
 */
import { escapeHtml } from './html.ts';

/** The site the pages link back to: its address (PUBLIC_URL, else settings.json) and title. */
export type LinkSite = () => { url: string; title: string };

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A short HTML page of an e-mailed link, with its own CSP (inline style only), never cached. */
export type HtmlPage<S extends number> = S extends number
  ? { status: S; body: string; headers: Record<string, string> }
  : never;

export function page<S extends number>(
  site: LinkSite,
  status: S,
  title: string,
  text: string,
): HtmlPage<S> {
  const { url, title: siteTitle } = site();
  return {
    status,
    headers: { 'Content-Security-Policy': PAGE_CSP, 'Cache-Control': 'no-store' },
    body: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(siteTitle)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f1f1f}a{color:#0958d9}</style>
</head><body><main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(url)}">Back to ${escapeHtml(siteTitle)}</a></p>
</main></body></html>
`,
  } as unknown as HtmlPage<S>;
}

/**
 * The 503 page of a link when the user data cannot be written (their file, or the database
 * cannot be reached); the binder adds Retry-After where known (storeFailure).
 */
export const unavailablePage = (site: LinkSite, what: string) => () =>
  page(site, 503, 'Try again later', `${what} temporarily unavailable.`);

/** What a confirmation link found: the store's answer, or why the link itself is refused. */
type ConfirmOutcome = 'confirmed' | 'unknown' | 'expired' | 'invalid';

/**
 * The page of a confirmation link (alerts, the mailing list): `texts` says what "confirmed" and
 * "unknown" mean for that list; a refused link reads the same for both.
 */
export function confirmPage(
  site: LinkSite,
  outcome: ConfirmOutcome,
  texts: Record<'confirmed' | 'unknown', [title: string, text: string]>,
): HtmlPage<200 | 400 | 404> {
  if (outcome === 'confirmed') return page(site, 200, ...texts.confirmed);
  if (outcome === 'unknown') return page(site, 404, ...texts.unknown);
  return page(
    site,
    400,
    outcome === 'expired' ? 'Link expired' : 'Invalid link',
    outcome === 'expired'
      ? 'This confirmation link has expired (links are valid 7 days). Subscribe again on the site.'
      : 'This confirmation link is not valid. Open the link from the e-mail exactly as it was sent.',
  );
}

/** The page of an unsubscribe link: `done` says what stops when it worked. */
export function unsubscribePage(site: LinkSite, ok: boolean, done: string): HtmlPage<200 | 400> {
  if (ok) return page(site, 200, 'Unsubscribed', done);
  return page(
    site,
    400,
    'Invalid link',
    'This unsubscribe link is not valid. Open the link from the e-mail exactly as it was sent.',
  );
}
