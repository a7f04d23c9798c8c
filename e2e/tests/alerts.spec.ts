/**
 * E-mail alerts: the form on a strategy page and on /compare, the confirmation e-mail in the
 * outbox, its link.
 */
import { test, expect } from '../fixtures/index.ts';
import { outboxMessagesTo as outboxOf } from '../fixtures/outbox.ts';
import { E2E_DATA_DIR } from '../scripts/e2e-env.ts';

/** The e2e server's e-mails to `email`. */
const outboxMessagesTo = (email: string) => outboxOf(E2E_DATA_DIR, email);

test.describe('alert form', () => {
  test('on a strategy page: subscribe, read the confirmation e-mail, confirm by its link', async ({
    page,
  }) => {
    const email = `e2e-alert-${Date.now()}@example.com`;
    await page.goto('/options/sky-spark');
    const form = page.locator('[data-section="alerts"]');
    await expect(
      form.getByRole('heading', { name: 'Get an e-mail when it changes' }),
    ).toBeVisible();
    await expect(
      form.getByLabel('Its risk-adjusted APR falls below the DeFi Base Rate'),
    ).toBeChecked();
    await form.getByLabel('An incident opens').check();

    await form.getByLabel('Email address').fill('not-an-address');
    await form.getByRole('button', { name: 'Send me alerts' }).click();
    await expect(form.getByRole('alert')).toHaveText('Enter a valid email address.');

    await form.getByLabel('Email address').fill(email);
    await form.getByRole('button', { name: 'Send me alerts' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Check your inbox: we sent you a link/);

    let messages: string[] = [];
    await expect.poll(async () => (messages = await outboxMessagesTo(email)).length).toBe(1);
    const message = messages[0]!;
    expect(message).toMatch(/^Subject: Confirm your Pigi alert for /m);
    expect(message).toMatch(/about .+ when an incident opens/);
    const link = /https?:\/\/\S+\/api\/alerts\/confirm\?token=[\w.-]+/.exec(message)![0];
    const url = new URL(link);
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page.getByRole('heading', { name: 'Alert confirmed' })).toBeVisible();
  });
  test('on /compare: the saver picks which compared source the alert is about', async ({
    page,
  }) => {
    const email = `e2e-compare-alert-${Date.now()}@example.com`;
    await page.goto('/compare?ids=3,8,13');
    const form = page.locator('[data-section="alerts"]');
    const source = form.getByRole('combobox', { name: 'Source' });
    await expect(source.getByRole('option')).toHaveText([
      'Liquity v1 - Stability Pool',
      'Resolv - USR Staking',
      'Lido - stETH',
    ]);
    await source.selectOption({ label: 'Lido - stETH' });
    await expect(form).toContainText('when it happens to Lido - stETH');
    await form.getByLabel('Email address').fill(email);
    await form.getByRole('button', { name: 'Send me alerts' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Check your inbox: we sent you a link/);

    let messages: string[] = [];
    await expect.poll(async () => (messages = await outboxMessagesTo(email)).length).toBe(1);
    expect(messages[0]).toMatch(/^Subject: Confirm your Pigi alert for Lido - stETH/m);
  });
});
