import { atom, getDefaultStore, useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import type { PremiumUser } from '@yield/contract';
import { evaluatePremiumToken, type PremiumTokenPayload } from './premium-token.ts';

/** Browser storage keys. Keep the names: renaming one would log every premium saver out. */
export const PREMIUM_TOKEN_KEY = 'premiumToken';
export const PREMIUM_USER_KEY = 'premiumUser';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Reads the stored token and keeps it only if it grants premium; an expired, unparsable or
 * non-premium token is removed. Returns the token kept, if any.
 */
export function readValidStoredToken(nowSeconds?: number): string | null {
  const store = storage();
  const token = store?.getItem(PREMIUM_TOKEN_KEY) ?? null;
  const verdict = evaluatePremiumToken(token, nowSeconds);
  if (verdict.status === 'premium') return token;
  if (verdict.status === 'malformed') console.error('error parsing the token');
  if (verdict.status !== 'none') store?.removeItem(PREMIUM_TOKEN_KEY);
  return null;
}

const tokenBaseAtom = atom<string | null>(null);
tokenBaseAtom.debugLabel = 'premiumToken';

/** The stored premium token (jotai, mirrored to localStorage under `premiumToken`). */
export const premiumTokenAtom = atom(
  (get) => get(tokenBaseAtom),
  (_get, set, token: string | null) => {
    const store = storage();
    if (token) store?.setItem(PREMIUM_TOKEN_KEY, token);
    else store?.removeItem(PREMIUM_TOKEN_KEY);
    set(tokenBaseAtom, token);
  },
);

export const premiumPayloadAtom = atom<PremiumTokenPayload | null>((get) => {
  const verdict = evaluatePremiumToken(get(tokenBaseAtom));
  return verdict.status === 'premium' ? verdict.payload : null;
});

export const isPremiumAtom = atom((get) => get(premiumPayloadAtom) !== null);

/** Loads the stored token into the shared store; called once by the shell before first render. */
export function initSession(): void {
  getDefaultStore().set(tokenBaseAtom, readValidStoredToken());
}

export function readStoredUser(): PremiumUser | null {
  const raw = storage()?.getItem(PREMIUM_USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PremiumUser;
  } catch {
    return null;
  }
}

export function useSession() {
  const token = useAtomValue(premiumTokenAtom);
  const payload = useAtomValue(premiumPayloadAtom);
  const setToken = useSetAtom(premiumTokenAtom);

  /** Stores the session after an invite-code login (token, and the user when provided). */
  const saveSession = useCallback(
    (nextToken: string, user?: PremiumUser | null) => {
      if (user) storage()?.setItem(PREMIUM_USER_KEY, JSON.stringify(user));
      setToken(nextToken);
    },
    [setToken],
  );
  /** Clears the pending invite-login session (user) and keeps the premium token. */
  const clearPendingSession = useCallback(() => storage()?.removeItem(PREMIUM_USER_KEY), []);
  /** Log Out: removes the stored premium token. */
  const logOut = useCallback(() => {
    storage()?.removeItem(PREMIUM_USER_KEY);
    setToken(null);
  }, [setToken]);

  return {
    token,
    payload,
    isPremium: payload !== null,
    saveSession,
    clearPendingSession,
    logOut,
  };
}
