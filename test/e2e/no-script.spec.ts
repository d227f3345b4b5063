/**
 * The page before or without its script (a slow phone, a blocked chunk): the waitlist form is a plain
 * HTML form that posts to the API, which sends the visitor on to a result page in their language; the
 * demo's forms do nothing rather than reload the page. No address ever appears in a URL.
 */
import type { Page, Response } from '@playwright/test';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import {
  containing,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  type LocaleCase,
  SECURITY_HEADER_NAMES,
  test,
} from './support';

let addressCount = 0;
const newAddress = (locale: string) =>
  `noscript.${locale}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

/** Every URL the page navigates to, and every redirect's Location on the way, from now on. */
function recordNavigation(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) urls.push(request.url());
  });
  page.on('response', (response: Response) => {
    const location = response.headers().location;
    if (location) urls.push(location);
  });
  return urls;
}

function signupForm(page: Page, { copy }: LocaleCase) {
  const section = page.getByRole('region', { name: copy.signup.title });
  return {
    email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
    submit: section.getByRole('button', { name: copy.signup.submit }),
  };
}

async function submitWithoutScript(page: Page, localeCase: LocaleCase, address: string): Promise<void> {
  const form = signupForm(page, localeCase);
  await form.email.fill(address);
  await Promise.all([page.waitForURL(/\/waitlist\//), form.submit.click()]);
}

for (const localeCase of LOCALE_CASES) {
  const { locale, path, copy } = localeCase;
  const results = copy.meta.waitlistResultTitles;
  const resultPath = (result: string) => `${locale === 'en' ? '/en' : ''}/waitlist/${result}`;

  test.describe(`the waitlist form without a script, in ${locale}`, () => {
    test.use({ javaScriptEnabled: false });

    test('joins, then finds the same address already registered, with no address in any URL', async ({
      page,
    }) => {
      const urls = recordNavigation(page);
      const address = newAddress(locale);
      await page.goto(path);

      await submitWithoutScript(page, localeCase, address);
      expect(new URL(page.url()).pathname).toBe(resultPath('joined'));
      // Leads with the step left, confirming by mail, then the inbox and the spam folder, as the page with a
      // script does; never the address.
      await expect(
        page.getByRole('heading', { level: 1, name: copy.meta.waitlistResultTitles['waitlist-joined'] }),
      ).toBeVisible();
      await expect(page.getByText(copy.signup.notices.successBody)).toBeVisible();
      await expect(page.getByText(containing(copy.signup.spamFolder))).toBeVisible();
      await expect(page.locator('body')).not.toContainText(address);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);

      // Stored: the same mailbox, typed in capitals, is already on the list.
      await page.goto(path);
      await submitWithoutScript(page, localeCase, address.toUpperCase());
      expect(new URL(page.url()).pathname).toBe(resultPath('already-registered'));
      await expect(page.getByText(copy.signup.notices.duplicateBody)).toBeVisible();
      await expect(page.getByText(copy.signup.notConfirmedYet)).toBeVisible();

      expect(urls.length).toBeGreaterThan(3);
      for (const url of urls) expect(url, url).not.toMatch(/@|%40/);
    });

    test('an address the rule refuses leads to its message and back to the form', async ({ page }) => {
      const urls = recordNavigation(page);
      await page.goto(path);
      // The browser's own check lets `ann@example` through; the page's rule asks for a dot after the @.
      await submitWithoutScript(page, localeCase, 'ann@example');

      expect(new URL(page.url()).pathname).toBe(resultPath('invalid-email'));
      await expect(
        page.getByRole('heading', { level: 1, name: results['waitlist-invalid-email'] }),
      ).toBeVisible();
      await expect(page.getByText(copy.signup.errors.malformed(copy.signup.exampleEmail))).toBeVisible();

      await page.getByRole('link', { name: resultCopy[locale].backToForm }).click();
      await expect(page).toHaveURL(new RegExp(`${path}#signup$`));
      await expect(signupForm(page, localeCase).email).toBeVisible();
      for (const url of urls) expect(url, url).not.toMatch(/@|%40/);
    });

    test('a store that is down leads to the try-again page, and Back finds the address still typed', async ({
      page,
    }) => {
      // What the API answers a form post when the store fails (see the handler's tests and the
      // integration tests with the store stopped).
      await page.route('**/api/waitlist', (route) =>
        route.fulfill({
          status: 303,
          headers: { location: resultPath('try-again'), 'cache-control': 'no-store' },
        }),
      );
      const address = newAddress(locale);
      await page.goto(path);
      await submitWithoutScript(page, localeCase, address);

      expect(new URL(page.url()).pathname).toBe(resultPath('try-again'));
      await expect(
        page.getByRole('heading', { level: 1, name: results['waitlist-try-again'] }),
      ).toBeVisible();
      await expect(page.getByText(copy.signup.notices.errorBody)).toBeVisible();
      await expect(page.getByText(resultCopy[locale].notSaved)).toBeVisible();

      await page.goBack();
      await expect(signupForm(page, localeCase).email).toHaveValue(address);
    });

    test('the demo’s forms do nothing: no reload, no `/?`', async ({ page }) => {
      const urls = recordNavigation(page);
      await page.goto(path);
      const demo = page.getByRole('region', { name: copy.demo.title });

      await demo.getByRole('textbox', { name: copy.demo.input.label }).fill('melk');
      await demo.getByRole('button', { name: copy.demo.input.send }).click();
      await demo.getByRole('textbox', { name: copy.demo.tryFirst.label }).fill('melk, brood');
      await demo.getByRole('button', { name: copy.demo.tryFirst.submit }).click();
      await demo.getByRole('textbox', { name: copy.demo.tryFirst.label }).press('Enter');

      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
      expect(urls).toHaveLength(1);
    });
  });

  // Axe runs in the page, so this one runs with the script; the HTML is the same prerendered page.
  test(`every result page in ${locale} is a noindex page with the site's head and security headers, and axe finds nothing`, async ({
    page,
  }) => {
    // Four pages, each loaded and checked by axe: three times the time of a one-page test.
    test.slow();
    for (const result of ['joined', 'already-registered', 'invalid-email', 'try-again'] as const) {
      const response = await page.goto(resultPath(result));
      expect(response?.status()).toBe(200);
      const headers = response?.headers() ?? {};
      for (const name of SECURITY_HEADER_NAMES) expect(headers[name], name).toBeTruthy();
      await expect(page).toHaveTitle(`${results[`waitlist-${result}`]} · Mandje`);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
      await expect(page.locator('link[rel="manifest"]')).toHaveCount(1);
      await expect(page.getByRole('navigation', { name: copy.common.languageNavLabel })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await expectNoAxeViolations(page);
    }
  });
}
