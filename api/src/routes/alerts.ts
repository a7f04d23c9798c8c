/**
 * Alerts (api/src/alerts): POST /api/alerts subscribes (double opt-in), the e-mailed links confirm
 * and unsubscribe. The links are opened from a mail client, so they answer a short HTML page
 * saying what happened (with its own CSP: inline style only), also when the link is bad.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { ALERT_KINDS, alertSubscribeRequestSchema, endpoints } from '@yield/contract';
import type { AppDeps } from '../deps.ts';
import { escapeHtml } from '../alerts/messages.ts';
import { AppError, badRequest, logStoreFailure, storeFailure } from '../http/errors.ts';
import { jsonBody } from '../http/middleware.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { routePath } from '../http/route-path.ts';

export const SUBSCRIBE_MESSAGE =
  'Check your inbox: we sent you a link to confirm the alert. Nothing is sent until you confirm.';

const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function page(
  ctx: Context,
  deps: AppDeps,
  status: number,
  title: string,
  text: string,
): void {
  const site = deps.alerts.ctx.publicUrl ?? deps.store.get('settings')?.siteUrl ?? '/';
  const siteTitle = deps.store.get('settings')?.siteTitle ?? 'Pigi';
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(siteTitle)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f1f1f}a{color:#0958d9}</style>
</head><body><main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(site)}">Back to ${escapeHtml(siteTitle)}</a></p>
</main></body></html>
`;
}

export const tokenOf = (ctx: Context) =>
  typeof ctx.query.token === 'string' ? ctx.query.token : '';

/**
 * Runs a link's action; when the user data cannot be written (storeFailure: its file, or the
 * database cannot be reached), answers the 503 page with Retry-After where known (undefined).
 */
export async function linkAction<T>(
  ctx: Context,
  deps: AppDeps,
  what: string,
  action: () => Promise<T>,
) {
  try {
    return await action();
  } catch (err) {
    const mapped = storeFailure(err);
    if (!mapped) throw err;
    logStoreFailure(deps.logger, ctx, err);
    page(ctx, deps, 503, 'Try again later', `${what} temporarily unavailable.`);
    for (const [k, v] of Object.entries(mapped.headers)) ctx.set(k, v);
    return undefined;
  }
}

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
  ctx: Context,
  deps: AppDeps,
  outcome: ConfirmOutcome,
  texts: Record<'confirmed' | 'unknown', [title: string, text: string]>,
): void {
  if (outcome === 'confirmed') return page(ctx, deps, 200, ...texts.confirmed);
  if (outcome === 'unknown') return page(ctx, deps, 404, ...texts.unknown);
  page(
    ctx,
    deps,
    400,
    outcome === 'expired' ? 'Link expired' : 'Invalid link',
    outcome === 'expired'
      ? 'This confirmation link has expired (links are valid 7 days). Subscribe again on the site.'
      : 'This confirmation link is not valid. Open the link from the e-mail exactly as it was sent.',
  );
}

/** The page of an unsubscribe link: `done` says what stops when it worked. */
export function unsubscribePage(ctx: Context, deps: AppDeps, ok: boolean, done: string): void {
  if (ok) return page(ctx, deps, 200, 'Unsubscribed', done);
  page(
    ctx,
    deps,
    400,
    'Invalid link',
    'This unsubscribe link is not valid. Open the link from the e-mail exactly as it was sent.',
  );
}

export function alertsRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();

  router.post(
    routePath(endpoints.alertSubscribe),
    limiter.middleware('alerts'),
    jsonBody(deps.bodyTimeoutMs),
    async (ctx) => {
      const parsed = alertSubscribeRequestSchema.safeParse(ctx.state.body);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path[0];
        throw field === 'email'
          ? badRequest('A valid email address is required', 'invalid_email')
          : badRequest(
              field === 'kind'
                ? `kind must be one of ${ALERT_KINDS.join(', ')}`
                : 'sourceId must be the id of a source (GET /api/sources)',
              'invalid_request',
            );
      }
      const sources = deps.store.get('sources');
      if (!sources) throw new AppError(503, 'data_unavailable', 'sources.json has not loaded');
      if (!sources.sources.some((s) => s.id === parsed.data.sourceId))
        throw badRequest(`No source with id ${parsed.data.sourceId}`, 'unknown_source');
      // The e-mail, if any, leaves after this answer (api/src/alerts/outgoing.ts); a failure of
      // the store is its documented 503 (errorHandler).
      await deps.alerts.subscribe(parsed.data, answered(ctx));
      ctx.status = 202;
      ctx.body = { success: true, message: SUBSCRIBE_MESSAGE };
    },
  );

  router.get(routePath(endpoints.alertConfirm), async (ctx) => {
    const outcome = await linkAction(ctx, deps, 'Alerts are', () =>
      deps.alerts.confirm(tokenOf(ctx)),
    );
    if (outcome === undefined) return;
    confirmPage(ctx, deps, outcome, {
      confirmed: [
        'Alert confirmed',
        'You will get an e-mail when it happens. Every alert has a one-click unsubscribe link.',
      ],
      unknown: [
        'Alert not found',
        'This alert no longer exists (it was unsubscribed). Subscribe again on the site.',
      ],
    });
  });

  router.get(routePath(endpoints.alertUnsubscribe), async (ctx) => {
    const ok = await linkAction(ctx, deps, 'Alerts are', () =>
      deps.alerts.unsubscribe(tokenOf(ctx)),
    );
    if (ok === undefined) return;
    unsubscribePage(ctx, deps, ok, 'You will get no more e-mails for this alert.');
  });

  // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the header's URL.
  router.post(routePath(endpoints.alertUnsubscribeOneClick), async (ctx) => {
    const ok = await deps.alerts.unsubscribe(tokenOf(ctx));
    if (!ok) throw badRequest('The unsubscribe link is not valid', 'invalid_token');
    ctx.body = { success: true };
  });
  return router;
}
