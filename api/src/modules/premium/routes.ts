/**
 * Premium access: invite-code login, email activation, and the koa-jwt protected analysis route.
 * koa-jwt is mounted on the protected router only; app-wide it would turn unknown routes into 401.
 *
 * A token is worth what its user is: every premium read (this router, the scanner's full ranking
 * and CSV, the bearer of premiumLogin) also asks deps.premiumAccess whether the user still exists
 * with an enabled invite, so deleting the user or `invite:disable` refuses its tokens within a
 * minute. An email is bound only with that user's own token; without one, premiumLogin never
 * answers a token: a new email is a redemption (a new user, one use), and whether new or already
 * registered, the address gets a sign-in link by e-mail and the caller the same 202 (sign-in.ts).
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import {
  BASE_KEY_OF_TYPE,
  endpoints,
  type PremiumStrategyAnalysis,
  type PremiumUser,
} from '@yield/contract';
import type { AppDeps } from '../../deps.ts';
import type { UserRecord } from './schemas.ts';
import { PREMIUM_HISTORY_DAYS, type ComputedSeries } from '../yields/snapshot.ts';
import { binder } from '../../platform/http/bind.ts';
import { AppError, badRequest, unauthorized } from '../../platform/http/errors.ts';
import type { RateLimiter } from '../../platform/http/rate-limit.ts';
import { findInvite, inviteUsable } from './invite-codes.ts';
import { SIGN_IN_SENT_MESSAGE, SignInLinks } from './sign-in.ts';
import {
  invalidLinkPage,
  openSignInLink,
  renewSignInLink,
  unavailableSignInPage,
} from './sign-in-page.ts';
import { signPremiumToken } from './tokens.ts';
import { answered } from '../alerts/routes.ts';
import { parseSeriesId } from '../yields/routes.ts';

const FAIL = { success: false } as const;

const REASON_MESSAGES = {
  invalid: ['invalid_invite_code', 'The invite code is invalid'],
  expired: ['invite_code_expired', 'The invite code has expired'],
  exhausted: ['invite_code_used_up', 'The invite code has been used the maximum number of times'],
} as const;

function inviteFailure(reason: keyof typeof REASON_MESSAGES): AppError {
  const [code, message] = REASON_MESSAGES[reason];
  return unauthorized(message, code, FAIL);
}

function toUser(record: UserRecord): PremiumUser {
  return { userId: record.userId, email: record.email, accessLevel: 'premium' };
}

async function verifiedInvite(deps: AppDeps, code: string) {
  const invite = await findInvite(deps.userData, code);
  if (!invite) throw inviteFailure('invalid');
  return invite;
}

export function premiumRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const bind = binder(router, deps, { limiter });
  const signIn = new SignInLinks(deps);

  // Failures of the store are the documented 503 with `success: false` (the binder's `extra`).
  bind(endpoints.premiumInvite).to(
    async ({ body }) => {
      const invite = await verifiedInvite(deps, body.inviteCode);
      const now = deps.now();
      const redeemed = await deps.userData.redeemInvite({
        inviteId: invite.id,
        user: {
          userId: randomUUID(),
          inviteId: invite.id,
          email: null,
          createdAt: now.toISOString(),
          lastLoginAt: now.toISOString(),
        },
        now,
      });
      if (!redeemed.ok) throw inviteFailure(redeemed.reason);
      const user = toUser(redeemed.user);
      const token = signPremiumToken(user, deps.jwtSecret, deps.tokenTtlSeconds);
      return { status: 200, body: { success: true, token, user } };
    },
    {
      bucket: 'premium',
      extra: FAIL,
      invalid: () => new AppError(400, 'invalid_request', 'inviteCode is required', {}, FAIL),
    },
  );

  bind(endpoints.premiumLogin).to(
    async ({ body, bearer, ctx }) => {
      const email = body.email.toLowerCase();
      const invite = await verifiedInvite(deps, body.inviteCode);
      const expired = inviteUsable({ ...invite, maxUses: null }, deps.now());
      if (!expired.ok) throw inviteFailure(expired.reason);

      // With the caller's own token (the client sends the one of the invite step), the email is
      // bound to that user. Without it the answer never carries a token: a new email is a
      // redemption (a new user, one use), an email already bound to a user of the code stays
      // that user's, and either way the address is mailed a sign-in link (the store counts it
      // under the caps) and the caller gets the same 202.
      const claims = await bearer();
      const now = deps.now();
      const login = await deps.userData.activateInviteEmail({
        inviteId: invite.id,
        email,
        tokenUserId: claims?.sub ?? null,
        newUser: {
          userId: randomUUID(),
          inviteId: invite.id,
          email,
          createdAt: now.toISOString(),
          lastLoginAt: now.toISOString(),
        },
        now,
      });
      // The e-mail leaves after the answer: its time must not tell that the email is registered.
      if (login.signInMail && (login.ok || login.reason === 'email_taken'))
        signIn.send(login.user, login.user.email ?? email, answered(ctx));
      if (login.ok && !login.created) {
        const user = toUser(login.user);
        const token = signPremiumToken(user, deps.jwtSecret, deps.tokenTtlSeconds);
        return { status: 200, body: { success: true, token, user } };
      }
      if (!login.ok && login.reason !== 'email_taken') throw inviteFailure(login.reason);
      // A used-up code answers as it does for an email nobody registered.
      const left = login.ok ? { ok: true as const } : inviteUsable(invite, now);
      if (!left.ok) throw inviteFailure(left.reason);
      return {
        status: 202,
        body: { success: true, emailSent: true, message: SIGN_IN_SENT_MESSAGE },
      };
    },
    {
      bucket: 'premiumLogin',
      extra: FAIL,
      invalid: ({ issues }) => {
        const field = issues[0]?.path[0];
        return new AppError(
          400,
          field === 'email' ? 'invalid_email' : 'invalid_request',
          field === 'email' ? 'A valid email address is required' : 'inviteCode is required',
          {},
          FAIL,
        );
      },
    },
  );

  // A missing or malformed token reads as the invalid link it is.
  bind(endpoints.premiumSignIn).to(({ query }) => openSignInLink(deps, signIn, query.token), {
    invalid: () => invalidLinkPage(deps),
    storeFailurePage: unavailableSignInPage(deps),
  });
  bind(endpoints.premiumSignInRenew).to(
    ({ query, ctx }) => renewSignInLink(deps, signIn, query.token, answered(ctx)),
    {
      invalid: () => invalidLinkPage(deps),
      storeFailurePage: unavailableSignInPage(deps),
    },
  );

  return router;
}

function summaryOf(s: ComputedSeries, base: ComputedSeries | undefined): string {
  const r = s.result;
  if (s.provenance.kind === 'none') {
    return `${s.name} has no live data yet: the site imports its figures from DeFiLlama and has no feed for this source, so no APR or risk-adjusted APR is published.`;
  }
  if (r.status !== 'ok') {
    return `${s.name} has fewer than 20 days of data in its latest 30-day window, so no risk-adjusted APR is published yet.`;
  }
  const pct = (n: number) => `${n.toFixed(2)}%`;
  const pp = (n: number) => `${n.toFixed(2)} pp`;
  const c = r.charges;
  const largest = (Object.entries(c) as [string, number][]).sort((a, b) => b[1] - a[1])[0]!;
  const parts = [
    `${s.name} paid ${pct(r.yield30d)} APR on average over the 30 days to ${r.asOf}.`,
    `Risk charges total ${pp(r.risk)} (largest: ${largest[0]} ${pp(largest[1])}), leaving a risk-adjusted APR of ${pct(r.riskAdjustedYield30d)}.`,
  ];
  if (base && base.result.status === 'ok') {
    const label = s.type === 'stablecoin' ? 'stablecoin' : 'crypto';
    const diff = r.riskAdjustedYield30d - base.result.riskAdjustedYield30d;
    parts.push(
      `That is ${pp(Math.abs(diff))} ${diff >= 0 ? 'above' : 'below'} the ${label} DeFi Base Rate's risk-adjusted ${pct(base.result.riskAdjustedYield30d)}.`,
    );
  }
  if (s.activeIncident)
    parts.push(
      'An incident is active on this source: it is never marked GREAT until it is resolved.',
    );
  else if (s.great) parts.push('Its reward-to-risk ratio beats the base rate: marked GREAT.');
  return parts.join(' ');
}

export function protectedRouter(deps: AppDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);

  // `bearer: 'required'`: koa-jwt and the access check run before this (modules/premium/bearer.ts).
  bind(endpoints.premiumAnalysis).to(
    ({ params }) => {
      const raw = params.id;
      const snap = deps.snapshot();
      const slugOwner = [...snap.contents.values()].find((c) => c.slug === raw.toLowerCase());
      const id = slugOwner ? slugOwner.id : parseSeriesId(raw);
      const series = id !== null ? snap.series.get(String(id)) : undefined;
      const headers = { 'Cache-Control': 'private, no-store' };
      if (!series) {
        // The premium page links any strategy name; ones without data yet are "being analysed".
        const numeric = typeof id === 'number' ? id : 0;
        const body: PremiumStrategyAnalysis = {
          id: numeric,
          requestedId: raw,
          name: `Premium Strategy #${raw}`,
          status: 'analyzing',
          source: null,
          breakdown: null,
          history: [],
          thirdPartyRatings: [],
          summary: 'This strategy is being analysed. The full report will be available soon.',
        };
        return { status: 200, body, headers };
      }
      const content = [...snap.contents.values()].find((c) => c.id === series.id);
      const base = snap.series.get(BASE_KEY_OF_TYPE[series.type]);
      const body: PremiumStrategyAnalysis = {
        id: typeof series.id === 'number' ? series.id : 0,
        requestedId: raw,
        name: series.name,
        status: 'ready',
        source: series.source,
        breakdown: series.breakdown,
        history: series.points.slice(Math.max(0, series.points.length - PREMIUM_HISTORY_DAYS)),
        thirdPartyRatings: content?.thirdPartyRatings ?? [],
        summary: summaryOf(series, typeof series.id === 'number' ? base : undefined),
      };
      return { status: 200, body, headers };
    },
    { invalid: () => badRequest('Invalid strategy id', 'invalid_id') },
  );
  return router;
}
