/**
 * Alerts (api/src/alerts): POST /api/alerts subscribes (double opt-in), the e-mailed links confirm
 * and unsubscribe. The links are opened from a mail client, so they answer a short HTML page
 * saying what happened (with its own CSP: inline style only), also when the link is bad.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { ALERT_KINDS, endpoints } from '@yield/contract';
import type { AppDeps } from '../../deps.ts';
import { escapeHtml } from './messages.ts';
import { binder } from '../../platform/http/bind.ts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import type { RateLimiter } from '../../platform/http/rate-limit.ts';

export const SUBSCRIBE_MESSAGE =
  'Check your inbox: we sent you a link to confirm the alert. Nothing is sent until you confirm.';

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A short HTML page of an e-mailed link, with its own CSP (inline style only), never cached. */
export type HtmlPage<S extends number> = S extends number
  ? { status: S; body: string; headers: Record<string, string> }
  : never;

export function page<S extends number>(
  deps: AppDeps,
  status: S,
  title: string,
  text: string,
): HtmlPage<S> {
  const site = deps.alerts.ctx.publicUrl ?? deps.store.get('settings')?.siteUrl ?? '/';
  const siteTitle = deps.store.get('settings')?.siteTitle ?? 'Pigi';
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
<p><a href="${escapeHtml(site)}">Back to ${escapeHtml(siteTitle)}</a></p>
</main></body></html>
`,
  } as unknown as HtmlPage<S>;
}

/**
 * The 503 page of a link when the user data cannot be written (their file, or the database
 * cannot be reached); the binder adds Retry-After where known (storeFailure).
 */
export const unavailablePage = (deps: AppDeps, what: string) => () =>
  page(deps, 503, 'Try again later', `${what} temporarily unavailable.`);

/** Resolves once the answer to this request has been written (or the client went away). */
export function answered(ctx: Context): Promise<void> {
  const res = ctx.res;
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      resolve();
    };
    res.on('finish', done);
    res.on('close', done);
  });
}

/** What a confirmation link found: the store's answer, or why the link itself is refused. */
type ConfirmOutcome = 'confirmed' | 'unknown' | 'expired' | 'invalid';

/**
 * The page of a confirmation link (alerts, the mailing list): `texts` says what "confirmed" and
 * "unknown" mean for that list; a refused link reads the same for both.
 */
export function confirmPage(
  deps: AppDeps,
  outcome: ConfirmOutcome,
  texts: Record<'confirmed' | 'unknown', [title: string, text: string]>,
): HtmlPage<200 | 400 | 404> {
  if (outcome === 'confirmed') return page(deps, 200, ...texts.confirmed);
  if (outcome === 'unknown') return page(deps, 404, ...texts.unknown);
  return page(
    deps,
    400,
    outcome === 'expired' ? 'Link expired' : 'Invalid link',
    outcome === 'expired'
      ? 'This confirmation link has expired (links are valid 7 days). Subscribe again on the site.'
      : 'This confirmation link is not valid. Open the link from the e-mail exactly as it was sent.',
  );
}

/** The page of an unsubscribe link: `done` says what stops when it worked. */
export function unsubscribePage(deps: AppDeps, ok: boolean, done: string): HtmlPage<200 | 400> {
  if (ok) return page(deps, 200, 'Unsubscribed', done);
  return page(
    deps,
    400,
    'Invalid link',
    'This unsubscribe link is not valid. Open the link from the e-mail exactly as it was sent.',
  );
}

const ALERT_CONFIRM_TEXTS = {
  confirmed: [
    'Alert confirmed',
    'You will get an e-mail when it happens. Every alert has a one-click unsubscribe link.',
  ],
  unknown: [
    'Alert not found',
    'This alert no longer exists (it was unsubscribed). Subscribe again on the site.',
  ],
} satisfies Parameters<typeof confirmPage>[2];
const ALERT_UNSUBSCRIBED = 'You will get no more e-mails for this alert.';

export function alertsRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const bind = binder(router, deps, { limiter });

  bind(endpoints.alertSubscribe).to(
    async ({ body, ctx }) => {
      const sources = deps.store.get('sources');
      if (!sources) throw new AppError(503, 'data_unavailable', 'sources.json has not loaded');
      if (!sources.sources.some((s) => s.id === body.sourceId))
        throw badRequest(`No source with id ${body.sourceId}`, 'unknown_source');
      // The e-mail, if any, leaves after this answer (api/src/modules/alerts/outgoing.ts); a failure of
      // the store is its documented 503 (storeFailure).
      await deps.alerts.subscribe(body, answered(ctx));
      return { status: 202, body: { success: true, message: SUBSCRIBE_MESSAGE } };
    },
    {
      bucket: 'alerts',
      invalid: ({ issues }) => {
        const field = issues[0]?.path[0];
        return field === 'email'
          ? badRequest('A valid email address is required', 'invalid_email')
          : badRequest(
              field === 'kind'
                ? `kind must be one of ${ALERT_KINDS.join(', ')}`
                : 'sourceId must be the id of a source (GET /api/sources)',
              'invalid_request',
            );
      },
    },
  );

  // A missing or malformed token reads as the invalid link it is.
  bind(endpoints.alertConfirm).to(
    async ({ query }) =>
      confirmPage(deps, await deps.alerts.confirm(query.token), ALERT_CONFIRM_TEXTS),
    {
      invalid: () => confirmPage(deps, 'invalid', ALERT_CONFIRM_TEXTS),
      storeFailurePage: unavailablePage(deps, 'Alerts are'),
    },
  );

  bind(endpoints.alertUnsubscribe).to(
    async ({ query }) =>
      unsubscribePage(deps, await deps.alerts.unsubscribe(query.token), ALERT_UNSUBSCRIBED),
    {
      invalid: () => unsubscribePage(deps, false, ALERT_UNSUBSCRIBED),
      storeFailurePage: unavailablePage(deps, 'Alerts are'),
    },
  );

  // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the header's URL.
  const invalidToken = () => badRequest('The unsubscribe link is not valid', 'invalid_token');
  bind(endpoints.alertUnsubscribeOneClick).to(
    async ({ query }) => {
      if (!(await deps.alerts.unsubscribe(query.token))) throw invalidToken();
      return { status: 200, body: { success: true } };
    },
    { invalid: invalidToken },
  );
  return router;
}
