/**
 * The mailing list, double opt-in: POST /api/addToMailList stores the address unconfirmed (each
 * address once, case-insensitively, with time and source) and e-mails a confirmation link after
 * the answer; the answer is the same whether or not the address was on the list. The e-mailed
 * links (signed as the alerts' links, api/src/platform/email-links/links.ts) confirm the sign-up or remove it,
 * answering a short HTML page like the alerts' links.
 */
import Router from '@koa/router';
import { endpoints } from '@yield/contract';
import { badRequest } from '../../platform/http/errors.ts';
import { binder, type BindHost } from '../../platform/http/bind.ts';
import type { RateLimiter } from '../../platform/http/rate-limit.ts';
import { answered } from '../../platform/http/answered.ts';
import {
  confirmPage,
  unavailablePage,
  unsubscribePage,
  type LinkSite,
} from '../../platform/email-links/pages.ts';

export const SIGNUP_MESSAGE =
  'Check your inbox: we sent you a link to confirm your subscription. Nothing is sent until you confirm.';

const MAIL_CONFIRM_TEXTS = {
  confirmed: [
    'Subscription confirmed',
    'You are on the newsletter list. Every newsletter has an unsubscribe link.',
  ],
  unknown: [
    'Subscription not found',
    'This sign-up no longer exists (it was removed, or not confirmed within 7 days). Subscribe again on the site.',
  ],
} satisfies Parameters<typeof confirmPage>[2];
const MAIL_UNSUBSCRIBED = 'You will get no more e-mails from the newsletter.';

/** The mailing list's actions, taken by its routes (the alert service sends their e-mails). */
export interface MailingListActions {
  joinMailingList(entry: { email: string; source: string }, answered: Promise<void>): Promise<void>;
  confirmMailingList(token: string): Promise<'confirmed' | 'unknown' | 'expired' | 'invalid'>;
  leaveMailingList(token: string): Promise<boolean>;
}

/** What the mailing list's routes take: the binder's host, its actions, the links' site. */
export interface MailingListRoutesDeps extends BindHost<unknown> {
  alerts: MailingListActions;
  linkSite: LinkSite;
}

export function mailingListRouter(deps: MailingListRoutesDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const bind = binder(router, deps, { limiter });
  bind(endpoints.mailSignup).to(
    async ({ body, ctx }) => {
      // A failure of the store is its documented 503 (storeFailure); the e-mail leaves after this.
      await deps.alerts.joinMailingList(
        { email: body.email.toLowerCase(), source: body.source ?? 'website' },
        answered(ctx),
      );
      return { status: 202, body: { success: true, message: SIGNUP_MESSAGE } };
    },
    {
      bucket: 'addToMailList',
      invalid: ({ issues }) =>
        badRequest(
          issues[0]?.path[0] === 'source'
            ? 'source must be 1-64 letters, digits, spaces or _ . / -'
            : 'A valid email address is required',
          'invalid_email',
        ),
    },
  );

  // A missing or malformed token reads as the invalid link it is.
  bind(endpoints.mailConfirm).to(
    async ({ query }) =>
      confirmPage(
        deps.linkSite,
        await deps.alerts.confirmMailingList(query.token),
        MAIL_CONFIRM_TEXTS,
      ),
    {
      invalid: () => confirmPage(deps.linkSite, 'invalid', MAIL_CONFIRM_TEXTS),
      storeFailurePage: unavailablePage(deps.linkSite, 'The mailing list is'),
    },
  );

  bind(endpoints.mailUnsubscribe).to(
    async ({ query }) =>
      unsubscribePage(
        deps.linkSite,
        await deps.alerts.leaveMailingList(query.token),
        MAIL_UNSUBSCRIBED,
      ),
    {
      invalid: () => unsubscribePage(deps.linkSite, false, MAIL_UNSUBSCRIBED),
      storeFailurePage: unavailablePage(deps.linkSite, 'The mailing list is'),
    },
  );
  return router;
}
