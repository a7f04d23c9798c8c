import type { Locator, Page } from '@playwright/test';

/** Legal pages: 'Last Updated' is today's date, written the way the pages write it. */
export function todayAsWritten(date: Date = new Date()): string {
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** Site settings straight from the real API: the source of every URL and e-mail on the pages. */
export interface SettingsForTests {
  siteHeader: string;
  siteSlogan: string;
  siteContactEmail: string;
  socials: { x: string; telegram: string };
  externalUrls: { businessSignupForm: string; apiDocs: string };
}

export async function fetchSettings(page: Page): Promise<SettingsForTests> {
  const response = await page.request.get('/api/settings');
  if (!response.ok()) throw new Error(`GET /api/settings: ${response.status()}`);
  return (await response.json()) as SettingsForTests;
}

/** The API's own reference page, /api/docs (Redoc rendering /api/openapi.json). */
export class ApiReference {
  readonly title: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { level: 1 });
  }

  /** An operation's section, by its summary (its heading also names the operation's anchor). */
  operation(summary: string): Locator {
    return this.page.getByRole('heading', { level: 2, name: new RegExp(`(^| )${summary}$`) });
  }
}

/** The landing parts of `/` that mfe-content renders (hero on top, sections under the comparison). */
export class Landing {
  readonly heroHeading: Locator;
  readonly pigiCard: Locator;
  readonly features: Locator;
  readonly howItWorks: Locator;
  readonly audit: Locator;
  readonly faq: Locator;
  readonly faqQuestions: Locator;
  readonly closing: Locator;

  constructor(readonly page: Page) {
    this.heroHeading = page.getByRole('heading', { level: 1 }).first();
    this.pigiCard = page.getByRole('figure', { name: /Illustration of a savings account/ });
    this.features = page.locator('#features');
    this.howItWorks = page.locator('#how-it-works');
    this.audit = page.locator('#audit');
    this.faq = page.locator('#faq');
    this.faqQuestions = this.faq.getByRole('button');
    this.closing = page.getByRole('region', { name: 'Make your savings work as hard as you do' });
  }

  goto() {
    return this.page.goto('/');
  }

  faqQuestion(text: string | RegExp): Locator {
    return this.faq.getByRole('button', { name: text });
  }

  faqAnswer(text: string | RegExp): Locator {
    return this.faq.getByRole('region', { name: text });
  }
}

/** A page of this remote rendered inside the shell's `<main class="page">`. */
export class ContentPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly backHome: Locator;

  constructor(readonly page: Page) {
    this.main = page.locator('main.page');
    this.heading = page.getByRole('heading', { level: 1 });
    this.backHome = page.getByRole('link', { name: /Back to Home/ }).first();
  }

  /** Toasts are antd notifications: title and description in one container. */
  toast(title: string): Locator {
    return this.page.locator('.ant-notification-notice').filter({ hasText: title });
  }
}

export class HowToPage extends ContentPage {
  readonly toggle: Locator;
  readonly options: Locator;

  constructor(page: Page) {
    super(page);
    this.toggle = page.getByRole('group', { name: 'Show options for' });
    this.options = this.main.locator('li').filter({ has: page.locator('[data-risk]') });
  }

  trackButton(name: 'TradFi' | 'Crypto'): Locator {
    return this.toggle.getByRole('button', { name, exact: true });
  }

  badgeOf(title: string): Locator {
    return this.options
      .filter({ has: this.page.getByRole('heading', { name: title, exact: true }) })
      .locator('[data-risk]');
  }
}
