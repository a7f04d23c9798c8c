/**
 * The mailing list, double opt-in: POST /api/addToMailList stores the address unconfirmed (each
 * address once, case-insensitively, with time and source) and e-mails a confirmation link after
 * the answer; the answer is the same whether or not the address was on the list. The e-mailed
 * links (signed as the alerts' links, api/src/alerts/links.ts) confirm the sign-up or remove it,
 * answering a short HTML page like the alerts' links.
 */
import Router from '@koa/router';
import { endpoints, mailSignupRequestSchema } from '@yield/contract';
import type { AppDeps } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { jsonBody } from '../http/middleware.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { routePath } from '../http/route-path.ts';
import { answered, confirmPage, linkAction, tokenOf, unsubscribePage } from './alerts.ts';

export const SIGNUP_MESSAGE =
  'Check your inbox: we sent you a link to confirm your subscription. Nothing is sent until you confirm.';

export function mailingListRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const path = routePath(endpoints.mailSignup);
  router.post(
    path,
    limiter.middleware('addToMailList'),
    jsonBody(deps.bodyTimeoutMs),
    async (ctx) => {
      const parsed = mailSignupRequestSchema.safeParse(ctx.state.body);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path[0];
        throw badRequest(
          field === 'source'
            ? 'source must be 1-64 letters, digits, spaces or _ . / -'
            : 'A valid email address is required',
          'invalid_email',
        );
      }
      // A failure of the store is its documented 503 (errorHandler); the e-mail leaves after this.
      await deps.alerts.joinMailingList(
        { email: parsed.data.email.toLowerCase(), source: parsed.data.source ?? 'website' },
        answered(ctx),
      );
      ctx.status = 202;
      ctx.body = { success: true, message: SIGNUP_MESSAGE };
    },
  );

  router.get(routePath(endpoints.mailConfirm), async (ctx) => {
    const outcome = await linkAction(ctx, deps, 'The mailing list is', () =>
      deps.alerts.confirmMailingList(tokenOf(ctx)),
    );
    if (outcome === undefined) return;
    confirmPage(ctx, deps, outcome, {
      confirmed: [
        'Subscription confirmed',
        'You are on the newsletter list. Every newsletter has an unsubscribe link.',
      ],
      unknown: [
        'Subscription not found',
        'This sign-up no longer exists (it was removed, or not confirmed within 7 days). Subscribe again on the site.',
      ],
    });
  });

  router.get(routePath(endpoints.mailUnsubscribe), async (ctx) => {
    const ok = await linkAction(ctx, deps, 'The mailing list is', () =>
      deps.alerts.leaveMailingList(tokenOf(ctx)),
    );
    if (ok === undefined) return;
    unsubscribePage(ctx, deps, ok, 'You will get no more e-mails from the newsletter.');
  });
  return router;
}
