/**
 * The yield scanner (/scanner) against the real API and its shipped 400-pool sample snapshot: a
 * saver filters, sorts, opens a breakdown and shares the link; the teaser and its call to action
 * without premium; every pool, paging and the CSV with a premium session from an invite code.
 */
import { test, expect, createInviteCode } from '../fixtures/index.ts';
import { SiteChrome } from '../pages/chrome.ts';
import { PremiumPages } from '../pages/premium.ts';
import { ScannerPage } from '../pages/scanner.ts';

test.describe('yield scanner', () => {
  // Whole journeys (several pages, a login, a download): more than one page's default time.
  test.describe.configure({ timeout: 120_000 });

  test('a saver finds USDC on Ethereum, sorts, opens a breakdown and shares the link; the teaser shows 10 rows and the call to action', async ({
    page,
    context,
  }) => {
    const scanner = new ScannerPage(page);
    // Reached from the comparison.
    await page.goto('/options');
    await page.getByRole('link', { name: 'Scan every DeFi pool' }).click();
    await expect(page).toHaveURL(/\/scanner$/);
    // The page's module loads on this first visit (slow on a busy machine).
    await expect(scanner.heading).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveTitle(/^Yield Scanner \| /);
    await expect(scanner.dataNote).toContainText('Sample data as of');

    await scanner.asset.fill('USDC');
    await scanner.chain.fill('Ethereum');
    await scanner.chain.press('Enter');
    await expect(page).toHaveURL(/\/scanner\?asset=USDC&chain=Ethereum$/);
    await scanner.sort.selectOption({ label: 'APY' });
    await expect(page).toHaveURL(/\/scanner\?asset=USDC&chain=Ethereum&sort=apy$/);

    // The teaser: 10 rows of USDC pools on Ethereum, highest APY first, and the call to action.
    await expect(scanner.rows).toHaveCount(10);
    await expect(scanner.status).toContainText(/^\d+ USDC pools on Ethereum · showing 10$/);
    const total = Number.parseInt((await scanner.status.textContent())!, 10);
    expect(total).toBeGreaterThan(10);
    const rows = await scanner.rowTexts();
    for (const cells of rows) {
      const [symbol, where] = cells[1]!.split('\n');
      expect(symbol!.toUpperCase().split('-')).toContain('USDC');
      expect(where).toMatch(/ · Ethereum( · |$)/);
    }
    const apys = await scanner.apys();
    expect(apys).toEqual([...apys].sort((a, b) => b - a));
    await expect(scanner.cta).toBeVisible();
    await expect(scanner.cta.getByRole('heading')).toHaveText(
      `See all ${total} pools with Premium`,
    );
    await expect(scanner.cta.getByRole('link', { name: 'Get Premium' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await expect(scanner.csvButton).toHaveCount(0);

    // The breakdown of the first pool, from the keyboard.
    const first = scanner.rows.first();
    const charges = first.getByRole('button', { name: /^Charges of / });
    await charges.focus();
    await page.keyboard.press('Enter');
    await expect(charges).toHaveAttribute('aria-expanded', 'true');
    const breakdown = first.getByTestId('charge-breakdown');
    await expect(breakdown).toBeVisible();
    await expect(breakdown).toContainText('Expected APR over the next 30 days');
    for (const label of ['Impermanent loss', 'Reward token price', 'Outflow', 'Size', 'Safety'])
      await expect(breakdown).toContainText(`${label} charge`);
    await expect(breakdown).toContainText(/Risk-adjusted (stablecoin|crypto) DeFi Base Rate/);

    // The shared link opens the same filters and the same ranking.
    const shared = page.url();
    const other = await context.newPage();
    const sharedScanner = new ScannerPage(other);
    await other.goto(shared);
    await expect(sharedScanner.rows).toHaveCount(10);
    await expect(sharedScanner.asset).toHaveValue('USDC');
    await expect(sharedScanner.chain).toHaveValue('Ethereum');
    await expect(sharedScanner.sort).toHaveValue('apy');
    expect(await sharedScanner.rowTexts()).toEqual(rows);
    await other.close();

    // Back and forward step through the filters.
    await page.goBack();
    await expect(page).toHaveURL(/\/scanner\?asset=USDC&chain=Ethereum$/);
    await expect(scanner.sort).toHaveValue('riskAdjusted');
    await page.goForward();
    await expect(scanner.sort).toHaveValue('apy');
  });

  test('a premium saver (invite code) sees every pool, loaded as the table scrolls, only the visible rows in the DOM, and downloads the CSV', async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    await page.goto('/pricing');
    await premium.inviteInput.fill(createInviteCode());
    await premium.loginButton.click();
    await expect(page).toHaveURL(/\/premium-email$/);

    // Reached from the header.
    const chrome = new SiteChrome(page);
    await page.goto('/risks');
    await chrome.mainNav.getByRole('link', { name: 'Yield Scanner' }).click();
    const scanner = new ScannerPage(page);
    await expect(scanner.heading).toBeVisible();
    await expect(scanner.status).toContainText(/^\d+ pools · showing 100$/);
    const all = Number.parseInt((await scanner.status.textContent())!, 10);
    expect(all).toBeGreaterThan(200);
    await expect(scanner.cta).toHaveCount(0);
    // Virtualised: a few rows in the DOM out of the 100 loaded.
    expect(await scanner.rows.count()).toBeLessThan(40);
    await expect(scanner.table).toHaveAttribute('aria-rowcount', String(all + 1));
    // Scrolling to the end loads the next page.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(scanner.status).toContainText('showing 200');
    expect(await scanner.rows.count()).toBeLessThan(40);

    // The USDC pools on Ethereum: more than the teaser's 10.
    await page.goto('/scanner?asset=USDC&chain=Ethereum');
    await expect(scanner.status).toContainText(/USDC pools on Ethereum · showing (\d+)/);
    const shown = Number(/showing (\d+)/.exec((await scanner.status.textContent())!)![1]);
    expect(shown).toBeGreaterThan(10);
    expect(await scanner.rows.count()).toBeGreaterThan(10);
    await expect(scanner.cta).toHaveCount(0);

    const download = page.waitForEvent('download');
    await scanner.csvButton.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^pigi-scanner-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await (await file.createReadStream()).toArray();
    const lines = Buffer.concat(text).toString('utf8').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^pool,/);
    expect(lines).toHaveLength(shown + 1);
  });

  test('on a phone (375 px) the filters and the rows fit the screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const scanner = new ScannerPage(page);
    await page.goto('/scanner?stablecoin=true');
    await expect(scanner.status).toContainText(/stablecoin pools · showing 10$/);
    // The rows below the screen are not in the DOM until scrolled to (virtualised).
    await expect(scanner.rows.first()).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The sort select shows its option whole ("Risk-adjusted APR"), and the chain field its
    // placeholder: each text, in the control's own font, fits inside its padding (and the arrow).
    const cut = await page.evaluate(() => {
      const context = document.createElement('canvas').getContext('2d')!;
      return [
        ...document.querySelectorAll<HTMLSelectElement | HTMLInputElement>(
          'form[role="search"] select, form[role="search"] input[placeholder]',
        ),
      ]
        .map((control) => {
          const style = getComputedStyle(control);
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const text =
            control instanceof HTMLSelectElement
              ? control.selectedOptions[0]!.text
              : control.placeholder;
          const room =
            control.clientWidth -
            parseFloat(style.paddingLeft) -
            parseFloat(style.paddingRight) -
            (control instanceof HTMLSelectElement ? 20 : 0);
          return {
            text,
            room: Math.round(room),
            needs: Math.ceil(context.measureText(text).width),
          };
        })
        .filter(({ room, needs }) => needs > room);
    });
    expect(cut).toEqual([]);
    const first = scanner.rows.first();
    await first.getByRole('button', { name: /^Charges of / }).click();
    await expect(first.getByTestId('charge-breakdown')).toBeVisible();
    const box = await first.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(scanner.rows.last().getByRole('cell').first()).toHaveText('10');
    await expect(scanner.cta).toBeVisible();
  });
});
