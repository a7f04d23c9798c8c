/** What /premium-email needs from the invite step: the code the email is bound to. */
export interface PremiumEmailState {
  inviteCode: string;
}

/** Why a visitor was sent to /pricing, so the page can say so instead of looking like a glitch. */
export type PricingNotice = 'premium-required' | 'session-ended';
export interface PricingState {
  notice: PricingNotice;
}

export function readInviteCode(state: unknown): string | null {
  const code = (state as Partial<PremiumEmailState> | null)?.inviteCode;
  return typeof code === 'string' && code.trim().length > 0 ? code : null;
}

export function readPricingNotice(state: unknown): PricingNotice | null {
  const notice = (state as Partial<PricingState> | null)?.notice;
  return notice === 'premium-required' || notice === 'session-ended' ? notice : null;
}
