import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, fetchPremiumToken } from '../fixtures/index.ts';
import { SiteChrome, appTookOver } from '../pages/chrome.ts';
import { E2E_ROOT } from '../scripts/e2e-env.ts';

/** Every route of the site, with the heading its page shows. */
const ROUTE_HEADINGS: [path: string, heading: string | RegExp][] = [
  ['/options', /.+/],
  ['/options/lido', /Lido/],
  ['/strategy/3', /.+/],
  ['/strategy-detail/3', /.+/],
  ['/vault', 'Yield Generation Excellence'],
  ['/b2b', 'The First Plug-and-Play API for Crypto Savings'],
  ['/sources-of-yield', 'Sources of the Yield'],
  ['/advantages', 'Advantages'],
  ['/risks', 'Understanding the Risks'],
  ['/how-to', 'TradFi versus Crypto'],
  ['/learn', 'Coming Soon'],
  ['/methodology', 'How We Compute the Risk-Adjusted APR'],
  ['/help-center', 'Help Center'],
  ['/subscribe', 'Soon'],
  ['/coming-soon', 'Coming Soon'],
  ['/privacy-policy', 'Privacy Policy'],
  ['/terms-of-service', 'Terms of Service'],
  ['/cookies-policy', 'Cookies Policy'],
  ['/security', 'Security'],
  ['/pricing', 'Premium Access'],
  ['/tally-success', 'Thank You!'],
];

test.describe('routes', () => {
  for (const [path, heading] of ROUTE_HEADINGS) {
    test(`${path} renders its heading`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(heading);
      await expect(page).toHaveTitle(/ \| .+/);
    });
  }

  test('/ renders the landing hero, the comparison and the landing sections', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.locator('#how-it-works')).toBeAttached();
    await expect(page.locator('#faq')).toBeAttached();
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
    await expect(page.locator('meta[property="og:title"]')).toHaveCount(1);
  });

  test('an unknown path shows the not-found page and logs the path', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(consoleErrors.some((line) => line.includes('/no/such/page'))).toBe(true);
  });

  test("every path no page matches answers 404 with the site's not-found page, dotted or not", async ({
    page,
  }) => {
    for (const probe of ['/no-such-page', '/a/b/c', '/faq/x', '/foo.bar', '/index.html']) {
      const response = await page.goto(probe);
      expect(response?.status(), probe).toBe(404);
      await expect(page.getByText('Oops! Page not found')).toBeVisible();
    }
    // A dotted path of a known page is that page: an unknown id redirects as the spec says.
    const strategy = await page.goto('/strategy/3.0');
    expect(strategy?.status()).toBe(200);
    await expect(page.getByText('Oops! Page not found')).toHaveCount(0);
    expect((await page.goto('/options/lido.x'))?.status()).toBe(200);
    await expect(page).toHaveURL(/\/options$/);
    // Real files are files; a missing one in an asset folder is a short 404.
    const remotes = await page.request.get('/remotes.json');
    expect(remotes.status()).toBe(200);
    expect(remotes.headers()['content-type']).toContain('application/json');
    for (const file of [
      '/remotes/mfe-strategy/remoteEntry.js',
      '/remotes/mfe-strategy/pages.json',
    ]) {
      expect((await page.request.get(file)).status(), file).toBe(200);
    }
    const missing = await page.request.get('/remotes/mfe-strategy/no-such-chunk.js');
    expect(missing.status()).toBe(404);
    expect(missing.headers()['content-type']).toContain('text/plain');
  });

  test('/about and /blog are not pages and hide the footer', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/about');
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
    await expect(chrome.footer).toHaveCount(0);
  });

  test('navigating to a new path scrolls to the top', async ({ page }) => {
    await page.goto('/risks');
    // A navigation is the app's: it has replaced the server's paint.
    await appTookOver(page);
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.evaluate(() => {
      window.history.pushState({}, '', '/learn');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coming Soon');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('header and footer', () => {
  test('full header lists its entries in order and shows Pricing to visitors', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/risks');
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toBeVisible();
    expect(await chrome.navEntries()).toEqual([
      'How It Works',
      'Advantages',
      'Sources of the yield',
      'Yield Scanner',
      'Learn',
      'Pricing',
      'FAQ',
    ]);
    await expect(chrome.header).toHaveCSS('position', 'fixed');
    await expect(chrome.header).toHaveClass(/site-header--top/);
  });

  test('header turns into a bar after scrolling more than 20 px', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/sources-of-yield');
    await expect(chrome.header).toHaveClass(/site-header--top/);
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect(chrome.header).toHaveClass(/site-header--scrolled/);
    // Scrolled while the page was still the server's paint: the app keeps the reader's place.
    await appTookOver(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(200);
  });

  test('strategy pages get the slim header', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/options/lido');
    await expect(chrome.header).toHaveAttribute('data-variant', 'slim');
    await expect.poll(() => chrome.navEntries()).toEqual(['Learn', 'Pricing']);
  });

  test('a valid premium token shows Log Out, and Log Out clears it', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/learn');
    const token = await fetchPremiumToken(page);
    await page.evaluate((value) => window.localStorage.setItem('premiumToken', value), token);
    await page.reload();
    const logOut = chrome.mainNav.getByRole('button', { name: 'Log Out' });
    await expect(logOut).toBeVisible();
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toHaveCount(0);
    await logOut.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('premiumToken'))).toBeNull();
  });

  test('How It Works and FAQ go home and scroll to their sections', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/advantages');
    await chrome.mainNav.getByRole('button', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('#faq')).toBeInViewport();
    await chrome.mainNav.getByRole('button', { name: 'How It Works' }).click();
    await expect(page.locator('#how-it-works')).toBeInViewport();
  });

  test('at 375 px the menu is a toggle whose dropdown closes after a choice', async ({ page }) => {
    const chrome = new SiteChrome(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/risks');
    await expect(chrome.mainNav).toBeHidden();
    await expect(chrome.mobileMenu).toBeHidden();
    await chrome.menuToggle.click();
    await expect(chrome.mobileMenu).toBeVisible();
    await expect(chrome.menuToggle).toHaveAttribute('aria-expanded', 'true');
    await chrome.mobileMenu.getByRole('link', { name: 'Learn' }).click();
    await expect(page).toHaveURL(/\/learn$/);
    await expect(chrome.mobileMenu).toBeHidden();
  });

  test('footer shows links, socials and the current year, and hides on legal pages', async ({
    page,
  }) => {
    const chrome = new SiteChrome(page);
    await page.goto('/learn');
    for (const [name, href] of [
      ['Learn', '/learn'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms-of-service'],
      ['Cookies Policy', '/cookies-policy'],
    ]) {
      await expect(chrome.footer.getByRole('link', { name, exact: true })).toHaveAttribute(
        'href',
        href!,
      );
    }
    await expect(chrome.footer.getByRole('link', { name: 'X (Twitter)' })).toHaveAttribute(
      'href',
      /^https:/,
    );
    await expect(chrome.footer.getByRole('link', { name: 'Telegram' })).toHaveAttribute(
      'href',
      /^https:/,
    );
    await expect(chrome.footer).toContainText(String(new Date().getFullYear()));
    for (const path of [
      '/privacy-policy',
      '/terms-of-service',
      '/cookies-policy',
      '/help-center',
      '/security',
      '/risks',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(chrome.footer).toHaveCount(0);
    }
  });
});

test.describe('remote failures are contained', () => {
  test('an unreachable remote shows a fallback with Retry while the rest works', async ({
    page,
  }) => {
    const chrome = new SiteChrome(page);
    let blocked = true;
    await page.route('**/remotes/mfe-content/**', (route) =>
      blocked ? route.abort() : route.continue(),
    );
    await page.goto('/risks');
    await expect(page.getByRole('alert')).toContainText('This part of the page is unavailable');
    await expect(chrome.header).toBeVisible();
    // Other remotes' routes keep working in the same session.
    await chrome.mainNav.getByRole('link', { name: 'Pricing' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Premium Access');
    // The remote comes back: Retry loads it.
    await page.goBack();
    blocked = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Understanding the Risks');
  });

  test('a remote whose entry 404s shows the fallback and the footer stays', async ({ page }) => {
    await page.route('**/remotes/mfe-premium/remoteEntry.js', (route) =>
      route.fulfill({ status: 404, body: 'Not found' }),
    );
    await page.goto('/pricing');
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.locator('footer.site-footer')).toBeVisible();
  });

  test('no page downloads a remote it does not render', async ({ page }) => {
    const remotesLoaded = new Set<string>();
    page.on('request', (request) => {
      // Every remote's pages.json (its page list, for the route table) is read on every page;
      // its code only where it is rendered.
      const match = /\/remotes\/([^/]+)\/(?!pages\.json$)/.exec(request.url());
      if (match) remotesLoaded.add(match[1]!);
    });
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Premium Access');
    expect([...remotesLoaded]).toEqual(['mfe-premium']);
  });
});

test.describe('screenshots', () => {
  const artifacts = path.join(E2E_ROOT, '.artifacts', 'edges');
  for (const width of [375, 800, 1280]) {
    test(`the 404 page, a strategy page and /strategy/3 at ${width} px`, async ({ page }) => {
      mkdirSync(artifacts, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      expect((await page.goto('/no-such-page'))?.status()).toBe(404);
      await expect(page.getByText('Oops! Page not found')).toBeVisible();
      await page.screenshot({ path: path.join(artifacts, `404-${width}.png`), fullPage: true });
      await page.goto('/options/lido');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lido Finance');
      await page.screenshot({ path: path.join(artifacts, `lido-${width}.png`) });
      await page.goto('/strategy/3');
      await expect(page.getByTestId('card-tvl')).toContainText('holders (sample)');
      await page.screenshot({ path: path.join(artifacts, `strategy-3-${width}.png`) });
      for (const shown of ['404', 'lido', 'strategy-3']) {
        expect(existsSync(path.join(artifacts, `${shown}-${width}.png`))).toBe(true);
      }
    });
  }
});
