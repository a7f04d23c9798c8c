/** Premium token rules: three parts, decodable payload, exp not past, premium. */

export interface PremiumTokenPayload {
  exp: number;
  accessLevel: string;
  email?: string | null;
  userId?: string;
  sub?: string;
}

export type TokenVerdict =
  | { status: 'none' }
  | { status: 'premium'; payload: PremiumTokenPayload }
  | { status: 'expired'; payload: PremiumTokenPayload }
  | { status: 'not-premium'; payload: PremiumTokenPayload }
  | { status: 'malformed' };

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function decodeTokenPayload(token: string): PremiumTokenPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return null;
  try {
    const payload: unknown = JSON.parse(decodeBase64Url(parts[1]!));
    if (!payload || typeof payload !== 'object') return null;
    const { exp, accessLevel } = payload as Record<string, unknown>;
    if (typeof exp !== 'number' || typeof accessLevel !== 'string') return null;
    return payload as PremiumTokenPayload;
  } catch {
    return null;
  }
}

/** Judges a stored token at `nowSeconds` (token expiry is compared with the time in seconds). */
export function evaluatePremiumToken(
  token: string | null | undefined,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): TokenVerdict {
  if (!token) return { status: 'none' };
  const payload = decodeTokenPayload(token);
  if (!payload) return { status: 'malformed' };
  if (payload.exp <= nowSeconds) return { status: 'expired', payload };
  if (payload.accessLevel !== 'premium') return { status: 'not-premium', payload };
  return { status: 'premium', payload };
}
