/** Premium: invite codes, sign-in and the premium analysis. */
import { z } from 'zod';
import { ACCESS_LEVEL, INVITE_CODE_MAX_LENGTH } from '../constants.ts';
import { emailSchema } from './common.ts';
import {
  historyPointSchema,
  riskBreakdownSchema,
  thirdPartyRatingSchema,
  yieldSourceSchema,
} from './yields.ts';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, error, premiumError, premiumBodyErrors } from '../endpoint-spec.ts';

// ---------------------------------------------------------------- POST /api/premium, /api/premiumLogin

const inviteCodeSchema = z
  .string()
  .max(INVITE_CODE_MAX_LENGTH)
  .meta({ description: 'Case and surrounding spaces do not matter.' });

export const premiumInviteRequestSchema = z
  .object({ inviteCode: inviteCodeSchema })
  .meta({ id: 'PremiumInviteRequest' });

export const premiumLoginRequestSchema = z
  .object({ email: emailSchema, inviteCode: inviteCodeSchema })
  .meta({ id: 'PremiumLoginRequest' });

export const premiumUserSchema = z
  .strictObject({
    userId: z.string(),
    email: z.string().nullable(),
    accessLevel: z.literal(ACCESS_LEVEL),
  })
  .meta({ id: 'PremiumUser' });

export const premiumSessionSchema = z
  .strictObject({
    success: z.literal(true),
    token: z.string().meta({
      description: 'HS256 JWT, valid 30 days: {sub, userId, email, accessLevel, iat, exp}.',
    }),
    user: premiumUserSchema,
  })
  .meta({ id: 'PremiumSession' });

export const premiumEmailSentSchema = z
  .strictObject({
    success: z.literal(true),
    emailSent: z.literal(true),
    message: z.string(),
  })
  .meta({
    id: 'PremiumEmailSent',
    description:
      'No token, the same answer whether or not the email was registered: a sign-in link is mailed to the address (at most one every 10 minutes and 5 a day per address).',
  });

export const premiumSignInQuerySchema = z
  .object({
    token: z.string().min(1).max(512).meta({
      description:
        'The signed token of the e-mailed sign-in link (valid 1 hour, once; a new link may be asked with it for 7 more days).',
    }),
  })
  .meta({ id: 'PremiumSignInQuery' });

// ---------------------------------------------------------------- GET /api/premium/strategies/:id

export const premiumStrategyParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .meta({ description: 'A source id, a strategy slug, a base-rate key, or any other name.' }),
});

const analysisCommon = {
  id: z.number().int().min(0).meta({ description: 'The source id; 0 for other names.' }),
  requestedId: z.string().meta({ description: 'The id as requested.' }),
  name: z.string(),
  summary: z.string(),
};

export const premiumAnalysisReadySchema = z
  .strictObject({
    ...analysisCommon,
    status: z.literal('ready'),
    source: yieldSourceSchema,
    breakdown: riskBreakdownSchema,
    history: z.array(historyPointSchema).meta({ description: 'The newest 180 days.' }),
    thirdPartyRatings: z.array(thirdPartyRatingSchema),
  })
  .meta({ id: 'PremiumAnalysisReady' });

export const premiumAnalysisPendingSchema = z
  .strictObject({
    ...analysisCommon,
    status: z.literal('analyzing'),
    source: z.null(),
    breakdown: z.null(),
    history: z.array(historyPointSchema).max(0),
    thirdPartyRatings: z.array(thirdPartyRatingSchema).max(0),
  })
  .meta({ id: 'PremiumAnalysisPending' });

export const premiumStrategyAnalysisSchema = z
  .discriminatedUnion('status', [premiumAnalysisReadySchema, premiumAnalysisPendingSchema])
  .meta({ id: 'PremiumStrategyAnalysis' });

/** The 401s of a code that cannot be spent. */
const INVITE_FAILURES = [
  'invalid_invite_code',
  'invite_code_expired',
  'invite_code_used_up',
] as const;

export const premiumEndpoints = {
  premiumInvite: {
    method: 'post',
    path: API_PATHS.premiumInvite,
    tag: 'Premium',
    summary: 'Log in with an invite code',
    description: 'Spends one use of the code, creates a premium user, returns a 30-day token.',
    body: premiumInviteRequestSchema,
    rateLimited: true,
    responses: {
      200: { description: 'Logged in.', schema: premiumSessionSchema },
      400: premiumError(
        ['invalid_request', 'invalid_json'],
        'invalid_request: inviteCode missing; invalid_json.',
      ),
      401: premiumError(
        INVITE_FAILURES,
        'invalid_invite_code, invite_code_expired or invite_code_used_up.',
      ),
      ...premiumBodyErrors,
      503: premiumError(
        ['data_unavailable', 'unavailable'],
        'Premium data cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  premiumLogin: {
    method: 'post',
    path: API_PATHS.premiumLogin,
    tag: 'Premium',
    summary: 'Bind an email to an invite code',
    description:
      "With the caller's own token (Authorization: Bearer, the one of POST /api/premium), binds the email to that user without spending a use and returns a token with the email in it (200). Without one the answer never carries a token and is the same whether or not the email is registered (202): a new email is a redemption (a new user with the email, one use spent), an email already bound to a user of the code gets nothing more, and in both cases a sign-in link is mailed to the address after the answer. A used-up code answers invite_code_used_up whatever the email (a registered email's link is mailed all the same).",
    body: premiumLoginRequestSchema,
    bearer: 'optional',
    rateLimited: true,
    responses: {
      200: {
        description: "Activated with the caller's own token: a new token with the email.",
        schema: premiumSessionSchema,
      },
      202: {
        description:
          "Without the caller's own token: no token, a sign-in link is mailed to the address (the same answer for a registered and a new email).",
        schema: premiumEmailSentSchema,
      },
      400: premiumError(
        ['invalid_email', 'invalid_request', 'invalid_json'],
        'invalid_email, invalid_request (inviteCode missing) or invalid_json.',
      ),
      401: premiumError(
        INVITE_FAILURES,
        'invalid_invite_code, invite_code_expired or invite_code_used_up.',
      ),
      ...premiumBodyErrors,
      503: premiumError(
        ['data_unavailable', 'unavailable'],
        'Premium data cannot be written right now: data_unavailable (its file), or unavailable (the database cannot be reached; Retry-After says when to try again).',
      ),
    },
  },
  premiumAnalysis: {
    method: 'get',
    path: API_PATHS.premiumAnalysis,
    tag: 'Premium',
    summary: 'Premium strategy analysis',
    description:
      'status ready for a known source (by id, slug or base-rate key) with breakdown, 180 days of history and ratings; analyzing for any other name.',
    params: premiumStrategyParamsSchema,
    bearer: 'required',
    responses: {
      200: { description: 'Analysis.', schema: premiumStrategyAnalysisSchema },
      400: error(['invalid_id'], 'invalid_id: not 1-64 letters, digits, _ or -.'),
      401: error(
        ['unauthorized', 'not_premium', 'premium_revoked'],
        'Missing, malformed, expired, exp-less or non-premium token; premium_revoked: its user was deleted or its invite disabled (noticed within 60 s).',
      ),
      503: error(
        ['unavailable', 'data_unavailable'],
        'The user data cannot be read to check the token: unavailable (the database; Retry-After) or data_unavailable.',
      ),
    },
  },
  premiumSignIn: {
    method: 'get',
    path: API_PATHS.premiumSignIn,
    tag: 'Premium',
    summary: 'Sign in from the e-mailed link',
    description:
      "The link mailed by POST /api/premiumLogin, valid one hour and once. A small HTML page that stores a fresh token in the browser under premiumToken, as the site does after a login, and goes to the site's home page. A link already used, or expired, answers a page with a button that asks for a new one (POST to the same path).",
    query: premiumSignInQuerySchema,
    responses: {
      200: { description: 'HTML page: signed in.', mediaType: 'text/html' },
      400: {
        description:
          'HTML page: the link is invalid, or has expired (1 hour; with the button for a new link during 7 more days).',
        mediaType: 'text/html',
      },
      410: {
        description:
          'HTML page: the link was already used (no token), with the button for a new link.',
        mediaType: 'text/html',
      },
      404: {
        description: 'HTML page: the premium account was deleted or its code disabled.',
        mediaType: 'text/html',
      },
      503: {
        description: 'HTML page: the user data cannot be read right now.',
        mediaType: 'text/html',
      },
    },
  },
  premiumSignInRenew: {
    method: 'post',
    path: API_PATHS.premiumSignInRenew,
    tag: 'Premium',
    summary: 'Ask for a new sign-in link',
    description:
      "The button of the page of a used or expired sign-in link: POST with that link's token in the query and any body. Mails a new link to the address the old one went to, within the same caps as every sign-in link (one every 10 minutes and 5 a day per address). Answers a short HTML page.",
    query: premiumSignInQuerySchema,
    responses: {
      200: {
        description:
          'HTML page: no new link now, one was mailed to the address less than 10 minutes ago (or 5 today).',
        mediaType: 'text/html',
      },
      202: { description: 'HTML page: a new link is on its way.', mediaType: 'text/html' },
      400: {
        description: 'HTML page: the token is invalid, or expired more than 7 days ago.',
        mediaType: 'text/html',
      },
      404: {
        description:
          'HTML page: the premium account was deleted, its code disabled or its e-mail changed.',
        mediaType: 'text/html',
      },
      503: {
        description: 'HTML page: the user data cannot be read or written right now.',
        mediaType: 'text/html',
      },
    },
  },
} as const satisfies Record<string, EndpointSpec>;
