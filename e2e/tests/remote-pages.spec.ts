import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '../fixtures/index.ts';
import { SiteChrome } from '../pages/chrome.ts';
import { WORKSPACE_ROOT } from '../scripts/e2e-env.ts';

/**
 * Each remote's pages reach the site at run time, from the pages.json its build writes beside
 * remoteEntry.js: deploying one remote is enough to add a page (README, "Deploying one remote
 * alone"), and a remote that cannot be used is contained.
 */

/** Writes a file the way a deployment replaces it: whole, then moved into place. */
function replaceFile(file: string, body: string, mtime?: Date) {
  fs.writeFileSync(`${file}.deploying`, body);
  if (mtime) fs.utimesSync(`${file}.deploying`, mtime, mtime);
  fs.renameSync(`${file}.deploying`, file);
}

/**
 * Adds pages to a built remote's dist/pages.json on the running e2e server, as deploying a new
 * build of that remote alone would. Returns what puts the file back as it was (same bytes, same
 * time, so its precompressed copies and every other spec see the build unchanged).
 */
function deployPages(dir: string, pages: object[]): () => void {
  const file = path.join(WORKSPACE_ROOT, dir, 'dist', 'pages.json');
  const original = fs.readFileSync(file, 'utf8');
  const { mtime } = fs.statSync(file);
  const document = JSON.parse(original) as { pages: object[] };
  replaceFile(file, JSON.stringify({ pages: [...document.pages, ...pages] }, null, 2));
  return () => replaceFile(file, original, mtime);
}

test.describe('a page added by deploying one remote', () => {
  test('is served at once with its header, footer, title and first paint, and leaves with its remote', async ({
    page,
  }) => {
    const chrome = new SiteChrome(page);
    expect((await page.goto('/guides/risks'))?.status()).toBe(404);
    await expect(page.getByText('Oops! Page not found')).toBeVisible();

    // Two new paths, each mapped to a module its remote already exposes. /options/compare is
    // also a case of /options/:id (mfe_strategy): a static path wins over a parameter.
    const restore = [
      deployPages('mfe-content', [
        { path: '/guides/risks', module: './RisksPage', title: 'Risk guide' },
      ]),
      deployPages('mfe-leaderboard', [
        { path: '/options/compare', module: './ComparisonPage', title: 'Compare yields' },
      ]),
    ];
    try {
      // The server knows the page: its HTML is painted by the remote that owns it, with a 200;
      // a path no remote declares is still a 404.
      const added = await page.request.get('/options/compare');
      expect(added.status()).toBe(200);
      expect(await added.text()).toContain('data-first-paint="mfe_leaderboard/ComparisonPage"');
      expect((await page.request.get('/guides/risks')).status()).toBe(200);
      expect((await page.request.get('/guides/no-such-guide')).status()).toBe(404);

      await page.goto('/guides/risks');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Understanding the Risks');
      await expect(page).toHaveURL(/\/guides\/risks$/);
      await expect(page).toHaveTitle(/^Risks \| .+/);
      await expect(chrome.header).toHaveAttribute('data-variant', 'full');
      // /risks hides the footer; the same module at another path follows that path's rule.
      await expect(chrome.footer).toBeVisible();

      // Navigating to the other new page scrolls to the top, as for any page.
      await page.evaluate(() => window.scrollTo(0, 600));
      await page.evaluate(() => {
        window.history.pushState({}, '', '/options/compare');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      await expect(page).toHaveTitle(/^Yield Comparison \| .+/);
      await expect(page).toHaveURL(/\/options\/compare$/);
      await expect(chrome.header).toHaveAttribute('data-variant', 'slim');
      await expect(chrome.footer).toBeAttached();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

      await page.goto('/options/compare');
      await expect(page.getByRole('table').first()).toBeVisible();
      await expect(page).toHaveURL(/\/options\/compare$/);
      await expect(chrome.header).toHaveAttribute('data-variant', 'slim');
    } finally {
      for (const put of restore) put();
    }
    expect((await page.goto('/guides/risks'))?.status()).toBe(404);
    await expect(page.getByText('Oops! Page not found')).toBeVisible();
  });
});

test.describe('a remote that cannot be used is contained', () => {
  test('a remote whose pages.json is invalid loses only its pages, shown as unavailable with Retry', async ({
    page,
    consoleErrors,
  }) => {
    const chrome = new SiteChrome(page);
    await page.route('**/remotes/mfe-premium/pages.json', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: '{ "pages": [{ "path": "pricing" }] }',
      }),
    );
    await page.goto('/pricing');
    await expect(page.getByRole('alert')).toContainText('This part of the page is unavailable');
    await expect(page.getByText('Oops! Page not found')).toHaveCount(0);
    await expect(chrome.footer).toBeVisible();
    expect(consoleErrors.some((line) => line.includes('mfe_premium: pages.json page 1'))).toBe(
      true,
    );
    // Every other remote's pages keep working.
    await chrome.mainNav.getByRole('link', { name: 'Learn' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coming Soon');
    // The list is fixed: Retry loads the page again, page lists included.
    await page.unroute('**/remotes/mfe-premium/pages.json');
    await page.goBack();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Premium Access');
  });

  test('a remote requiring another version of a shared singleton shows the fallback, not a broken page', async ({
    page,
    consoleErrors,
  }) => {
    const chrome = new SiteChrome(page);
    let required = '';
    // mfe-content as if built against @yield/platform 99: its remoteEntry.js requires ^99.0.0
    // of the copy the shell provides (1.x).
    await page.route('**/remotes/mfe-content/remoteEntry.js', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(
        /("@yield\/platform",import:"@yield\/platform",requiredVersion:")([^"]+)"/,
        (_, start: string, version: string) => {
          required = version;
          return `${start}^99.0.0"`;
        },
      );
      await route.fulfill({ response, body });
    });
    await page.goto('/learn');
    await expect(page.getByRole('alert')).toContainText('This part of the page is unavailable');
    expect(required).toMatch(/^\^1\.\d+\.\d+$/);
    await expect(chrome.header).toBeVisible();
    await expect(chrome.footer).toBeVisible();
    expect(
      consoleErrors.some((line) => /@yield\/platform.*does not satisfy.*\^99\.0\.0/s.test(line)),
    ).toBe(true);
    // Remotes built against the shell's versions keep working.
    await chrome.mainNav.getByRole('link', { name: 'Pricing' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Premium Access');
  });
});
