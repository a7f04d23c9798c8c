import { getDefaultStore } from 'jotai';
import * as platform from '@yield/platform';
import { isProAtom } from './pro-view.ts';

describe("the comparison's Standard/Pro toggle", () => {
  it('starts in Standard mode (isPro false)', () => {
    expect(getDefaultStore().get(isProAtom)).toBe(false);
  });

  it("is the comparison's own state, not the shared platform's", () => {
    expect(platform).not.toHaveProperty('isProAtom');
  });
});
