/**
 * Confirming a signup by mail, as a person does it, in both languages, with and without a script: join,
 * take the link from the mail (the runner's outbox), open it, press the button, see the result.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CONFIRM_RESULT_PAGES, CONFIRM_RESULT_PATH } from '#contract/confirmation';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { linkInMailTo } from './mail-link';
import { expect, expectNoAxeViolations, LOCALE_CASES, type LocaleCase, openPage, test } from './support';

const OUTBOX = join(process.env.MANDJE_E2E_DATA_DIR as string, 'outbox');

let addressCount = 0;
const newAddress = (label: string) =>
  `confirm.${label}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

function signupForm(page: Page, { copy }: LocaleCase) {
  const section = page.getByRole('region', { name: copy.signup.title });
  return {
    email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
    submit: section.getByRole('button', { name: copy.signup.submit }),
  };
}

for (const localeCase of LOCALE_CASES) {
  const { locale, path, copy } = localeCase;
  const page_ = confirmCopy[locale].page;

  test.describe(`confirming a signup in ${locale}, with the script`, () => {
    test('join, open the link, press the button: confirmed in place, and the page is clean', async ({
      page,
    }) => {
      const email = newAddress(`${locale}.js`);
      await openPage(page, path);
      const form = signupForm(page, localeCase);
      await form.email.fill(email);
      await form.submit.click();
      await expect(
        page.getByRole('status').filter({ hasText: copy.signup.notices.successTitle }),
      ).toBeVisible();
      // Where the mail went, as typed, so a typo would show.
      await expect(page.getByRole('status').getByText(email, { exact: true })).toBeVisible();

      const link = await linkInMailTo(OUTBOX, email, '/api/confirm');
      await openPage(page, link);
      await expect(page.getByRole('heading', { level: 1, name: copy.meta.confirmTitle })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      // The token leaves the address bar.
      await expect.poll(() => new URL(page.url()).search).not.toContain('t=');
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: page_.button }).click();
      await expect(
        page.getByRole('heading', { name: copy.meta.confirmResultTitles['confirm-confirmed'] }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: page_.button })).toHaveCount(0);
      await expectNoAxeViolations(page);

      // The link again: its button now says it was confirmed before.
      await openPage(page, link);
      await page.getByRole('button', { name: page_.button }).click();
      await expect(
        page.getByRole('heading', { name: copy.meta.confirmResultTitles['confirm-already-confirmed'] }),
      ).toBeVisible();
    });
  });

  test.describe(`confirming a signup in ${locale}, without a script`, () => {
    test.use({ javaScriptEnabled: false });

    test('join, open the link, press the button: the confirmed page, then already confirmed', async ({
      page,
    }) => {
      const email = newAddress(`${locale}.nojs`);
      await page.goto(path);
      const form = signupForm(page, localeCase);
      await form.email.fill(email);
      await Promise.all([page.waitForURL(/\/waitlist\/joined$/), form.submit.click()]);

      const link = await linkInMailTo(OUTBOX, email, '/api/confirm');
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: copy.meta.confirmTitle })).toBeVisible();
      await Promise.all([
        page.waitForURL(/\/confirm\//),
        page.getByRole('button', { name: page_.button }).click(),
      ]);
      expect(new URL(page.url()).pathname).toBe(CONFIRM_RESULT_PATH.confirmed[locale]);
      await expect(
        page.getByRole('heading', { level: 1, name: copy.meta.confirmResultTitles['confirm-confirmed'] }),
      ).toBeVisible();

      await page.goto(link);
      await Promise.all([
        page.waitForURL(/\/confirm\//),
        page.getByRole('button', { name: page_.button }).click(),
      ]);
      expect(new URL(page.url()).pathname).toBe(CONFIRM_RESULT_PATH['already-confirmed'][locale]);
    });
  });

  // Axe runs in the page, so with the script; the HTML is the same prerendered page.
  test(`every confirmation result page in ${locale} is a clean noindex page`, async ({ page }) => {
    // Six pages with axe each: about 30 s on a busy 2-core machine, so three times the usual time.
    test.slow();
    for (const result of CONFIRM_RESULT_PAGES) {
      const response = await openPage(page, CONFIRM_RESULT_PATH[result][locale]);
      expect(response?.status()).toBe(200);
      await expect(
        page.getByRole('heading', { level: 1, name: copy.meta.confirmResultTitles[`confirm-${result}`] }),
      ).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expectNoAxeViolations(page);
    }
  });
}
