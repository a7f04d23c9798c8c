import {
  ApiError,
  getJson,
  postJson,
  type PremiumInviteResponse,
  type PremiumLoginResponse,
  type PremiumStrategyAnalysis,
  type PremiumUser,
} from '@yield/platform';

export interface InviteLoginResult {
  token: string;
  user: PremiumUser | null;
}

/**
 * POST /api/premium {inviteCode}. Anything short of `success: true` with a token is a failure:
 * the page shows the same toast for a wrong code, a rate limit and a network error alike.
 */
export async function loginWithInviteCode(inviteCode: string): Promise<InviteLoginResult> {
  const body = await postJson<PremiumInviteResponse>('/api/premium', { inviteCode });
  if (body.success !== true || typeof body.token !== 'string' || body.token.length === 0) {
    throw new Error('The invite code was not accepted');
  }
  return { token: body.token, user: body.user ?? null };
}

export interface ActivationResult {
  /** The server re-issues the token with the email in it; stored when present. */
  token: string | null;
}

/** POST /api/premiumLogin {email, inviteCode}: binds the email to the invite's premium account. */
export async function activatePremium(
  email: string,
  inviteCode: string,
): Promise<ActivationResult> {
  const body = await postJson<PremiumLoginResponse>('/api/premiumLogin', { email, inviteCode });
  if (body.success !== true) throw new Error('Activation was not accepted');
  return { token: typeof body.token === 'string' && body.token.length > 0 ? body.token : null };
}

/** GET /api/premium/strategies/:id, koa-jwt protected (getJson sends the stored bearer token). */
export function fetchPremiumAnalysis(strategy: string): Promise<PremiumStrategyAnalysis> {
  return getJson<PremiumStrategyAnalysis>(
    `/api/premium/strategies/${encodeURIComponent(strategy)}`,
  );
}

/** The server refused the token (forged, expired or revoked): the session must end. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** Client errors are answers, not outages: retrying them cannot help. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
