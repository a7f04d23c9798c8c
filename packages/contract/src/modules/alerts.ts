/** Alerts: subscriptions and their e-mailed links. */
import { z } from 'zod';
import { ALERT_KINDS } from '../constants.ts';
import { emailSchema, nonEmptySchema } from './common.ts';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, error, bodyErrors } from '../endpoint-spec.ts';

// ---------------------------------------------------------------- /api/alerts

export const alertKindSchema = z.enum(ALERT_KINDS).meta({
  description:
    "below-base: the source's risk-adjusted 30-day APR crosses below its base rate's; incident: an incident opens; stale: its data turns stale; warning: a warning detected from its data (outflow, depeg, spike, feeds-disagree) opens and no operator dismissed it.",
});

export const alertSubscribeRequestSchema = z
  .object({
    email: emailSchema,
    sourceId: z.number().int().positive().meta({ description: 'A source id of GET /api/sources.' }),
    kind: alertKindSchema,
  })
  .meta({ id: 'AlertSubscribeRequest' });

export const alertSubscribeResponseSchema = z
  .strictObject({
    success: z.literal(true),
    message: nonEmptySchema.meta({
      description:
        'The same whether or not the address had subscribed already (nothing is revealed): check the inbox for the confirmation link.',
    }),
  })
  .meta({ id: 'AlertSubscribeResponse' });

export const alertTokenQuerySchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(512)
      .meta({ description: 'The signed token of the e-mailed link.' }),
  })
  .meta({ id: 'AlertTokenQuery' });

export const alertUnsubscribeResponseSchema = z
  .strictObject({ success: z.literal(true) })
  .meta({ id: 'AlertUnsubscribeResponse' });

export const alertsEndpoints = {
  alertSubscribe: {
    method: 'post',
    path: API_PATHS.alertSubscribe,
    tag: 'Alerts',
    summary: 'Subscribe to an alert',
    description:
      'Sends a confirmation e-mail with a signed link (valid 7 days); only confirmed subscriptions get alerts, unconfirmed ones are purged after 7 days. One subscription per address (any letter case), source and kind; the answer is the same whether or not it existed or was confirmed, and it is sent before any e-mail. At most one confirmation e-mail per address, source and kind per 24 hours, and at most 5 per address per 24 hours (with the mailing list); a failed send is retried in the background and logged.',
    body: alertSubscribeRequestSchema,
    rateLimited: true,
    responses: {
      202: {
        description: 'Accepted: a confirmation e-mail is on its way.',
        schema: alertSubscribeResponseSchema,
      },
      400: error(
        ['invalid_email', 'invalid_request', 'unknown_source', 'invalid_json'],
        'invalid_email, invalid_request (sourceId or kind), unknown_source, or invalid_json.',
      ),
      ...bodyErrors,
      503: error(
        ['data_unavailable', 'unavailable'],
        'The alerts cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  alertConfirm: {
    method: 'get',
    path: API_PATHS.alertConfirm,
    tag: 'Alerts',
    summary: 'Confirm a subscription (e-mailed link)',
    description:
      'The link of the confirmation e-mail (signed, valid 7 days): the subscription gets alerts from now on. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: { description: 'HTML page: the alert is confirmed.', mediaType: 'text/html' },
      400: {
        description: 'HTML page: the link is invalid or has expired.',
        mediaType: 'text/html',
      },
      404: { description: 'HTML page: the subscription no longer exists.', mediaType: 'text/html' },
      503: {
        description:
          'HTML page: the alerts cannot be written right now (their file, or the database cannot be reached).',
        mediaType: 'text/html',
      },
    },
  },
  alertUnsubscribe: {
    method: 'get',
    path: API_PATHS.alertUnsubscribe,
    tag: 'Alerts',
    summary: 'Unsubscribe in one click (e-mailed link)',
    description:
      'The unsubscribe link of every alert e-mail (signed, does not expire): no more alerts for that subscription. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: {
        description: 'HTML page: unsubscribed (also when it already was).',
        mediaType: 'text/html',
      },
      400: { description: 'HTML page: the link is invalid.', mediaType: 'text/html' },
      503: {
        description:
          'HTML page: the alerts cannot be written right now (their file, or the database cannot be reached).',
        mediaType: 'text/html',
      },
    },
  },
  alertUnsubscribeOneClick: {
    method: 'post',
    path: API_PATHS.alertUnsubscribeOneClick,
    tag: 'Alerts',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      'What mail clients send for the List-Unsubscribe-Post header of an alert: POST with the token in the query and any body (List-Unsubscribe=One-Click).',
    query: alertTokenQuerySchema,
    responses: {
      200: {
        description: 'Unsubscribed (also when it already was).',
        schema: alertUnsubscribeResponseSchema,
      },
      400: error(['invalid_token'], 'invalid_token.'),
      503: error(
        ['data_unavailable', 'unavailable'],
        'The alerts cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
} as const satisfies Record<string, EndpointSpec>;
