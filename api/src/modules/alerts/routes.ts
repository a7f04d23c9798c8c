/**
 * Alerts (api/src/modules/alerts): POST /api/alerts subscribes (double opt-in), the e-mailed links confirm
 * and unsubscribe. The links are opened from a mail client, so they answer a short HTML page
 * saying what happened (with its own CSP: inline style only), also when the link is bad.
 */
import Router from '@koa/router';
import { ALERT_KINDS, endpoints } from '@yield/contract';
import { binder, type BindHost } from '../../platform/http/bind.ts';
import { answered } from '../../platform/http/answered.ts';
import {
  confirmPage,
  unavailablePage,
  unsubscribePage,
  type LinkSite,
} from '../../platform/email-links/pages.ts';
import type { SourcesFile } from '../yields/index.ts';
import type { AlertService } from './evaluate.ts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import type { RateLimiter } from '../../platform/http/rate-limit.ts';

export const SUBSCRIBE_MESSAGE =
  'Check your inbox: we sent you a link to confirm the alert. Nothing is sent until you confirm.';

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

/** What the alerts' routes take: the binder's host, the alert service, the sources, the links' site. */
export interface AlertsRoutesDeps extends BindHost<unknown> {
  alerts: Pick<AlertService, 'subscribe' | 'confirm' | 'unsubscribe'>;
  store: { get(key: 'sources'): SourcesFile | null };
  linkSite: LinkSite;
}

export function alertsRouter(deps: AlertsRoutesDeps, limiter: RateLimiter): Router {
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
      confirmPage(deps.linkSite, await deps.alerts.confirm(query.token), ALERT_CONFIRM_TEXTS),
    {
      invalid: () => confirmPage(deps.linkSite, 'invalid', ALERT_CONFIRM_TEXTS),
      storeFailurePage: unavailablePage(deps.linkSite, 'Alerts are'),
    },
  );

  bind(endpoints.alertUnsubscribe).to(
    async ({ query }) =>
      unsubscribePage(
        deps.linkSite,
        await deps.alerts.unsubscribe(query.token),
        ALERT_UNSUBSCRIBED,
      ),
    {
      invalid: () => unsubscribePage(deps.linkSite, false, ALERT_UNSUBSCRIBED),
      storeFailurePage: unavailablePage(deps.linkSite, 'Alerts are'),
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
