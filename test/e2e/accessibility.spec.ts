import type { Page } from '@playwright/test';
import { LEAVE_RESULT_PATH, leaveLink } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import type { Messages } from '../../frontend/src/i18n/messages';
import { PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import {
  containing,
  demoParts,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  openMilkDetails,
  openPage,
  test,
} from './support';

/** The demo's basket view, then its Albert Heijn dialog, each checked by axe as it opens. */
async function expectBasketViewAndDialogClean(page: Page, copy: Messages, locale: Locale) {
  const { basketTab, panel } = demoParts(page, copy);
  await basketTab.click();
  await expect(panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  await panel.getByRole('button', { name: containing(copy.demo.alternative.title('Albert Heijn')) }).click();
  await expect(
    page.getByRole('dialog', { name: dialogCopy[locale].basketDialog.title('Albert Heijn') }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
}

for (const { locale, path, copy } of LOCALE_CASES) {
  test.describe(`accessibility in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await expectNoAxeViolations(page);
    });

    test('axe finds no violations with the product-details dialog open', async ({ page }) => {
      await openMilkDetails(page, copy);
      await expectNoAxeViolations(page);
    });

    test('axe finds no violations in the basket view with the basket dialog open', async ({ page }) => {
      await expectBasketViewAndDialogClean(page, copy, locale);
    });

    test('axe finds no violations with the plus menu open', async ({ page }) => {
      const toggle = page.getByRole('button', { name: copy.demo.plusMenu.toggle });
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(page.getByRole('button', { name: copy.demo.plusMenu.scanReceipt })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    test('axe finds no violations with the signup error and the try-it-first error showing', async ({
      page,
    }) => {
      const signup = page.getByRole('region', { name: copy.signup.title });
      await signup.getByRole('button', { name: copy.signup.submit }).click();
      await expect(signup.getByText(copy.signup.errors.empty)).toBeVisible();
      await expectNoAxeViolations(page);

      await signup.getByRole('textbox', { name: copy.signup.emailLabel }).fill('not-an-email');
      await signup.getByRole('button', { name: copy.signup.submit }).click();
      await expect(signup.getByText(copy.signup.errors.malformed(copy.signup.exampleEmail))).toBeVisible();

      const { section } = demoParts(page, copy);
      await section.getByRole('button', { name: copy.demo.tryFirst.submit }).click();
      await expect(section.getByText(copy.demo.tryFirst.required)).toBeVisible();
      await expectNoAxeViolations(page);
    });
  });
}

test('axe finds no violations on the not-found page, in Dutch and in English', async ({ page }) => {
  for (const { path, copy } of LOCALE_CASES) {
    await openPage(page, `${path}no-such-page`);
    await expect(page.getByRole('heading', { level: 1, name: copy.notFound.title })).toBeVisible();
    await expectNoAxeViolations(page);
  }
});

/**
 * The dark theme is the palette itself, swapped under `prefers-color-scheme: dark` (styles.css), so every
 * pairing of text and ground changes: axe checks the contrast of each kind of page again in dark, in both
 * languages, with the demo's basket view and its dialog open (the page's most varied colours).
 */
test.describe('accessibility in the dark theme', () => {
  test.use({ colorScheme: 'dark' });

  for (const { locale, path, copy } of LOCALE_CASES) {
    test(`axe finds no violations on ${path} in dark, the basket view and its dialog too`, async ({
      page,
    }) => {
      await openPage(page, path);
      await expect
        .poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches))
        .toBe(true);
      await expectNoAxeViolations(page);

      await expectBasketViewAndDialogClean(page, copy, locale);
    });

    test(`axe finds no violations on the ${locale} privacy notice and a waitlist result page in dark`, async ({
      page,
    }) => {
      await openPage(page, PAGE_PATH.privacy[locale]);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page);

      await openPage(page, PAGE_PATH['waitlist-joined'][locale]);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    test(`axe finds no violations on the ${locale} leave page and each leave result page in dark`, async ({
      page,
      baseURL,
    }) => {
      // Any token shows the page: what it removes is decided only when the button is pressed.
      await openPage(page, leaveLink(baseURL as string, locale, 'A'.repeat(43)));
      await expect(page.getByRole('heading', { level: 1, name: copy.meta.leaveTitle })).toBeVisible();
      await expectNoAxeViolations(page);

      for (const result of ['done', 'requested', 'try-again'] as const) {
        await openPage(page, LEAVE_RESULT_PATH[result][locale]);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoAxeViolations(page);
      }
    });
  }
});
