import { describe, expect, it } from 'vitest';
import { alertLink, alertsSecret, signAlertToken, verifyAlertToken } from './links.ts';

const SECRET = 'links-test-secret';
const NOW = new Date('2026-11-23T12:00:00Z');
const IN_AN_HOUR = new Date(NOW.getTime() + 3_600_000);

describe('signed alert links', () => {
  it('a token names its subscription for its action only', () => {
    const token = signAlertToken(SECRET, 'confirm', 'sub-1', IN_AN_HOUR);
    expect(verifyAlertToken(SECRET, 'confirm', token, NOW)).toEqual({
      ok: true,
      subscriptionId: 'sub-1',
    });
    expect(verifyAlertToken(SECRET, 'unsubscribe', token, NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('a tampered token, another secret or garbage is invalid', () => {
    const token = signAlertToken(SECRET, 'unsubscribe', 'sub-1', null);
    const [payload, sig] = token.split('.') as [string, string];
    const other = Buffer.from('unsubscribe.sub-2.0').toString('base64url');
    for (const bad of [
      `${other}.${sig}`,
      `${payload}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${payload}.`,
      'garbage',
      '',
      `${payload}.${sig}.extra`,
    ])
      expect(verifyAlertToken(SECRET, 'unsubscribe', bad, NOW).ok).toBe(false);
    expect(verifyAlertToken('another-secret', 'unsubscribe', token, NOW).ok).toBe(false);
  });

  it('another spelling of the same bytes is not the link that was sent', () => {
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last character of base64url text carries unused bits: flipping the lowest one spells
    // the same bytes (a 32-byte signature is 43 characters, 2 bits unused).
    const respell = (text: string) => {
      const last = ALPHABET.indexOf(text.at(-1)!);
      return `${text.slice(0, -1)}${ALPHABET[last ^ 1]}`;
    };
    for (const id of ['sub-1', 'sub-2', 'sub-3', 'sub-4']) {
      const token = signAlertToken(SECRET, 'unsubscribe', id, null);
      const [payload, sig] = token.split('.') as [string, string];
      expect(Buffer.from(respell(sig), 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
      expect(verifyAlertToken(SECRET, 'unsubscribe', `${payload}.${respell(sig)}`, NOW).ok).toBe(
        false,
      );
      // The payload likewise, when its length leaves bits unused.
      if (Buffer.from(respell(payload), 'base64url').equals(Buffer.from(payload, 'base64url')))
        expect(verifyAlertToken(SECRET, 'unsubscribe', `${respell(payload)}.${sig}`, NOW).ok).toBe(
          false,
        );
      expect(verifyAlertToken(SECRET, 'unsubscribe', token, NOW).ok).toBe(true);
    }
  });

  it('a confirmation link expires; an unsubscribe link does not', () => {
    const confirm = signAlertToken(SECRET, 'confirm', 'sub-1', IN_AN_HOUR);
    expect(verifyAlertToken(SECRET, 'confirm', confirm, IN_AN_HOUR)).toEqual({
      ok: false,
      reason: 'expired',
    });
    const unsubscribe = signAlertToken(SECRET, 'unsubscribe', 'sub-1', null);
    const years = new Date('2040-01-01T00:00:00Z');
    expect(verifyAlertToken(SECRET, 'unsubscribe', unsubscribe, years).ok).toBe(true);
  });

  it('the secret is ALERTS_SECRET when set, else derived from the JWT secret (stable)', () => {
    const explicit = 'an-explicit-alerts-secret-0123456789';
    expect(alertsSecret('jwt', explicit)).toBe(explicit);
    expect(() => alertsSecret('jwt', 'explicit')).toThrow(
      /ALERTS_SECRET must be at least 32 bytes/,
    );
    expect(alertsSecret('jwt', undefined)).toBe(alertsSecret('jwt', ''));
    expect(alertsSecret('jwt', undefined)).not.toBe(alertsSecret('jwt2', undefined));
    expect(alertsSecret('jwt', undefined)).not.toContain('jwt');
  });

  it('links are on the public site URL, under its path', () => {
    expect(alertLink('https://pigi.finance', '/api/alerts/confirm', 'a.b')).toBe(
      'https://pigi.finance/api/alerts/confirm?token=a.b',
    );
    expect(alertLink('https://example.com/pigi/', '/api/alerts/unsubscribe', 'a.b')).toBe(
      'https://example.com/pigi/api/alerts/unsubscribe?token=a.b',
    );
  });
});
