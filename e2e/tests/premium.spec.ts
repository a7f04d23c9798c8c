import {
  test,
  expect,
  createInviteCode,
  fetchPremiumToken,
  storeToken,
} from '../fixtures/index.ts';
import { outboxMessagesTo } from '../fixtures/outbox.ts';
import { SiteChrome } from '../pages/chrome.ts';
import { mintToken, PremiumPages, tokenPayload } from '../pages/premium.ts';
import { E2E_DATA_DIR } from '../scripts/e2e-env.ts';

interface Settings {
  externalUrls: { premiumPurchaseForm: string; premiumRequestForm: string };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

test.describe('premium journey', () => {
  test('pricing → invite code → email → premium report → Log Out, enforced by the server', async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    const chrome = new SiteChrome(page);
    const inviteCode = createInviteCode({ maxUses: 5 });
    const email = `saver-${Date.now()}@example.com`;

    await page.goto('/pricing');
    await expect(premium.heading()).toHaveText('Premium Access');
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toBeVisible();

    // Loading state: the real request is only held back long enough to be seen.
    await premium.slowDown('/api/premium', 800);
    await premium.inviteInput.fill(inviteCode);
    await premium.loginButton.click();
    await expect(premium.loggingInButton).toBeDisabled();

    await expect(page).toHaveURL(/\/premium-email$/);
    await expect(premium.heading()).toHaveText('Almost There!');
    const inviteToken = await premium.storedToken();
    expect(inviteToken).not.toBeNull();
    expect(tokenPayload(inviteToken!)).toMatchObject({ accessLevel: 'premium', email: null });
    expect(JSON.parse((await premium.storedUser())!)).toMatchObject({ accessLevel: 'premium' });
    await expect(page.getByText('premium updates and strategy reports')).toBeVisible();

    await premium.slowDown('/api/premiumLogin', 800);
    const timing = await premium.watchActivationTiming();
    await premium.emailInput.fill(email);
    await premium.activateButton.click();
    await expect(premium.activatingButton).toBeDisabled();

    const success = premium.toast('Success!', 'Your premium account has been activated. Welcome!');
    await expect(success).toBeVisible();
    await expect(page).toHaveURL(/\/$/, { timeout: 5000 });
    const { respondedAt, leftAt } = await timing();
    // Home 1.5 s after the activation succeeded.
    expect(leftAt - respondedAt).toBeGreaterThanOrEqual(1500);
    expect(leftAt - respondedAt).toBeLessThan(2500);
    // The toast outlives the page it came from.
    await expect(success).toBeVisible();
    const activatedToken = await premium.storedToken();
    expect(tokenPayload(activatedToken!)).toMatchObject({ accessLevel: 'premium', email });
    await expect(chrome.mainNav.getByRole('button', { name: 'Log Out' })).toBeVisible();

    // The premium report comes from the protected API with the stored token.
    const analysis = page.waitForResponse((r) => r.url().endsWith('/api/premium/strategies/3'));
    await page.goto('/premium/3');
    expect((await analysis).status()).toBe(200);
    await expect(premium.heading()).toHaveText('Premium Strategy #3');
    await expect(premium.report).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Risk assessment' })).toBeVisible();
    await expect(premium.riskCharges.getByRole('listitem')).toHaveCount(6);
    // Highcharts loads only when the chart comes near the viewport.
    await premium.historyChart.scrollIntoViewIfNeeded();
    await expect(premium.historyChart.locator('svg.highcharts-root')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Third-party ratings' })).toBeVisible();
    for (const benefit of [
      'Risk assessment',
      'Historical performance',
      'Yield recommendations',
      'Allocation strategies',
      'Real-time insights',
      'Expert consultation',
    ]) {
      await expect(page.getByRole('list', { name: 'Included with premium' })).toContainText(
        benefit,
      );
    }

    await chrome.mainNav.getByRole('button', { name: 'Log Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await premium.storedToken()).toBeNull();
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toBeVisible();

    // Logged out, the premium page is closed again, and so is the API to the old token's holder.
    await page.goto('/premium/3');
    await expect(page).toHaveURL(/\/pricing$/);
    const noToken = await page.request.get('/api/premium/strategies/3');
    expect(noToken.status()).toBe(401);
  });

  test('code + a registered email gives no token, but the e-mailed sign-in link makes its owner premium', async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    const chrome = new SiteChrome(page);
    const inviteCode = createInviteCode({ maxUses: 5 });
    const email = `e2e-sign-in-${Date.now()}@example.com`;
    const invite = await page.request.post('/api/premium', { data: { inviteCode } });
    const owner = (await invite.json()) as { token: string; user: { userId: string } };
    const bound = await page.request.post('/api/premiumLogin', {
      data: { email, inviteCode },
      headers: { Authorization: `Bearer ${owner.token}` },
    });
    expect(bound.status()).toBe(200);

    // Someone else with the same code and the owner's email: no token, a link to the owner.
    const probe = await page.request.post('/api/premiumLogin', { data: { email, inviteCode } });
    expect(probe.status()).toBe(202);
    expect(await probe.json()).toMatchObject({ success: true, emailSent: true });
    expect((await probe.json()).token).toBeUndefined();

    let messages: string[] = [];
    await expect
      .poll(async () => (messages = await outboxMessagesTo(E2E_DATA_DIR, email)).length)
      .toBe(1);
    const link = /https?:\/\/\S+\/api\/premium\/sign-in\?token=[\w.-]+/.exec(messages[0]!)![0];
    const url = new URL(link);
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page).toHaveURL(/\/$/);
    await expect(chrome.mainNav.getByRole('button', { name: 'Log Out' })).toBeVisible();
    const stored = await premium.storedToken();
    expect(tokenPayload(stored!)).toMatchObject({
      accessLevel: 'premium',
      email,
      userId: owner.user.userId,
    });
  });

  test("a wrong code shows the 'Error' / 'The code is invalid' toast for 4-5 s and returns to idle", async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    await page.goto('/pricing');
    await premium.inviteInput.fill('NOT-A-REAL-CODE-42');
    // The toast's life is timed by the page's own clock: a loaded machine may poll late, never
    // the page.
    await page.evaluate(() => {
      const times: { shown?: number; gone?: number } = {};
      (window as unknown as { toastTimes: typeof times }).toastTimes = times;
      new MutationObserver(() => {
        const notice = document.querySelector('.ant-notification-notice');
        if (notice && times.shown === undefined) times.shown = performance.now();
        if (!notice && times.shown !== undefined && times.gone === undefined)
          times.gone = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await premium.loginButton.click();

    const toast = premium.toast('Error', 'The code is invalid');
    await expect(toast).toBeVisible();
    await expect(premium.loginButton).toBeEnabled();
    await expect(page).toHaveURL(/\/pricing$/);
    expect(await premium.storedToken()).toBeNull();

    await expect(toast).toBeHidden({ timeout: 15_000 });
    const times = await page.evaluate(
      () => (window as unknown as { toastTimes: { shown: number; gone: number } }).toastTimes,
    );
    // 4.5 s on screen (TOAST_DURATION_S), then antd's leave animation; a loaded page runs its
    // timers late (5.6 s measured with both workers busy), never early.
    expect(times.gone - times.shown).toBeGreaterThanOrEqual(4000);
    expect(times.gone - times.shown).toBeLessThanOrEqual(7000);
  });

  test('a network failure on login shows the same toast', async ({ page }) => {
    const premium = new PremiumPages(page);
    await page.goto('/pricing');
    await page.route('**/api/premium', (route) => route.abort('internetdisconnected'));
    await premium.inviteInput.fill(createInviteCode());
    await premium.loginButton.click();
    await expect(premium.toast('Error', 'The code is invalid')).toBeVisible();
    await expect(premium.loginButton).toBeEnabled();
    await expect(page).toHaveURL(/\/pricing$/);
  });

  test('a failed activation shows its toast and keeps the saver on the page', async ({ page }) => {
    const premium = new PremiumPages(page);
    await page.goto('/pricing');
    await premium.inviteInput.fill(createInviteCode());
    await premium.loginButton.click();
    await expect(premium.heading()).toHaveText('Almost There!');

    await page.route('**/api/premiumLogin', (route) => route.abort('internetdisconnected'));
    await premium.emailInput.fill('saver@example.com');
    await premium.activateButton.click();
    await expect(
      premium.toast('Error', 'Failed to activate premium account. Please try again.'),
    ).toBeVisible();
    await expect(premium.activateButton).toBeEnabled();
    await expect(page).toHaveURL(/\/premium-email$/);
  });
});

test.describe('premium access rules', () => {
  test('/premium-email without an invite code in navigation state goes to /pricing', async ({
    page,
  }) => {
    await page.goto('/premium-email');
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(new PremiumPages(page).heading()).toHaveText('Premium Access');
  });

  test('/premium/:id when not logged in goes to /pricing and says why', async ({ page }) => {
    await page.goto('/premium/5');
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('status')).toContainText(
      'Premium strategy pages are for premium members',
    );
  });

  test('a forged token (valid shape, bad signature) gets no premium data and is sent to /pricing', async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    const chrome = new SiteChrome(page);
    const forged = mintToken({
      sub: 'intruder',
      userId: 'intruder',
      email: 'me@example.com',
      accessLevel: 'premium',
      exp: nowSeconds() + 3600,
    });
    await storeToken(page, forged);

    const refused = page.waitForResponse((r) => r.url().endsWith('/api/premium/strategies/5'));
    await page.goto('/premium/5');
    const response = await refused;
    expect(response.status()).toBe(401);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('breakdown');
    expect(body).not.toHaveProperty('history');

    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('status')).toContainText('Your premium session is no longer valid');
    expect(await premium.storedToken()).toBeNull();
    await expect(premium.report).toHaveCount(0);
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toBeVisible();
  });

  test('a real token with a tampered payload is refused the same way', async ({ page }) => {
    const premium = new PremiumPages(page);
    const real = await fetchPremiumToken(page);
    const [header, payload, signature] = real.split('.');
    const claims = tokenPayload(real);
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: nowSeconds() + 10 * 365 * 86400 })).toString('base64url')}.${signature}`;
    expect(payload).not.toBe(tampered.split('.')[1]);
    await storeToken(page, tampered);

    const refused = page.waitForResponse((r) => r.url().endsWith('/api/premium/strategies/5'));
    await page.goto('/premium/5');
    expect((await refused).status()).toBe(401);
    await expect(page).toHaveURL(/\/pricing$/);
    expect(await premium.storedToken()).toBeNull();
  });

  test('an expired token is removed on load and the visitor is not premium', async ({ page }) => {
    const premium = new PremiumPages(page);
    const chrome = new SiteChrome(page);
    const expired = mintToken({
      sub: 'u',
      userId: 'u',
      email: null,
      accessLevel: 'premium',
      exp: nowSeconds() - 60,
    });
    await storeToken(page, expired);
    await page.goto('/premium/5');
    await expect(page).toHaveURL(/\/pricing$/);
    expect(await premium.storedToken()).toBeNull();
    await expect(chrome.mainNav.getByRole('link', { name: 'Pricing' })).toBeVisible();
  });

  test('a premium member opening /pricing goes to /premium/strategy; the pending session is cleared, the token kept', async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    const token = await fetchPremiumToken(page);
    await storeToken(page, token);
    await page.addInitScript(() =>
      window.localStorage.setItem(
        'premiumUser',
        '{"userId":"pending","email":null,"accessLevel":"premium"}',
      ),
    );
    await page.goto('/pricing');
    await expect(page).toHaveURL(/\/premium\/strategy$/);
    await expect(premium.heading()).toHaveText('Premium Strategy #strategy');
    await expect(premium.analyzingStatus).toContainText(
      'This strategy is being analyzed. The full report will be available soon.',
    );
    expect(await premium.storedUser()).toBeNull();
    expect(await premium.storedToken()).toBe(token);
    // From the generic page a member can open any source's report.
    await page
      .getByRole('navigation', { name: 'Strategy reports' })
      .getByRole('link', { name: 'Ethena - sUSDe' })
      .click();
    await expect(page).toHaveURL(/\/premium\/5$/);
    await expect(premium.report).toBeVisible();
  });
});

test.describe('premium pages content', () => {
  test("'Buy' and 'Request priority access' open the settings' forms in a new tab", async ({
    page,
  }) => {
    const premium = new PremiumPages(page);
    const settings = (await (await page.request.get('/api/settings')).json()) as Settings;
    await page.goto('/pricing');
    await expect(page.getByText('$299')).toBeVisible();
    await expect(page.getByText('per month')).toBeVisible();
    await expect(premium.buyLink).toHaveAttribute(
      'href',
      settings.externalUrls.premiumPurchaseForm,
    );
    await expect(premium.buyLink).toHaveAttribute('target', '_blank');
    await expect(premium.buyLink).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(premium.requestLink).toHaveAttribute(
      'href',
      settings.externalUrls.premiumRequestForm,
    );
    await expect(premium.inviteInput).toHaveAttribute('required', '');
  });

  test('/tally-success thanks the saver, offers another request and a way home', async ({
    page,
  }) => {
    const settings = (await (await page.request.get('/api/settings')).json()) as Settings;
    await page.goto('/tally-success');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank You!');
    await expect(page.getByText(/within 24-48 hours/)).toBeVisible();
    const again = page.getByRole('link', { name: /^Submit Another Request/ });
    await expect(again).toHaveAttribute('href', settings.externalUrls.premiumRequestForm);
    await expect(again).toHaveAttribute('target', '_blank');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a source with an active incident says so in its report', async ({ page }) => {
    await storeToken(page, await fetchPremiumToken(page));
    await page.goto('/premium/8');
    await expect(page.getByRole('note')).toContainText('exploit');
    await expect(page.getByText('Not GREAT')).toBeVisible();
  });

  for (const width of [375, 800, 1280]) {
    test(`premium pages fit a ${width} px screen`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await storeToken(page, await fetchPremiumToken(page));
      for (const path of ['/premium/3', '/premium/strategy', '/tally-success']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (path === '/premium/3') {
          const chart = new PremiumPages(page).historyChart;
          await chart.scrollIntoViewIfNeeded();
          await expect(chart.locator('svg.highcharts-root')).toBeVisible();
        }
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: testInfo.outputPath(`${path.replace(/\//g, '_')}-${width}.png`),
          fullPage: true,
        });
      }
    });
  }
});
