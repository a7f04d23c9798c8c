import { test, expect } from '../fixtures/index.ts';
import { SiteChrome } from '../pages/chrome.ts';
import { BASE_URL } from '../scripts/e2e-env.ts';
import {
  ApiReference,
  ContentPage,
  HowToPage,
  Landing,
  fetchSettings,
  todayAsWritten,
} from '../pages/content.ts';

/** Hue in degrees of a CSS `rgb(r, g, b)` colour. */
function hueOf(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((n) => Number(n) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/* Badges: Very High red, High orange, Medium yellow, Low green, Very Low blue (hue ranges). */
const BADGE_HUES: Record<string, [number, number]> = {
  'Very High': [345, 375],
  High: [15, 35],
  Medium: [40, 60],
  Low: [90, 160],
  'Very Low': [200, 250],
};

async function expectBadgeColour(badge: import('@playwright/test').Locator, level: string) {
  await expect(badge).toHaveAttribute('data-risk', level);
  await expect(badge).toHaveText(`${level} risk`);
  const background = await badge.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [low, high] = BADGE_HUES[level]!;
  const hue = hueOf(background);
  const normalised = hue < low ? hue + 360 : hue;
  expect(normalised, `${level} badge ${background}`).toBeGreaterThanOrEqual(low);
  expect(normalised, `${level} badge ${background}`).toBeLessThanOrEqual(high);
}

test.describe('landing on /', () => {
  test('hero shows the headline and slogan from settings, its buttons and the illustrative card', async ({
    page,
  }) => {
    const settings = await fetchSettings(page);
    const landing = new Landing(page);
    await landing.goto();
    await expect(landing.heroHeading).toHaveText(settings.siteHeader);
    await expect(page.getByText(settings.siteSlogan, { exact: true }).first()).toBeVisible();
    await expect(
      page.getByRole('link', { name: 'Get Started', exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'View Demo' })).toBeVisible();
    await expect(landing.pigiCard).toBeVisible();
    await expect(landing.pigiCard).toContainText('Your pigi');
    await expect(landing.pigiCard).toContainText('Total balance');
    await expect(landing.pigiCard).toContainText('Goal');
    await expect(landing.pigiCard).toContainText('Auto-save');
    await expect(landing.pigiCard).toContainText('Protected');
    await expect(landing.pigiCard.getByRole('button', { name: /Add Funds/ })).toBeVisible();
    // The figures are samples, and say so.
    await expect(landing.pigiCard).toContainText('Illustrative example, not real account data.');
    await expect(page.locator('meta[name="description"]').first()).toHaveAttribute('content', /.+/);
  });

  test('View Demo scrolls to how it works', async ({ page }) => {
    const landing = new Landing(page);
    await landing.goto();
    await expect(landing.howItWorks).not.toBeInViewport();
    await page.getByRole('button', { name: 'View Demo' }).click();
    await expect(
      landing.howItWorks.getByRole('heading', { name: 'How It Works' }),
    ).toBeInViewport();
  });

  for (const after of [0, 100]) {
    test(`View Demo lands on how it works when the comparison above it grows during the scroll (+${after} ms)`, async ({
      page,
    }) => {
      // Hold the comparison's data until the scroll has started: it then grows from its
      // spinner to full tables above the section while the page is moving.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/strategies', async (route) => {
        await released;
        await route.continue();
      });
      const landing = new Landing(page);
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      await expect(landing.howItWorks).toBeAttached();
      await expect(page.getByTestId('comparison-loading')).toBeVisible();
      await page.getByRole('button', { name: 'View Demo' }).click();
      await page.waitForTimeout(after);
      release();
      await expect(page.getByTestId('comparison-loading')).toHaveCount(0);
      const heading = landing.howItWorks.getByRole('heading', { name: 'How It Works' });
      await expect(heading).toBeInViewport();
      // Still there once everything has settled.
      await page.waitForTimeout(1000);
      await expect(heading).toBeInViewport();
    });
  }

  test('features, how it works, audit and closing show their texts and links', async ({ page }) => {
    const landing = new Landing(page);
    await landing.goto();
    await expect(landing.features.getByRole('heading', { level: 2 })).toHaveText(
      'Best Reward Ratio on the Market',
    );
    await expect(landing.features.getByRole('heading', { level: 3 })).toHaveText([
      'Best Yield',
      'Not a Trading Strategy',
      'Top-Notch Security',
      'Simple',
      'Instant Transactions',
      'Self-Custody',
    ]);

    await expect(landing.howItWorks.getByRole('heading', { level: 3 })).toHaveText([
      'Create Your Account',
      'Make Your First USDC Deposit',
      'Watch Your Money Grow',
      'Enjoy Financial Freedom',
    ]);
    const phone = landing.howItWorks.getByRole('figure');
    await expect(phone).toContainText('Balance');
    for (const row of ['Deposit', 'Auto-Save', 'Growth']) {
      await expect(phone.getByRole('listitem').filter({ hasText: row }).first()).toBeVisible();
    }
    await expect(phone.getByRole('button', { name: 'Deposit' })).toBeVisible();
    await expect(phone.getByRole('button', { name: 'Withdraw' })).toBeVisible();
    await expect(landing.howItWorks.getByRole('link', { name: 'Get Started' })).toBeVisible();

    await expect(landing.audit.locator('li')).toHaveCount(2);
    await expect(landing.audit.getByRole('link', { name: 'View Audit Reports' })).toHaveAttribute(
      'href',
      '/coming-soon?page=Audit%20Reports',
    );

    await expect(landing.closing.getByRole('link', { name: 'Create Your Account' })).toBeVisible();
    await expect(landing.closing.getByRole('link', { name: 'Learn More' })).toBeVisible();
    await expect(landing.closing).toContainText('No credit card required.');
  });

  test('View Audit Reports opens the coming-soon page', async ({ page }) => {
    const landing = new Landing(page);
    await landing.goto();
    await landing.audit.getByRole('link', { name: 'View Audit Reports' }).click();
    await expect(page).toHaveURL(/\/coming-soon\?page=Audit%20Reports$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coming Soon');
  });

  test('FAQ has seven questions and opens one at a time', async ({ page }) => {
    const landing = new Landing(page);
    await landing.goto();
    await expect(landing.faqQuestions).toHaveCount(7);
    await expect(landing.faq.getByRole('region')).toHaveCount(0);

    const yieldQuestion = landing.faqQuestion('Where does the yield come from?');
    const safetyQuestion = landing.faqQuestion('Is my money safe?');
    await yieldQuestion.click();
    await expect(yieldQuestion).toHaveAttribute('aria-expanded', 'true');
    const yieldAnswer = landing.faqAnswer('Where does the yield come from?');
    await expect(yieldAnswer).toBeVisible();
    await expect(yieldAnswer.getByRole('link')).toHaveAttribute('href', '/sources-of-yield');

    await safetyQuestion.click();
    await expect(safetyQuestion).toHaveAttribute('aria-expanded', 'true');
    await expect(yieldQuestion).toHaveAttribute('aria-expanded', 'false');
    await expect(yieldAnswer).toBeHidden();
    await expect(landing.faq.getByRole('region')).toHaveCount(1);
    await expect(landing.faqAnswer('Is my money safe?').getByRole('link')).toHaveAttribute(
      'href',
      '/risks',
    );

    // Clicking the open question closes it: zero open is allowed, two never.
    await safetyQuestion.click();
    await expect(landing.faq.getByRole('region')).toHaveCount(0);
  });

  test('FAQ works with the keyboard', async ({ page }) => {
    const landing = new Landing(page);
    await landing.goto();
    const first = landing.faqQuestions.nth(0);
    await first.focus();
    await page.keyboard.press('Enter');
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(landing.faqQuestions.nth(1)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(landing.faqQuestions.nth(1)).toHaveAttribute('aria-expanded', 'true');
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('End');
    await expect(landing.faqQuestions.nth(6)).toBeFocused();
  });

  test("header's How It Works and FAQ reach their anchors from another page", async ({ page }) => {
    const chrome = new SiteChrome(page);
    const landing = new Landing(page);
    await page.goto('/risks');
    await chrome.mainNav.getByRole('button', { name: 'How It Works' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      landing.howItWorks.getByRole('heading', { name: 'How It Works' }),
    ).toBeInViewport();

    await page.goto('/advantages');
    await chrome.mainNav.getByRole('button', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      landing.faq.getByRole('heading', { name: 'Frequently Asked Questions' }),
    ).toBeInViewport();
  });
});

test.describe('help center', () => {
  test('View FAQs goes home and scrolls to the FAQ', async ({ page }) => {
    const landing = new Landing(page);
    await page.goto('/help-center');
    await page.getByRole('button', { name: 'View FAQs' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      landing.faq.getByRole('heading', { name: 'Frequently Asked Questions' }),
    ).toBeInViewport();
  });

  test('shows the three cards, the support e-mail from settings and the reply time', async ({
    page,
  }) => {
    const settings = await fetchSettings(page);
    const help = new ContentPage(page);
    await page.goto('/help-center');
    await expect(help.heading).toHaveText('Help Center');
    await expect(help.main.getByRole('heading', { level: 2 })).toHaveText([
      'FAQ',
      'Live Chat',
      'Email Support',
    ]);
    await expect(help.main.getByText('Coming Soon', { exact: true })).toBeVisible();
    await expect(help.main.getByRole('link', { name: settings.siteContactEmail })).toHaveAttribute(
      'href',
      `mailto:${settings.siteContactEmail}`,
    );
    await expect(help.main).toContainText("we'll respond within 24 hours");
    await expect(help.main).toContainText('help documentation is under development');
  });
});

test.describe('how-to', () => {
  test('defaults to Crypto with its six options and badge colours', async ({ page }) => {
    const howTo = new HowToPage(page);
    await page.goto('/how-to');
    await expect(howTo.trackButton('Crypto')).toHaveAttribute('aria-pressed', 'true');
    await expect(howTo.trackButton('TradFi')).toHaveAttribute('aria-pressed', 'false');
    await expect(howTo.options).toHaveCount(6);
    const expected: [string, string][] = [
      ['Active token trading', 'Very High'],
      ['Manual protocol use', 'High'],
      ['Auto-rebalancing vaults', 'Medium'],
      ['Crypto savings accounts / yield-bearing stablecoins', 'Low'],
      ['Running a validator node', 'Low'],
      ['Buying Bitcoin/Ethereum', 'Very Low'],
    ];
    for (const [title, level] of expected) await expectBadgeColour(howTo.badgeOf(title), level);
  });

  test('the toggle switches to TradFi, also with the keyboard', async ({ page }) => {
    const howTo = new HowToPage(page);
    await page.goto('/how-to');
    await howTo.trackButton('TradFi').focus();
    await page.keyboard.press('Space');
    await expect(howTo.trackButton('TradFi')).toHaveAttribute('aria-pressed', 'true');
    await expect(howTo.options).toHaveCount(5);
    const expected: [string, string][] = [
      ['Active stock trading', 'Very High'],
      ['Real Estate', 'High'],
      ['Index funds', 'Medium'],
      ['Treasury bills', 'Low'],
      ['Bank savings', 'Very Low'],
    ];
    for (const [title, level] of expected) await expectBadgeColour(howTo.badgeOf(title), level);
    await howTo.trackButton('Crypto').click();
    await expect(howTo.options).toHaveCount(6);
  });
});

test.describe('coming soon and subscribe', () => {
  test('coming-soon reads its page parameter without displaying it', async ({ page }) => {
    const settings = await fetchSettings(page);
    const marker = 'Zebra Quartz Marker';
    await page.goto(`/coming-soon?page=${encodeURIComponent(marker)}`);
    const comingSoon = new ContentPage(page);
    await expect(comingSoon.heading).toHaveText('Coming Soon');
    await expect(page.locator('body')).not.toContainText(marker);
    await expect(page).not.toHaveTitle(new RegExp(marker));
    await expect(comingSoon.main.getByLabel('Email address')).toHaveAttribute('type', 'email');
    await expect(comingSoon.main.getByRole('button', { name: 'Notify Me' })).toBeVisible();
    const social = comingSoon.main.getByRole('link', { name: /Follow us on X/ });
    await expect(social).toHaveAttribute('href', settings.socials.x);
    await expect(social).toHaveAttribute('target', '_blank');
    await expect(social).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(comingSoon.main.getByRole('link', { name: 'Return to Home' })).toHaveAttribute(
      'href',
      '/',
    );
  });

  test('subscribe: success shows the toast and clears the field', async ({ page }) => {
    const subscribe = new ContentPage(page);
    await page.goto('/subscribe');
    await expect(subscribe.heading).toHaveText('Soon');
    await expect(subscribe.main).toContainText('unsubscribe at any time');
    const email = subscribe.main.getByLabel('Email address');
    await expect(email).toHaveAttribute('required', '');
    await expect(email).toHaveAttribute('type', 'email');

    const address = `content-${Date.now()}@example.com`;
    await email.fill(address);
    const request = page.waitForRequest('**/api/addToMailList');
    await subscribe.main.getByRole('button', { name: 'Subscribe' }).click();
    expect((await request).postDataJSON()).toEqual({ email: address, source: 'subscribe' });
    await expect(subscribe.toast('Success!')).toContainText(
      "You've been added to our mailing list. Please confirm from your inbox",
    );
    await expect(email).toHaveValue('');
  });

  test('subscribe: an empty address is stopped by the browser, nothing is sent', async ({
    page,
  }) => {
    const subscribe = new ContentPage(page);
    let posted = false;
    page.on('request', (req) => {
      if (req.url().includes('/api/addToMailList')) posted = true;
    });
    await page.goto('/subscribe');
    await subscribe.main.getByRole('button', { name: 'Subscribe' }).click();
    const valid = await subscribe.main
      .getByLabel('Email address')
      .evaluate((el) => (el as HTMLInputElement).validity.valid);
    expect(valid).toBe(false);
    await page.waitForTimeout(300);
    expect(posted).toBe(false);
  });

  test('subscribe: a failure shows the error toast and keeps the address', async ({ page }) => {
    const subscribe = new ContentPage(page);
    await page.route('**/api/addToMailList', (route) => route.abort());
    await page.goto('/subscribe');
    const email = subscribe.main.getByLabel('Email address');
    await email.fill('keep-me@example.com');
    await subscribe.main.getByRole('button', { name: 'Subscribe' }).click();
    await expect(subscribe.toast('Error')).toContainText(
      'Failed to add to mailing list. Please try again later.',
    );
    await expect(email).toHaveValue('keep-me@example.com');
  });

  test('notify me posts the address to the mailing list', async ({ page }) => {
    const comingSoon = new ContentPage(page);
    await page.goto('/coming-soon?page=Audit%20Reports');
    const address = `notify-${Date.now()}@example.com`;
    await comingSoon.main.getByLabel('Email address').fill(address);
    const request = page.waitForRequest('**/api/addToMailList');
    await comingSoon.main.getByRole('button', { name: 'Notify Me' }).click();
    expect((await request).postDataJSON()).toEqual({
      email: address,
      source: 'coming-soon/audit-reports',
    });
    await expect(comingSoon.toast('Success!')).toBeVisible();
  });
});

const LEGAL_PAGES: [path: string, title: string, sections: string[]][] = [
  [
    '/privacy-policy',
    'Privacy Policy',
    [
      'Introduction',
      'Data We Collect',
      'How We Use Data',
      'Data Security',
      'Data Retention',
      'Legal Rights',
      'Changes',
      'Contact Us',
    ],
  ],
  [
    '/terms-of-service',
    'Terms of Service',
    [
      'Introduction',
      'Acceptance',
      'Changes',
      'Use of Services',
      'User Responsibilities',
      'Intellectual Property',
      'Limitation of Liability',
      'Governing Law',
      'Contact',
    ],
  ],
  [
    '/cookies-policy',
    'Cookies Policy',
    [
      'What Cookies Are',
      'How We Use Cookies',
      'Session and Persistent Cookies',
      'Third-Party Cookies',
      'Managing Cookies',
      'Changes',
      'Contact',
    ],
  ],
  [
    '/security',
    'Security',
    [
      'Smart Contract Audits',
      'Secure Infrastructure',
      'Bug Bounty Program',
      'More Detail Coming',
      'Security Contact',
    ],
  ],
];

test.describe('legal pages', () => {
  for (const [path, title, sections] of LEGAL_PAGES) {
    test(`${path} shows today's date, every section and Back to Home`, async ({ page }) => {
      const settings = await fetchSettings(page);
      const legal = new ContentPage(page);
      await page.goto(path);
      await expect(legal.heading).toHaveText(title);
      await expect(legal.main).toContainText(`Last Updated: ${todayAsWritten()}`);
      await expect(legal.backHome).toHaveAttribute('href', '/');
      await expect(legal.main.getByRole('heading', { level: 2 })).toHaveText(
        sections.map((name, index) => `${index + 1}. ${name}`),
      );
      await expect(
        legal.main.getByRole('link', { name: settings.siteContactEmail }).first(),
      ).toHaveAttribute('href', `mailto:${settings.siteContactEmail}`);
    });
  }

  test('terms state the 18+ rule and privacy lists every right', async ({ page }) => {
    const legal = new ContentPage(page);
    await page.goto('/terms-of-service');
    await expect(legal.main).toContainText(
      'You must be at least 18 years old to use our services.',
    );
    await page.goto('/privacy-policy');
    for (const right of [
      'Access',
      'Correction',
      'Erasure',
      'Objection',
      'Restriction',
      'Transfer',
      'Withdraw consent',
    ]) {
      await expect(legal.main.locator('li strong', { hasText: right }).first()).toBeVisible();
    }
    for (const kind of [
      'Identity data',
      'Contact data',
      'Technical data',
      'Usage data',
      'Marketing and communications data',
    ]) {
      await expect(legal.main.getByText(kind, { exact: true })).toBeVisible();
    }
  });

  test('Back to Home returns to /', async ({ page }) => {
    const legal = new ContentPage(page);
    await page.goto('/cookies-policy');
    await legal.backHome.click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('static pages', () => {
  test('/vault: ratio box, three benefits and its two buttons', async ({ page }) => {
    const vault = new ContentPage(page);
    await page.goto('/vault');
    await expect(vault.heading).toHaveText('Yield Generation Excellence');
    await expect(vault.main.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
    await expect(vault.main.getByRole('heading', { name: /reward-to-risk ratio/ })).toBeVisible();
    await expect(vault.main.getByRole('heading', { level: 3 })).toHaveText([
      'Vault',
      'Diversification',
      'DeFAI Scanner',
    ]);
    await vault.main.getByRole('link', { name: 'Learn About Our Yield Sources' }).click();
    await expect(page).toHaveURL(/\/sources-of-yield$/);
    await page.goBack();
    await vault.main.getByRole('link', { name: 'Understand the Risks' }).click();
    await expect(page).toHaveURL(/\/risks$/);
  });

  test('/b2b: the sign-up form and API docs open from settings in a new tab', async ({ page }) => {
    const settings = await fetchSettings(page);
    const b2b = new ContentPage(page);
    await page.goto('/b2b');
    await expect(b2b.heading).toHaveText('The First Plug-and-Play API for Crypto Savings');
    await expect(b2b.main.getByRole('heading', { name: 'How It Works' })).toBeVisible();
    await expect(b2b.main.locator('ol > li')).toHaveCount(4);
    for (const item of [
      'Easy API',
      'Fast integration',
      '99.9999% uptime SLA',
      '24/7 support',
      'Automatic monthly payouts',
    ]) {
      await expect(b2b.main.getByText(item, { exact: true })).toBeVisible();
    }
    await expect(
      b2b.main
        .getByRole('heading', { level: 3 })
        .filter({ hasText: /^(Zero effort|No compliance hassle|More revenue|Fully managed)$/ }),
    ).toHaveCount(4);
    await expect(b2b.main).toContainText('0.5% per deposit');
    const links: [RegExp, string][] = [
      [/Get Started/, settings.externalUrls.businessSignupForm],
      [/Schedule a Demo/, settings.externalUrls.businessSignupForm],
      [/View API Documentation/, settings.externalUrls.apiDocs],
    ];
    for (const [name, href] of links) {
      const link = b2b.main.getByRole('link', { name });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  test('/b2b: View API Documentation opens the API reference the API serves', async ({
    page,
    context,
  }) => {
    const origin = new URL(BASE_URL).origin;
    // Nothing the reference loads comes from another origin (no CDN).
    const elsewhere: string[] = [];
    context.on('response', (response) => {
      const url = new URL(response.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) elsewhere.push(url.href);
    });
    const scriptErrors: string[] = [];
    context.on('weberror', (error) => scriptErrors.push(error.error().message));

    await page.goto('/b2b');
    const link = new ContentPage(page).main.getByRole('link', { name: /View API Documentation/ });
    await expect(link).toHaveAttribute('href', '/api/docs');
    const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await expect(docs).toHaveURL(`${origin}/api/docs`);
    await expect(docs).toHaveTitle('Global Yield Leaderboard API reference');
    const reference = new ApiReference(docs);
    // Redoc parses and lays out the whole document before it paints (37 s measured on a busy CI
    // with both workers on pages): allow it a minute.
    await expect(reference.title).toHaveText(/^Global Yield Leaderboard API/, { timeout: 60_000 });
    // Endpoints are rendered from /api/openapi.json: an operation, its path and a response field.
    await expect(reference.operation('Live metrics')).toBeVisible();
    await expect(docs.getByText('/api/strategies', { exact: true }).first()).toBeAttached();
    await expect(docs.getByText('riskAdjustedYield30d').first()).toBeAttached();
    expect(elsewhere).toEqual([]);
    expect(scriptErrors).toEqual([]);
  });

  test('/sources-of-yield: three strategies, the breakdown and its links', async ({ page }) => {
    const sources = new ContentPage(page);
    await page.goto('/sources-of-yield');
    await expect(sources.heading).toHaveText('Sources of the Yield');
    for (const name of [
      'Delta-neutral strategies',
      'Real-world assets: treasury bills',
      'Lending protocols',
      'Yield breakdown',
    ]) {
      await expect(sources.main.getByRole('heading', { level: 2, name })).toBeVisible();
    }
    const table = sources.main.getByRole('table');
    await expect(table).toContainText('4-12%');
    await expect(table).toContainText('4-5%');
    await expect(table).toContainText('6-15%');
    await expect(sources.main).toContainText('110%');
    await expect(sources.main.getByRole('link', { name: 'Our advantages' })).toHaveAttribute(
      'href',
      '/advantages',
    );
    await expect(
      sources.main.getByRole('link', { name: 'Understanding the risks' }),
    ).toHaveAttribute('href', '/risks');
    await expect(sources.backHome).toHaveAttribute('href', '/');
    await expect(sources.main.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/',
    );
  });

  test('/advantages: the six features expanded', async ({ page }) => {
    const advantages = new ContentPage(page);
    await page.goto('/advantages');
    await expect(advantages.heading).toHaveText('Advantages');
    await expect(advantages.main.getByRole('heading', { level: 2 })).toHaveText([
      'Best Yield',
      'Not a Trading Strategy',
      'Top-Notch Security',
      'Simple',
      'Instant Transactions',
      'Self-Custody',
    ]);
    await expect(advantages.main.getByRole('heading', { name: 'Why it matters' })).toHaveCount(6);
  });

  test('/risks: summary bars, detailed sections, disclaimer and buttons', async ({ page }) => {
    const risks = new ContentPage(page);
    await page.goto('/risks');
    await expect(risks.heading).toHaveText('Understanding the Risks');
    const bars: [string, string, number][] = [
      ['Smart Contract', 'Medium', 50],
      ['Protocol', 'Medium', 50],
      ['Market', 'Low-Medium', 30],
      ['Regulatory', 'Low-Medium', 30],
    ];
    for (const [name, level, percent] of bars) {
      const bar = risks.main.getByRole('img', {
        name: `${name} risk: ${level}, ${percent}% on the risk scale`,
      });
      await expect(bar).toBeVisible();
      const ratio = await bar.evaluate((track) => {
        const fill = track.firstElementChild as HTMLElement;
        return fill.getBoundingClientRect().width / track.getBoundingClientRect().width;
      });
      expect(ratio).toBeCloseTo(percent / 100, 2);
    }
    for (const area of ['Smart Contract Risk', 'Protocol Risk', 'Market Risk', 'Regulatory Risk']) {
      await expect(
        risks.main.getByRole('heading', { level: 2, name: new RegExp(`^${area}`) }),
      ).toBeVisible();
    }
    const disclaimer = risks.main.getByRole('region', { name: 'Important Disclaimer' });
    await expect(disclaimer).toContainText('Only invest what you can afford to lose.');
    await expect(disclaimer).toContainText('Understand the risks');
    await expect(disclaimer).toContainText('Stay informed.');
    await expect(risks.main.getByRole('link', { name: 'Our Advantages' })).toHaveAttribute(
      'href',
      '/advantages',
    );
    await expect(risks.main.getByRole('link', { name: 'Sources of the Yield' })).toHaveAttribute(
      'href',
      '/sources-of-yield',
    );
  });

  test('/learn: coming soon with the planned topics', async ({ page }) => {
    const learn = new ContentPage(page);
    await page.goto('/learn');
    await expect(learn.heading).toHaveText('Coming Soon');
    await expect(learn.main.getByRole('heading', { name: 'Planned topics' })).toBeVisible();
    await expect(learn.main.getByRole('heading', { level: 3 })).toHaveCount(6);
  });

  test('/methodology: the charge tables and a worked example from the API', async ({ page }) => {
    const methodology = new ContentPage(page);
    await page.goto('/methodology');
    await expect(methodology.heading).toHaveText('How We Compute the Risk-Adjusted APR');
    await expect(methodology.main).toContainText('ra30-v1');
    const safety = methodology.main.getByRole('table', { name: 'Safety charge' });
    await expect(safety.locator('tbody tr')).toHaveText([
      /^5\s*0\.20$/,
      /^4\s*0\.75$/,
      /^3\s*1\.50$/,
      /^2\s*3\.00$/,
      /^1\s*6\.00$/,
    ]);
    await expect(
      methodology.main.getByRole('table', { name: 'Liquidity charge' }).locator('tbody tr'),
    ).toHaveCount(5);

    const picker = methodology.main.getByLabel('Yield source');
    await picker.selectOption({ label: 'Sky Spark - Savings Account' });
    const expected = (await (await page.request.get('/api/strategies/2/breakdown')).json()) as {
      yield30d: number;
      riskAdjustedYield30d: number;
    };
    const example = methodology.main.getByTestId('worked-example');
    await expect(example).toContainText('Sky Spark - Savings Account');
    await expect(example.getByRole('row', { name: /30-day APR Average/ })).toContainText(
      expected.yield30d.toFixed(2),
    );
    await expect(example.getByRole('row', { name: /= Risk-adjusted 30-day APR/ })).toContainText(
      expected.riskAdjustedYield30d.toFixed(2),
    );
    // Charges in percentage points a year ("−0.20 pp"), as on every page of the site.
    await expect(
      example
        .getByRole('row', { name: /Safety \(expected loss\) charge/ })
        .locator('td')
        .last(),
    ).toHaveText(/^−\d+\.\d\d pp$/);
  });
});

const ALL_PAGES = [
  '/',
  '/vault',
  '/b2b',
  '/sources-of-yield',
  '/advantages',
  '/risks',
  '/how-to',
  '/learn',
  '/help-center',
  '/subscribe',
  '/coming-soon',
  '/methodology',
  '/privacy-policy',
  '/terms-of-service',
  '/cookies-policy',
  '/security',
];

test.describe('layout', () => {
  for (const width of [375, 1280]) {
    test(`every content page fits ${width} px without sideways scrolling (screenshots kept)`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 900 });
      for (const path of ALL_PAGES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
        const name = path === '/' ? 'home' : path.slice(1);
        await page.screenshot({
          path: testInfo.outputPath(`${name}-${width}.png`),
          fullPage: true,
        });
      }
    });
  }
});
