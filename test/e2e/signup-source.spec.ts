/**
 * Where a signup came from, as a real browser sends it: with the page's script, the landing URL's UTM
 * values and the referring site's host in the JSON; without it, the form post's Referer (the page's own
 * address, which the referrer policy keeps whole on the same origin). The operator's `show` reads the
 * record back through the running store.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { messages } from '../../frontend/src/i18n/messages';
import { expect, openPage, test, waitUntilInteractive } from './support';

const repoRoot = resolve(import.meta.dirname, '../..');

let addressCount = 0;
const newAddress = (label: string) =>
  `source.${label}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

/** The record `npm run waitlist -- show` prints for `email`: the one record of its mailbox. */
async function storedRecord(email: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      'operator/waitlist-tool.ts',
      'show',
      email,
      '--data-dir',
      process.env.MANDJE_E2E_DATA_DIR as string,
    ],
    { cwd: repoRoot, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
  );
  return (JSON.parse(stdout) as Record<string, unknown>[])[0] ?? {};
}

function signupForm(page: Page, locale: 'nl' | 'en') {
  const copy = messages[locale].signup;
  const section = page.getByRole('region', { name: copy.title });
  return {
    email: section.getByRole('textbox', { name: copy.emailLabel }),
    submit: section.getByRole('button', { name: copy.submit }),
  };
}

test.describe('with the page’s script', () => {
  test('a signup keeps the link’s UTM values and the referring site’s name, not its address', async ({
    page,
  }) => {
    const email = newAddress('script');
    // Arriving by a link on another site: that site's page is the referrer.
    await page.goto('/en/?utm_source=Newsletter&utm_medium=email&utm_campaign=december&fbclid=abc', {
      referer: 'https://www.instagram.com/p/secret-post?igsh=123',
    });
    await waitUntilInteractive(page);
    const copy = messages.en.signup;
    const form = signupForm(page, 'en');
    await form.email.fill(email);
    await form.submit.click();
    await expect(page.getByRole('status').filter({ hasText: copy.notices.successTitle })).toBeVisible();

    const record = await storedRecord(email);
    expect(record.source).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'december',
      referrer: 'instagram.com',
    });
    expect(JSON.stringify(record)).not.toMatch(/secret-post|fbclid|igsh/);
  });

  test('a visit with no campaign and no other site keeps no source', async ({ page }) => {
    const email = newAddress('direct');
    await openPage(page, '/');
    const form = signupForm(page, 'nl');
    await form.email.fill(email);
    await form.submit.click();
    await expect(
      page.getByRole('status').filter({ hasText: messages.nl.signup.notices.successTitle }),
    ).toBeVisible();

    expect(await storedRecord(email)).not.toHaveProperty('source');
  });
});

test.describe('without the page’s script', () => {
  test.use({ javaScriptEnabled: false });

  test('the form post keeps the UTM values of the page it was sent from', async ({ page }) => {
    const email = newAddress('noscript');
    await page.goto('/?utm_source=Flyer&utm_medium=qr&utm_campaign=market', {
      referer: 'https://www.instagram.com/p/secret-post',
    });
    const form = signupForm(page, 'nl');
    await form.email.fill(email);
    await Promise.all([page.waitForURL(/\/waitlist\/joined$/), form.submit.click()]);

    expect((await storedRecord(email)).source).toEqual({
      utmSource: 'flyer',
      utmMedium: 'qr',
      utmCampaign: 'market',
    });
  });

  test('hostile UTM values in the address are not kept', async ({ page }) => {
    const email = newAddress('noscript-hostile');
    const query = new URLSearchParams({
      utm_source: '<script>alert(1)</script>',
      utm_medium: 'https://evil.example/x',
      utm_campaign: 'Launch',
    });
    await page.goto(`/en/?${query}`);
    const form = signupForm(page, 'en');
    await form.email.fill(email);
    await Promise.all([page.waitForURL(/\/en\/waitlist\/joined$/), form.submit.click()]);

    const record = await storedRecord(email);
    expect(record.source).toEqual({ utmCampaign: 'launch' });
    expect(JSON.stringify(record)).not.toMatch(/<script|alert|evil/);
  });
});
