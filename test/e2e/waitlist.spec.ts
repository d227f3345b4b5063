import type { Page } from '@playwright/test';
import {
  containing,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  type LocaleCase,
  openPage,
  test,
} from './support';

let addressCount = 0;
/** A new address for each join, unique across runs and workers. */
const newAddress = (locale: string) =>
  `e2e.${locale}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

function signup(page: Page, { copy }: LocaleCase) {
  const section = page.getByRole('region', { name: copy.signup.title });
  return {
    email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
    submit: section.getByRole('button', { name: copy.signup.submit }),
    success: page.getByRole('status').filter({ hasText: copy.signup.notices.successTitle }),
    alert: page.getByRole('alert'),
  };
}

for (const localeCase of LOCALE_CASES) {
  const { locale, path, copy } = localeCase;
  const notices = copy.signup.notices;

  test.describe(`joining the waitlist in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test('after joining, the form gives way to "check your inbox" with the address as typed and a way to correct it', async ({
      page,
    }) => {
      const form = signup(page, localeCase);
      const address = newAddress(locale).replace('@example.nl', '@Exampel.nl');
      await form.email.fill(`  ${address} `);
      await form.submit.click();

      await expect(form.success).toContainText(notices.successBody);
      // Exactly as typed, so a typo shows; the spam folder is mentioned; the form has given way.
      await expect(form.success.getByText(address, { exact: true })).toBeVisible();
      await expect(form.success).toContainText(copy.signup.spamFolder);
      await expect(form.email).toHaveCount(0);
      await expect(page.getByText(copy.signup.note)).toHaveCount(0);

      await form.success.getByRole('button', { name: copy.signup.changeAddress }).click();
      await expect(form.email).toHaveValue(address);
      await expect(form.email).toBeFocused();
      await expect(form.success).toHaveCount(0);
    });

    test('a mistyped mail domain is pointed out when the field is left, and one press puts the likely address in', async ({
      page,
    }) => {
      const form = signup(page, localeCase);
      const name = newAddress(locale).split('@')[0];
      await form.email.fill(`${name}@gmial.com`);
      await form.email.press('Tab');

      const likely = page.getByRole('button', { name: `${name}@gmail.com` });
      await expect(likely).toBeVisible();
      await expect(form.email).toHaveAccessibleDescription(
        containing(copy.signup.didYouMean.split('{')[0] ?? ''),
      );
      await expect(form.success).toHaveCount(0);
      await expectNoAxeViolations(page, '#signup');

      await likely.click();
      await expect(form.email).toHaveValue(`${name}@gmail.com`);
      await form.submit.click();
      await expect(form.success.getByText(`${name}@gmail.com`, { exact: true })).toBeVisible();
    });

    test('the same address again is already registered: neutral news, with the advice to look for the mail', async ({
      page,
    }) => {
      const form = signup(page, localeCase);
      const address = newAddress(locale);
      await form.email.fill(address);
      await form.submit.click();
      await expect(form.success).toContainText(notices.successBody);

      await form.success.getByRole('button', { name: copy.signup.changeAddress }).click();
      await form.email.fill(address.toUpperCase());
      await form.submit.click();
      const already = page.getByRole('status').filter({ hasText: notices.duplicateTitle });
      await expect(already).toContainText(notices.duplicateBody);
      await expect(already).toContainText(copy.signup.notConfirmedYet);
      await expect(form.alert.filter({ hasText: notices.duplicateTitle })).toHaveCount(0);
      await expect(form.email).toHaveValue(address.toUpperCase());
    });

    test('while the request is on its way the button says so and cannot be pressed again', async ({
      page,
    }) => {
      const form = signup(page, localeCase);
      let requests = 0;
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/waitlist', async (route) => {
        requests++;
        await released;
        await route.continue();
      });
      await form.email.fill(newAddress(locale));
      await form.submit.click();

      const sending = page.getByRole('button', { name: copy.signup.sending });
      await expect(sending).toBeDisabled();
      await sending.click({ force: true });
      release();
      await expect(form.success).toContainText(notices.successBody);
      expect(requests).toBe(1);
    });

    test('a store that is down gives the error notice and keeps the address', async ({ page }) => {
      const form = signup(page, localeCase);
      await page.route('**/api/waitlist', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"unavailable"}' }),
      );
      const address = newAddress(locale);
      await form.email.fill(address);
      await form.submit.click();

      await expect(form.alert).toContainText(notices.errorTitle);
      await expect(form.alert).toContainText(notices.errorBody);
      await expect(form.email).toHaveValue(address);
    });

    test('a lost connection gives the error notice and keeps the address', async ({ page }) => {
      const form = signup(page, localeCase);
      await page.route('**/api/waitlist', (route) => route.abort('internetdisconnected'));
      const address = newAddress(locale);
      await form.email.fill(address);
      await form.submit.click();

      await expect(form.alert).toContainText(notices.errorBody);
      await expect(form.email).toHaveValue(address);
    });

    test('axe finds nothing with a success notice or an error notice showing', async ({ page }) => {
      const form = signup(page, localeCase);
      await form.email.fill(newAddress(locale));
      await form.submit.click();
      await expect(form.success).toBeVisible();
      await expectNoAxeViolations(page);

      await page.route('**/api/waitlist', (route) =>
        route.fulfill({ status: 503, body: '{"error":"unavailable"}' }),
      );
      await form.success.getByRole('button', { name: copy.signup.changeAddress }).click();
      await form.email.fill(newAddress(locale));
      await form.submit.click();
      await expect(form.alert).toContainText(notices.errorBody);
      await expectNoAxeViolations(page);
    });

    test('the notice follows a language switch', async ({ page }) => {
      const form = signup(page, localeCase);
      await form.email.fill(newAddress(locale));
      await form.submit.click();
      await expect(form.success).toContainText(notices.successBody);

      const other = LOCALE_CASES.find((each) => each.locale !== locale) as LocaleCase;
      await page
        .getByRole('navigation', { name: copy.common.languageNavLabel })
        .getByRole('link', {
          name: new RegExp(other.locale.toUpperCase()),
        })
        .click();
      await expect(
        page.getByRole('status').filter({ hasText: other.copy.signup.notices.successTitle }),
      ).toContainText(other.copy.signup.notices.successBody);
    });
  });
}
