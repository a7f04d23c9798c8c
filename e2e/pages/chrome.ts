import type { Locator, Page } from '@playwright/test';

/** The shell's header and footer. */
export class SiteChrome {
  readonly header: Locator;
  readonly mainNav: Locator;
  readonly menuToggle: Locator;
  readonly mobileMenu: Locator;
  readonly footer: Locator;
  readonly logo: Locator;

  constructor(readonly page: Page) {
    this.header = page.locator('header.site-header');
    this.mainNav = page.getByRole('navigation', { name: 'Main', exact: true });
    this.menuToggle = page.getByRole('button', { name: /open menu|close menu/i });
    this.mobileMenu = page.getByRole('navigation', { name: 'Main (mobile)' });
    this.footer = page.locator('footer.site-footer');
    this.logo = page.getByRole('link', { name: 'Home' }).first();
  }

  navEntries(nav: Locator = this.mainNav) {
    return nav.locator('a, button').allTextContents();
  }
}

/**
 * Waits until the app has replaced the server's first paint (inert markup that looks like the
 * page): locators then find the app's own elements, not ones about to be replaced.
 */
export async function appTookOver(page: Page): Promise<void> {
  await page.locator('[data-first-paint]').first().waitFor({ state: 'detached' });
}
