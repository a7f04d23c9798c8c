import { POOL_CHARGE_KEYS, RISK_CHARGE_KEYS } from '@yield/contract/constants';
import { POOL_CHARGE_LIST, POOL_CHARGES, RA30_CHARGE_LIST, RA30_CHARGES } from './charges.ts';

describe('the charges in plain words', () => {
  it('names every ra30-v1 charge of the contract, in the method order, each with one line', () => {
    expect(RA30_CHARGE_LIST.map((c) => c.key)).toEqual([...RISK_CHARGE_KEYS]);
    expect(Object.keys(RA30_CHARGES).sort()).toEqual([...RISK_CHARGE_KEYS].sort());
    expect(RA30_CHARGE_LIST.map((c) => c.label)).toEqual([
      'Volatility',
      'Incentive tokens',
      'Safety (expected loss)',
      'Liquidity',
      'Size',
      'Outflows',
    ]);
    for (const charge of RA30_CHARGE_LIST) {
      expect(charge.explanation).toMatch(/^[A-Z].*\.$/);
      expect(charge.explanation).not.toContain('\n');
      expect(charge.explanation.length).toBeLessThan(110);
    }
  });

  it('gives the scanner (rapool-v2) its own five charges, not those of ra30-v1', () => {
    expect(POOL_CHARGE_LIST.map((c) => [c.key, c.label])).toEqual([
      ['impermanentLoss', 'Impermanent loss'],
      ['rewardPrice', 'Reward token price'],
      ['outflow', 'Outflow'],
      ['size', 'Size'],
      ['safety', 'Safety'],
    ]);
    expect(POOL_CHARGE_LIST.map((c) => c.key)).toEqual([...POOL_CHARGE_KEYS]);
    expect(Object.keys(POOL_CHARGES)).not.toContain('volatility');
    for (const charge of POOL_CHARGE_LIST) {
      expect(charge.explanation).toMatch(/^[A-Z].*\.$/);
      expect(charge.explanation.length).toBeLessThan(110);
    }
  });

  it('labels each charge of a method once', () => {
    for (const list of [RA30_CHARGE_LIST, POOL_CHARGE_LIST]) {
      expect(new Set(list.map((c) => c.label)).size).toBe(list.length);
    }
  });
});
