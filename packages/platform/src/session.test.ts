import { getDefaultStore } from 'jotai';
import {
  PREMIUM_TOKEN_KEY,
  initSession,
  isPremiumAtom,
  premiumTokenAtom,
  readValidStoredToken,
} from './session.ts';

function token(payload: object): string {
  return `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;
}
const future = () => Math.floor(Date.now() / 1000) + 3600;

beforeEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('premium session', () => {
  it('keeps a valid premium token and reports premium', () => {
    const value = token({ exp: future(), accessLevel: 'premium' });
    localStorage.setItem(PREMIUM_TOKEN_KEY, value);
    initSession();
    expect(getDefaultStore().get(premiumTokenAtom)).toBe(value);
    expect(getDefaultStore().get(isPremiumAtom)).toBe(true);
  });

  it('removes an expired token and is not premium', () => {
    localStorage.setItem(PREMIUM_TOKEN_KEY, token({ exp: 1000, accessLevel: 'premium' }));
    initSession();
    expect(localStorage.getItem(PREMIUM_TOKEN_KEY)).toBeNull();
    expect(getDefaultStore().get(isPremiumAtom)).toBe(false);
  });

  it('removes a token of the wrong access level', () => {
    localStorage.setItem(PREMIUM_TOKEN_KEY, token({ exp: future(), accessLevel: 'free' }));
    expect(readValidStoredToken()).toBeNull();
    expect(localStorage.getItem(PREMIUM_TOKEN_KEY)).toBeNull();
  });

  it('logs and removes an unparsable token', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem(PREMIUM_TOKEN_KEY, 'not-a-token');
    initSession();
    expect(error).toHaveBeenCalledWith('error parsing the token');
    expect(localStorage.getItem(PREMIUM_TOKEN_KEY)).toBeNull();
    expect(getDefaultStore().get(isPremiumAtom)).toBe(false);
  });

  it('writes the token through to localStorage and clears it on null', () => {
    const value = token({ exp: future(), accessLevel: 'premium' });
    getDefaultStore().set(premiumTokenAtom, value);
    expect(localStorage.getItem(PREMIUM_TOKEN_KEY)).toBe(value);
    getDefaultStore().set(premiumTokenAtom, null);
    expect(localStorage.getItem(PREMIUM_TOKEN_KEY)).toBeNull();
    expect(getDefaultStore().get(isPremiumAtom)).toBe(false);
  });
});
