import type { Page } from '@playwright/test';
import { containing, expect, LOCALE_CASES, openPage, test } from './support';

// Validation in the browser; joining with a valid address is covered in waitlist.spec.ts.
for (const { locale, path, copy } of LOCALE_CASES) {
  test.describe(`signup form in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    const parts = (page: Page) => {
      const section = page.getByRole('region', { name: copy.signup.title });
      return {
        section,
        email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
        submit: section.getByRole('button', { name: copy.signup.submit }),
      };
    };

    test('starts without an error and with the note as the field description', async ({ page }) => {
      const { section, email } = parts(page);
      await expect(email).toHaveAttribute('aria-invalid', 'false');
      await expect(email).toHaveAccessibleDescription(copy.signup.note);
      await expect(section.getByText(copy.signup.errors.empty)).toHaveCount(0);
    });

    test('submitting an empty address says it is required, marks the field invalid and focuses it', async ({
      page,
    }) => {
      const { section, email, submit } = parts(page);
      await submit.click();
      await expect(section.getByText(copy.signup.errors.empty)).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription(containing(copy.signup.errors.empty));
      await expect(email).toBeFocused();
      await expect(page).toHaveURL(new URL(path, page.url()).href);
    });

    test('an address of only spaces counts as empty', async ({ page }) => {
      const { section, email, submit } = parts(page);
      await email.fill('   ');
      await submit.click();
      await expect(section.getByText(copy.signup.errors.empty)).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
    });

    test('a malformed address shows the example address and marks the field invalid', async ({ page }) => {
      const { section, email, submit } = parts(page);
      const message = copy.signup.errors.malformed(copy.signup.exampleEmail);
      await email.fill('not-an-email');
      await submit.click();
      await expect(section.getByText(message)).toBeVisible();
      await expect(section.getByText(copy.signup.errors.empty)).toHaveCount(0);
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription(containing(message));
      await expect(email).toHaveValue('not-an-email');
    });

    test('typing again clears the error', async ({ page }) => {
      const { section, email, submit } = parts(page);
      await submit.click();
      await expect(section.getByText(copy.signup.errors.empty)).toBeVisible();
      await email.fill('n');
      await expect(section.getByText(copy.signup.errors.empty)).toHaveCount(0);
      await expect(email).toHaveAttribute('aria-invalid', 'false');
    });
  });
}
