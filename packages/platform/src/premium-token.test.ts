import { decodeTokenPayload, evaluatePremiumToken } from './premium-token.ts';

const NOW = 1_800_000_000;

function token(payload: object | string, parts = 3): string {
  const encoded =
    typeof payload === 'string'
      ? payload
      : Buffer.from(JSON.stringify(payload)).toString('base64url');
  return ['eyJhbGciOiJIUzI1NiJ9', encoded, 'signature'].slice(0, parts).join('.');
}

describe('evaluatePremiumToken', () => {
  it('accepts a premium token that has not expired', () => {
    const verdict = evaluatePremiumToken(
      token({ exp: NOW + 60, accessLevel: 'premium', email: 'a@b.co', userId: 'u1' }),
      NOW,
    );
    expect(verdict).toEqual({
      status: 'premium',
      payload: { exp: NOW + 60, accessLevel: 'premium', email: 'a@b.co', userId: 'u1' },
    });
  });

  it('treats exp as seconds and refuses an expired token', () => {
    expect(evaluatePremiumToken(token({ exp: NOW - 1, accessLevel: 'premium' }), NOW).status).toBe(
      'expired',
    );
    expect(evaluatePremiumToken(token({ exp: NOW, accessLevel: 'premium' }), NOW).status).toBe(
      'expired',
    );
  });

  it('refuses a token of another access level', () => {
    expect(evaluatePremiumToken(token({ exp: NOW + 60, accessLevel: 'basic' }), NOW).status).toBe(
      'not-premium',
    );
  });

  it.each([
    ['two parts', token({ exp: NOW + 60, accessLevel: 'premium' }, 2)],
    ['four parts', `${token({ exp: NOW + 60, accessLevel: 'premium' })}.extra`],
    ['an undecodable payload', token('%%%not-base64%%%')],
    ['a payload that is not JSON', token(Buffer.from('hello').toString('base64url'))],
    ['a payload without exp', token({ accessLevel: 'premium' })],
  ])('calls a token with %s malformed', (_label, value) => {
    expect(evaluatePremiumToken(value, NOW).status).toBe('malformed');
  });

  it('reports no token when none is stored', () => {
    expect(evaluatePremiumToken(null, NOW)).toEqual({ status: 'none' });
    expect(evaluatePremiumToken('', NOW)).toEqual({ status: 'none' });
  });

  it('decodes base64url payloads with non-ASCII text', () => {
    expect(
      decodeTokenPayload(token({ exp: 1, accessLevel: 'premium', email: 'zoë@example.com' }))
        ?.email,
    ).toBe('zoë@example.com');
  });
});
