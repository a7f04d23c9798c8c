/**
 * The premium bearer token of a request, for the binder (bind.ts): `bearer: 'required'` routes get
 * koa-jwt and the premium access check, `bearer: 'optional'` ones ask premiumBearer() when they
 * need to know. A token is worth what its user is: deps.premiumAccess says whether the user still
 * exists with an enabled invite (deleting the user or `invite:disable` refuses its tokens within a
 * minute).
 */
import type { Context, Middleware, Next } from 'koa';
import koaJwt from 'koa-jwt';
import type { BearerCheck } from '../../platform/http/bind.ts';
import type { Logger } from '../../platform/logger.ts';
import { AppError, storeFailure, unauthorized } from '../../platform/http/errors.ts';
import {
  isPremiumClaims,
  JWT_ALGORITHM,
  verifyPremiumToken,
  type PremiumAccess,
  type PremiumClaims,
} from './tokens.ts';

/** What the premium token check needs of the application. */
export interface BearerDeps {
  jwtSecret: string;
  premiumAccess: PremiumAccess;
  logger: Logger;
}

/**
 * Whether the user of verified claims still has access (deps.premiumAccess). A store that cannot
 * answer is a 503, never a pass: `extra` adds the premium calls' `success: false`.
 */
export async function stillActive(
  deps: BearerDeps,
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
 * user still has access; else null (an `optional` bearer).
 */
export async function premiumBearer(
  ctx: Context,
  deps: BearerDeps,
  extra: Record<string, unknown> = {},
): Promise<PremiumClaims | null> {
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('Authorization'))?.[1]?.trim();
  if (!bearer) return null;
  const claims = verifyPremiumToken(bearer, deps.jwtSecret);
  if (!claims) return null;
  return (await stillActive(deps, claims.sub, extra)) ? claims : null;
}

/**
 * A `required` bearer: koa-jwt verifies the signature and expiry, then the token must carry a
 * premium access level and an `exp`, and its user must still exist with an enabled invite.
 */
export function requirePremium(deps: BearerDeps): Middleware[] {
  const check = async (ctx: Context, next: Next): Promise<void> => {
    const claims: unknown = ctx.state.user;
    if (!isPremiumClaims(claims)) throw unauthorized('A premium token is required', 'not_premium');
    if (!(await stillActive(deps, claims.sub)))
      throw unauthorized('This premium access has been revoked', 'premium_revoked');
    await next();
  };
  return [koaJwt({ secret: deps.jwtSecret, algorithms: [JWT_ALGORITHM], key: 'user' }), check];
}

/** The binder's bearer check (bind.ts): premium tokens. */
export function premiumBearerCheck(deps: BearerDeps): BearerCheck<PremiumClaims> {
  return {
    required: () => requirePremium(deps),
    optional: (ctx, extra) => premiumBearer(ctx, deps, extra),
  };
}
