/** Mailing list: the sign-up and its e-mailed links. */
import { z } from 'zod';
import { emailSchema, nonEmptySchema } from './common.ts';
import { alertTokenQuerySchema } from './alerts.ts';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, error, bodyErrors } from '../endpoint-spec.ts';

// ---------------------------------------------------------------- POST /api/addToMailList

export const mailSignupRequestSchema = z
  .object({
    email: emailSchema,
    source: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9 _./-]{1,64}$/)
      .optional()
      .meta({ description: 'Where the sign-up came from (default website).' }),
  })
  .meta({ id: 'MailSignupRequest' });

export const mailSignupResponseSchema = z
  .strictObject({
    success: z.literal(true),
    message: nonEmptySchema.meta({
      description:
        'The same whether or not the address was on the list (nothing is revealed): check the inbox for the confirmation link.',
    }),
  })
  .meta({ id: 'MailSignupResponse' });

export const mailingListEndpoints = {
  mailSignup: {
    method: 'post',
    path: API_PATHS.mailSignup,
    tag: 'Mailing list',
    summary: 'Join the mailing list',
    description:
      'Double opt-in: each address is stored once, whatever its letter case, with time and source, and counts only once it opened the confirmation link e-mailed to it (valid 7 days; unconfirmed sign-ups are purged after 7 days). At most one confirmation e-mail per address per 24 hours, and at most 5 per address per 24 hours together with the alerts. The answer is the same whether or not the address was on the list, and it is sent before any e-mail.',
    body: mailSignupRequestSchema,
    rateLimited: true,
    responses: {
      202: {
        description: 'Accepted: a confirmation e-mail is on its way unless one was sent lately.',
        schema: mailSignupResponseSchema,
      },
      400: error(
        ['invalid_email', 'invalid_json'],
        'invalid_email (or a bad source), or invalid_json.',
      ),
      ...bodyErrors,
      503: error(
        ['data_unavailable', 'unavailable'],
        'The mailing list cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  mailConfirm: {
    method: 'get',
    path: API_PATHS.mailConfirm,
    tag: 'Mailing list',
    summary: 'Confirm a mailing-list sign-up (e-mailed link)',
    description:
      'The link of the confirmation e-mail (signed, valid 7 days): the address counts on the list from now on. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: { description: 'HTML page: the sign-up is confirmed.', mediaType: 'text/html' },
      400: {
        description: 'HTML page: the link is invalid or has expired.',
        mediaType: 'text/html',
      },
      404: {
        description: 'HTML page: the sign-up no longer exists (unsubscribed or purged).',
        mediaType: 'text/html',
      },
      503: {
        description: 'HTML page: the mailing list cannot be written right now.',
        mediaType: 'text/html',
      },
    },
  },
  mailUnsubscribe: {
    method: 'get',
    path: API_PATHS.mailUnsubscribe,
    tag: 'Mailing list',
    summary: 'Leave the mailing list in one click (e-mailed link)',
    description:
      'The unsubscribe link of the mailing-list e-mails (signed, does not expire): the address is removed. Answers a short HTML page.',
    query: alertTokenQuerySchema,
    responses: {
      200: {
        description: 'HTML page: removed from the list (also when it already was).',
        mediaType: 'text/html',
      },
      400: { description: 'HTML page: the link is invalid.', mediaType: 'text/html' },
      503: {
        description: 'HTML page: the mailing list cannot be written right now.',
        mediaType: 'text/html',
      },
    },
  },
} as const satisfies Record<string, EndpointSpec>;
