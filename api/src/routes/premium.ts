/**
 * Premium access: invite-code login, email activation, and the koa-jwt protected analysis route.
 * koa-jwt is mounted on the protected router only; app-wide it would turn unknown routes into 401.
 *
 * A token is worth what its user is: every premium read (this router, the scanner's full ranking
 * and CSV, the bearer of premiumLogin) also asks deps.premiumAccess whether the user still exists
 * with an enabled invite, so deleting the user or `invite:disable` refuses its tokens within a
 * minute. An email is bound only with that user's own token; without one, premiumLogin is a
 * redemption (a new user, one use) and never hands out the token of an existing user.
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import koaJwt from 'koa-jwt';
import {
  BASE_KEY_OF_TYPE,
  endpoints,
  premiumInviteRequestSchema,
  premiumLoginRequestSchema,
  premiumStrategyParamsSchema,
  type PremiumStrategyAnalysis,
  type PremiumUser,
} from '@yield/contract';
import type { AppDeps } from '../deps.ts';
import type { UserRecord } from '../data/schemas.ts';
import { PREMIUM_HISTORY_DAYS, type ComputedSeries } from '../data/snapshot.ts';
import { AppError, badRequest, storeFailure, unauthorized } from '../http/errors.ts';
import { jsonBody } from '../http/middleware.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { routePath } from '../http/route-path.ts';
import { findInvite, inviteUsable } from '../premium/invite-codes.ts';
import { SIGN_IN_SENT_MESSAGE, signInPage, SignInLinks } from '../premium/sign-in.ts';
import {
  isPremiumClaims,
  JWT_ALGORITHM,
  signPremiumToken,
  verifyPremiumToken,
  type PremiumClaims,
} from '../premium/tokens.ts';
import { parseSeriesId } from './data.ts';

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

/** Store failures (a broken runtime file, an unreachable database) become a 503 with the premium call's `success:false`. */
async function guarded<T>(deps: AppDeps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // The one mapping of the store's failures (http/errors.ts), with the calls' `success: false`.
    throw storeFailure(err, FAIL) ?? err;
  }
}

/**
 * Whether the user of verified claims still has access (deps.premiumAccess). A store that cannot
 * answer is a 503, never a pass: `extra` adds the premium calls' `success: false`.
 */
async function stillActive(
  deps: AppDeps,
  userId: string,
  extra: Record<string, unknown> = {},
): Promise<boolean> {
  try {
    return await deps.premiumAccess.active(userId);
  } catch (err) {
    const mapped = storeFailure(err, extra);
    if (mapped?.code === 'unavailable') throw mapped;
    deps.logger.error('premium access check failed', { error: (err as Error).message });
    throw new AppError(
      503,
      'data_unavailable',
      'Premium access cannot be checked right now',
      {},
      extra,
    );
  }
}

/**
 * The claims of the request's bearer token when it is valid (signature, algorithm, exp) and its
 * user still has access; else null. Used by premiumLogin and the scanner.
 */
export async function premiumBearer(
  ctx: Context,
  deps: AppDeps,
  extra: Record<string, unknown> = {},
): Promise<PremiumClaims | null> {
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('Authorization'))?.[1]?.trim();
  if (!bearer) return null;
  const claims = verifyPremiumToken(bearer, deps.jwtSecret);
  if (!claims) return null;
  return (await stillActive(deps, claims.sub, extra)) ? claims : null;
}

async function verifiedInvite(deps: AppDeps, code: string) {
  const invite = await findInvite(deps.userData, code);
  if (!invite) throw inviteFailure('invalid');
  return invite;
}

export function premiumRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const signIn = new SignInLinks(deps);

  const invitePath = routePath(endpoints.premiumInvite);
  router.post(
    invitePath,
    limiter.middleware('premium', FAIL),
    jsonBody(deps.bodyTimeoutMs, FAIL),
    async (ctx) => {
      const parsed = premiumInviteRequestSchema.safeParse(ctx.state.body);
      if (!parsed.success)
        throw new AppError(400, 'invalid_request', 'inviteCode is required', {}, FAIL);
      await guarded(deps, async () => {
        const invite = await verifiedInvite(deps, parsed.data.inviteCode);
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
        const record = redeemed.user;
        const user = toUser(record);
        ctx.body = {
          success: true,
          token: signPremiumToken(user, deps.jwtSecret, deps.tokenTtlSeconds),
          user,
        };
      });
    },
  );

  router.post(
    routePath(endpoints.premiumLogin),
    limiter.middleware('premiumLogin', FAIL),
    jsonBody(deps.bodyTimeoutMs, FAIL),
    async (ctx) => {
      const parsed = premiumLoginRequestSchema.safeParse(ctx.state.body);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path[0];
        throw new AppError(
          400,
          field === 'email' ? 'invalid_email' : 'invalid_request',
          field === 'email' ? 'A valid email address is required' : 'inviteCode is required',
          {},
          FAIL,
        );
      }
      const email = parsed.data.email.toLowerCase();
      await guarded(deps, async () => {
        const invite = await verifiedInvite(deps, parsed.data.inviteCode);
        const expired = inviteUsable({ ...invite, maxUses: null }, deps.now());
        if (!expired.ok) throw inviteFailure(expired.reason);

        // With the caller's own token (the client sends the one of the invite step), the email is
        // bound to that user. Without it this is a redemption: a new user for a new email (one
        // use); an email already bound to a user of the code gets no token, only a sign-in link
        // mailed to it.
        const claims = await premiumBearer(ctx, deps, FAIL);
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
        if (!login.ok) {
          if (login.reason !== 'email_taken') throw inviteFailure(login.reason);
          // Not awaited: how long the answer takes must not tell that the email is registered.
          void signIn.send(login.user, email);
          // A used-up code answers as it does for an email nobody registered.
          const left = inviteUsable(invite, now);
          if (!left.ok) throw inviteFailure(left.reason);
          ctx.status = 202;
          ctx.body = { success: true, emailSent: true, message: SIGN_IN_SENT_MESSAGE };
          return;
        }
        const record = login.user;
        const user = toUser(record);
        ctx.body = {
          success: true,
          token: signPremiumToken(user, deps.jwtSecret, deps.tokenTtlSeconds),
          user,
        };
      });
    },
  );

  router.get(routePath(endpoints.premiumSignIn), async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    let found;
    try {
      found = await signIn.userOf(token);
    } catch (err) {
      deps.logger.error('premium sign-in link not checked', { error: (err as Error).message });
      return signInPage(
        ctx,
        deps,
        503,
        'Try again later',
        'Premium access is temporarily unavailable.',
      );
    }
    if (found.ok)
      return signInPage(
        ctx,
        deps,
        200,
        'Signed in',
        'You are signed in to premium. Taking you to the site…',
        {
          user: toUser(found.user),
        },
      );
    if (found.reason === 'unknown')
      return signInPage(
        ctx,
        deps,
        404,
        'Account not found',
        'This premium account no longer exists, or its invite code was disabled, or its e-mail changed.',
      );
    return signInPage(
      ctx,
      deps,
      400,
      found.reason === 'expired' ? 'Link expired' : 'Invalid link',
      found.reason === 'expired'
        ? 'This sign-in link has expired (links work for one hour). Ask for a new one.'
        : 'This sign-in link is not valid. Open the link from the e-mail exactly as it was sent.',
    );
  });

  return router;
}

function summaryOf(s: ComputedSeries, base: ComputedSeries | undefined): string {
  const r = s.result;
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

/**
 * After koa-jwt verified the signature and expiry: requires a premium access level, an `exp`, and
 * a user that still exists with an enabled invite.
 */
function requirePremium(deps: AppDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const claims: unknown = ctx.state.user;
    if (!isPremiumClaims(claims)) throw unauthorized('A premium token is required', 'not_premium');
    if (!(await stillActive(deps, claims.sub)))
      throw unauthorized('This premium access has been revoked', 'premium_revoked');
    await next();
  };
}

export function protectedRouter(deps: AppDeps): Router {
  const router = new Router();
  router.use(koaJwt({ secret: deps.jwtSecret, algorithms: [JWT_ALGORITHM], key: 'user' }));
  router.use(requirePremium(deps));

  router.get(routePath(endpoints.premiumAnalysis), (ctx) => {
    const params = premiumStrategyParamsSchema.safeParse(ctx.params);
    if (!params.success) throw badRequest('Invalid strategy id', 'invalid_id');
    const raw = params.data.id;
    const snap = deps.snapshot();
    const slugOwner = [...snap.contents.values()].find((c) => c.slug === raw.toLowerCase());
    const id = slugOwner ? slugOwner.id : parseSeriesId(raw);
    const series = id !== null ? snap.series.get(String(id)) : undefined;
    ctx.set('Cache-Control', 'private, no-store');
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
      ctx.body = body;
      return;
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
    ctx.body = body;
  });
  return router;
}
