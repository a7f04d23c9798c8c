import type { Locator, Page } from '@playwright/test';

/** The mfe-premium pages: /pricing, /premium-email, /premium/:strategy, /tally-success. */
export class PremiumPages {
  readonly inviteInput: Locator;
  readonly loginButton: Locator;
  readonly loggingInButton: Locator;
  readonly buyLink: Locator;
  readonly requestLink: Locator;
  readonly emailInput: Locator;
  readonly activateButton: Locator;
  readonly activatingButton: Locator;
  readonly report: Locator;
  readonly analyzingStatus: Locator;
  readonly riskCharges: Locator;
  readonly historyChart: Locator;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.inviteInput = page.getByLabel('Invite code', { exact: true });
    this.loginButton = page.getByRole('button', { name: 'Log In to Premium' });
    this.loggingInButton = page.getByRole('button', { name: 'Logging in...' });
    this.buyLink = page.getByRole('link', { name: /^Buy/ });
    this.requestLink = page.getByRole('link', { name: /^Request priority access/ });
    this.emailInput = page.getByLabel('Email address', { exact: true });
    this.activateButton = page.getByRole('button', { name: 'Activate Premium Account' });
    this.activatingButton = page.getByRole('button', { name: 'Activating...' });
    this.report = page.getByTestId('premium-report');
    this.analyzingStatus = page.getByTestId('premium-status');
    this.riskCharges = page.getByRole('list', { name: 'Risk charges' });
    this.historyChart = page.getByTestId('premium-history-chart');
    this.toasts = page.locator('.ant-notification-notice');
  }

  heading(level = 1): Locator {
    return this.page.getByRole('heading', { level });
  }

  toast(title: string, description: string): Locator {
    return this.toasts.filter({ hasText: title }).filter({ hasText: description });
  }

  storedToken(): Promise<string | null> {
    return this.page.evaluate(() => window.localStorage.getItem('premiumToken'));
  }

  storedUser(): Promise<string | null> {
    return this.page.evaluate(() => window.localStorage.getItem('premiumUser'));
  }

  /**
   * Records, inside the page, when the app leaves for `/`, next to when the activation response
   * arrived (polling from the test would add up to half a second of error to a 1.5 s delay).
   */
  async watchActivationTiming(): Promise<() => Promise<{ respondedAt: number; leftAt: number }>> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __leftAt: number };
      w.__leftAt = 0;
      const tick = () => {
        if (window.location.pathname === '/') w.__leftAt = performance.now();
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    return () =>
      this.page.evaluate(() => {
        const activation = performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('/api/premiumLogin'))
          .pop() as PerformanceResourceTiming | undefined;
        return {
          respondedAt: activation?.responseEnd ?? Number.NaN,
          leftAt: (window as unknown as { __leftAt: number }).__leftAt,
        };
      });
  }

  /** Holds one API call for `ms` before letting the real request through (to see loading states). */
  async slowDown(pathname: string, ms: number): Promise<void> {
    await this.page.route(
      (url) => url.pathname === pathname,
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        await route.continue();
      },
    );
  }
}

/** The payload of a JWT, read the way the browser reads it (no signature check). */
export function tokenPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** A token of the right shape that nobody signed: what a visitor could type into localStorage. */
export function mintToken(
  payload: Record<string, unknown>,
  signature = 'bm90LWEtcmVhbC1zaWduYXR1cmU',
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.${signature}`;
}
