/**
 * The page before or without its script (a slow phone, a blocked chunk): the prerendered page is whole, the
 * links are plain links, the waitlist form posts to the API, which sends the visitor on to a result page in
 * their language, and the demo's forms do nothing rather than reload the page. No address is ever in a URL.
 */
import type { Page } from '@playwright/test';
import {
  TOO_MANY_REQUESTS_CONTENT_TYPE,
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import {
  containing,
  expect,
  joinWaitlist,
  LOCALE_CASES,
  newAddress,
  signupIsScrolledTo,
  signupParts,
  test,
} from './support';

test.use({ javaScriptEnabled: false });

/** Every URL the page navigates to, and every redirect's Location on the way, from now on. */
function recordNavigation(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) urls.push(request.url());
  });
  page.on('response', (response) => {
    if (response.headers().location) urls.push(response.headers().location as string);
  });
  return urls;
}

/** What the 429 page says in each language: it speaks both. */
const TOO_MANY = {
  nl: {
    heading: 'Even geduld',
    tryAgain: 'Wacht een minuut en probeer het dan opnieuw.',
    back: 'Terug naar Mandje',
  },
  en: { heading: 'Please wait a moment', tryAgain: 'Wait a minute, then try again.', back: 'Back to Mandje' },
} as const;

for (const { locale, path, copy, ogLocale, other } of LOCALE_CASES) {
  const titles = copy.meta.waitlistResultTitles;
  const resultPath = (result: string) => `${locale === 'en' ? '/en' : ''}/waitlist/${result}`;

  test.describe(`without a script, in ${locale}`, () => {
    test('the page is served whole: its text and head, the demo and its still whose forms do nothing, a plain jump to the form, plain language links', async ({
      page,
      request,
    }) => {
      const urls = recordNavigation(page);
      const response = await request.get(path);
      expect(response.headers()['content-type']).toContain('text/html');
      expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
      const html = await response.text();
      for (const part of [
        `<html lang="${locale}">`,
        `<title>${copy.meta.homeTitle}</title>`,
        `>${copy.hero.title}</h1>`,
      ])
        expect(html).toContain(part);

      await page.goto(path);
      await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', ogLocale);
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(3);
      await expect(
        page.getByRole('region', { name: copy.demo.title }).getByText(copy.demo.productQuestion),
      ).toBeVisible();
      await expect(page.getByRole('figure').getByText(copy.demo.productQuestion)).toBeVisible();
      await expect(page.getByRole('contentinfo').getByText(copy.footer.launching)).toBeVisible();
      // The demo's forms do nothing: no reload, no `/?`.
      const demo = page.getByRole('region', { name: copy.demo.title });
      await demo.getByRole('textbox', { name: copy.demo.input.label }).fill('melk');
      await demo.getByRole('button', { name: copy.demo.input.send }).click();
      await demo.getByRole('textbox', { name: copy.demo.tryFirst.label }).fill('melk, brood');
      await demo.getByRole('button', { name: copy.demo.tryFirst.submit }).click();
      await demo.getByRole('textbox', { name: copy.demo.tryFirst.label }).press('Enter');
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
      expect(urls).toHaveLength(1);
      const heading = page.getByRole('heading', { level: 2, name: copy.signup.title });
      await expect(heading).not.toBeInViewport();
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).click();
      await expect(page).toHaveURL(new RegExp(`${path}#signup$`));
      await expect(heading).toBeInViewport();
      await expect.poll(() => signupIsScrolledTo(page)).toBe(true);
      // The language links are plain links.
      await page.getByRole('link', { name: new RegExp(`^${other.toUpperCase()}\\b`) }).click();
      await expect(page).toHaveURL(new URL(other === 'en' ? '/en/' : '/', page.url()).href);
      await expect(page.locator('html')).toHaveAttribute('lang', other);
    });

    test('joins on a result page and finds the same address already registered; no address in any URL', async ({
      page,
    }) => {
      const urls = recordNavigation(page);
      const address = newAddress(`noscript.${locale}`);
      await page.goto(path);
      await joinWaitlist(page, copy, address, false);
      expect(new URL(page.url()).pathname).toBe(resultPath('joined'));
      // Confirming by mail, then the inbox and the spam folder, as with a script; never the address.
      await expect(page.getByRole('heading', { level: 1, name: titles['waitlist-joined'] })).toBeVisible();
      await expect(page.getByText(copy.signup.notices.successBody)).toBeVisible();
      await expect(page.getByText(containing(copy.signup.spamFolder))).toBeVisible();
      await expect(page.locator('body')).not.toContainText(address);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);

      // Stored: the same mailbox, typed in capitals, is already on the list.
      await page.goto(path);
      await joinWaitlist(page, copy, address.toUpperCase(), false);
      expect(new URL(page.url()).pathname).toBe(resultPath('already-registered'));
      await expect(page.getByText(copy.signup.notices.duplicateBody)).toBeVisible();
      await expect(page.getByText(copy.signup.notConfirmedYet)).toBeVisible();

      // A refused address's page and its way back to the form: the engines tier, and unit result-pages.
      expect(urls.length).toBeGreaterThan(3);
      for (const url of urls) expect(url, url).not.toMatch(/@|%40/);
    });

    test('a store that is down leads to the try-again page, and Back finds the address still typed; past the per-client limit, a page says to wait and leads back', async ({
      page,
    }) => {
      // What the API answers a form post when the store fails (the handler's and integration tests).
      await page.route('**/api/waitlist', (route) =>
        route.fulfill({
          status: 303,
          headers: { location: resultPath('try-again'), 'cache-control': 'no-store' },
        }),
      );
      const address = newAddress(`noscript.${locale}`);
      await page.goto(path);
      await joinWaitlist(page, copy, address, false);
      expect(new URL(page.url()).pathname).toBe(resultPath('try-again'));
      await expect(page.getByRole('heading', { level: 1, name: titles['waitlist-try-again'] })).toBeVisible();
      await expect(page.getByText(copy.signup.notices.errorBody)).toBeVisible();
      await expect(page.getByText(resultCopy[locale].notSaved)).toBeVisible();
      await page.goBack();
      await expect(signupParts(page, copy).email).toHaveValue(address);

      // Past the per-client limit, the answer is a page that says to wait and leads back to the form.
      await page.route('**/api/waitlist', (route) =>
        route.fulfill({
          status: TOO_MANY_REQUESTS_STATUS,
          headers: { 'content-type': TOO_MANY_REQUESTS_CONTENT_TYPE },
          body: TOO_MANY_REQUESTS_HTML,
        }),
      );
      await page.goto(path);
      const { email, submit } = signupParts(page, copy);
      await email.fill(newAddress(`limited.${locale}`));
      const [response] = await Promise.all([page.waitForResponse('**/api/waitlist'), submit.click()]);
      expect(response.status()).toBe(TOO_MANY_REQUESTS_STATUS);
      const said = TOO_MANY[locale];
      await expect(page.getByRole('heading', { name: said.heading })).toBeVisible();
      await expect(page.getByText(said.tryAgain)).toBeVisible();
      await page.getByRole('link', { name: said.back }).click();
      await expect(page).toHaveURL(new RegExp(`${path}#signup$`));
      await expect(signupParts(page, copy).email).toBeVisible();
    });
  });
}
