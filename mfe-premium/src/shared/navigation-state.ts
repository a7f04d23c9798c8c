/** What /premium-email needs from the invite step: the code the email is bound to. */
export interface PremiumEmailState {
  inviteCode: string;
}

/** Why a visitor was sent to /pricing, so the page can say so instead of looking like a glitch. */
export type PricingNotice = 'premium-required' | 'session-ended';
export interface PricingState {
  notice: PricingNotice;
}

/**
 * One object per notice, never a new one per render: `<Navigate>` navigates again whenever its
 * `state` prop changes, and each navigation re-renders the page while the shell's release check
 * runs, so a fresh object would start a new navigation that cancels the last one, forever.
 */
export const PRICING_STATES: Readonly<Record<PricingNotice, Readonly<PricingState>>> = {
  'premium-required': Object.freeze({ notice: 'premium-required' }),
  'session-ended': Object.freeze({ notice: 'session-ended' }),
};

export function readInviteCode(state: unknown): string | null {
  const code = (state as Partial<PremiumEmailState> | null)?.inviteCode;
  return typeof code === 'string' && code.trim().length > 0 ? code : null;
}

export function readPricingNotice(state: unknown): PricingNotice | null {
  const notice = (state as Partial<PricingState> | null)?.notice;
  return notice === 'premium-required' || notice === 'session-ended' ? notice : null;
}
