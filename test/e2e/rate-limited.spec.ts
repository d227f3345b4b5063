/**
 * A visitor past the per-client limit: WAF at the edge (the runner locally) answers the signup with 429
 * and its page (#contract/too-many-requests). The page's script shows its own "try again" notice and keeps
 * what was typed; without a script the browser shows that 429 page, which says to wait and try again.
 * The runner's side of this (the limit, and exactly this answer) is test/integration/request-guards.test.ts.
 */
import type { Page } from '@playwright/test';
import {
  TOO_MANY_REQUESTS_CONTENT_TYPE,
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { expect, LOCALE_CASES, type LocaleCase, openPage, test } from './support';

/** Every signup is answered as a client past its limit is answered. */
async function answerPastTheLimit(page: Page): Promise<{ requests: number }> {
  const seen = { requests: 0 };
  await page.route('**/api/waitlist', (route) => {
    seen.requests++;
    return route.fulfill({
      status: TOO_MANY_REQUESTS_STATUS,
      headers: {
        'content-type': TOO_MANY_REQUESTS_CONTENT_TYPE,
        'retry-after': TOO_MANY_REQUESTS_RETRY_AFTER,
      },
      body: TOO_MANY_REQUESTS_HTML,
    });
  });
  return seen;
}

function signupForm(page: Page, { copy }: LocaleCase) {
  const section = page.getByRole('region', { name: copy.signup.title });
  return {
    section,
    email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
    submit: section.getByRole('button', { name: copy.signup.submit }),
  };
}

/** What the 429 page says in each language: it speaks both, its English part marked as such. */
const TOO_MANY = {
  nl: {
    heading: 'Even geduld',
    tryAgain: 'Wacht een minuut en probeer het dan opnieuw.',
    back: 'Terug naar Mandje',
  },
  en: {
    heading: 'Please wait a moment',
    tryAgain: 'Wait a minute, then try again.',
    back: 'Back to Mandje',
  },
} as const;

for (const localeCase of LOCALE_CASES) {
  const { locale, path, copy } = localeCase;

  test(`past the per-client limit, the form shows its try-again notice and keeps the address (${locale})`, async ({
    page,
  }) => {
    const seen = await answerPastTheLimit(page);
    await openPage(page, path);
    const form = signupForm(page, localeCase);
    const address = `limited.${locale}.${Date.now()}@example.nl`;

    await form.email.fill(address);
    await form.submit.click();

    const alert = page.getByRole('alert');
    await expect(alert).toContainText(copy.signup.notices.errorTitle);
    await expect(alert).toContainText(copy.signup.notices.errorBody);
    await expect(form.email).toHaveValue(address);
    await expect(form.section.getByRole('status')).toHaveText('');
    expect(page.url()).toMatch(new RegExp(`${path}$`));
    expect(seen.requests).toBe(1);
  });

  test.describe(`without a script (${locale})`, () => {
    test.use({ javaScriptEnabled: false });

    test('past the per-client limit, the answer is a page that says to wait and try again', async ({
      page,
    }) => {
      await answerPastTheLimit(page);
      await page.goto(path);
      const form = signupForm(page, localeCase);

      await form.email.fill(`limited.noscript.${locale}.${Date.now()}@example.nl`);
      const [response] = await Promise.all([page.waitForResponse('**/api/waitlist'), form.submit.click()]);

      expect(response.status()).toBe(TOO_MANY_REQUESTS_STATUS);
      const said = TOO_MANY[locale];
      await expect(page.getByRole('heading', { name: said.heading })).toBeVisible();
      await expect(page.getByText(said.tryAgain)).toBeVisible();
      // Its link leads back to the form, in the visitor's language.
      await page.getByRole('link', { name: said.back }).click();
      await expect(page).toHaveURL(new RegExp(`${path}#signup$`));
      await expect(signupForm(page, localeCase).email).toBeVisible();
    });
  });
}
