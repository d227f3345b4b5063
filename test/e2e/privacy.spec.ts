import type { Page } from '@playwright/test';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import {
  EN,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  type LocaleCase,
  NL,
  openPage,
  recordConsole,
  SITE,
  test,
} from './support';

const PRIVACY_PATH = { nl: '/privacy', en: '/en/privacy' } as const;
const AP_URL = 'https://autoriteitpersoonsgegevens.nl';

/** The subjects the notice must cover, as its section headings, in order, after its summary. */
function sectionTitles({ locale }: LocaleCase): string[] {
  const notice = privacyCopy[locale];
  return [
    notice.summary,
    notice.controller,
    notice.data,
    notice.purpose,
    notice.retention,
    notice.storage,
    notice.limits,
    notice.logs,
    notice.counting,
    notice.browser,
    notice.leave,
    notice.rights,
  ].map((section) => section.title);
}

async function expectPrivacyPage(page: Page, { locale, copy }: LocaleCase) {
  await expect(page).toHaveURL(new URL(PRIVACY_PATH[locale], page.url()).href);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(privacyCopy[locale].title);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expect(page).toHaveTitle(copy.meta.privacyTitle);
}

function languageLink(page: Page, { copy }: LocaleCase, target: 'NL' | 'EN') {
  return page
    .getByRole('navigation', { name: copy.common.languageNavLabel })
    .getByRole('link', { name: new RegExp(`^${target}\\b`) });
}

for (const localeCase of LOCALE_CASES) {
  const { locale, path, copy } = localeCase;
  const privacyPath = PRIVACY_PATH[locale];
  const notice = privacyCopy[locale];

  test.describe(`privacy notice in ${locale}`, () => {
    test(`the signup section says what the address is for and links to ${privacyPath}`, async ({ page }) => {
      await openPage(page, path);
      const signup = page.getByRole('region', { name: copy.signup.title });
      await expect(signup.getByText(copy.signup.note, { exact: true })).toBeVisible();
      const sentence = copy.signup.privacySentence
        .replace('{days}', String(PENDING_DAYS))
        .replace('{link}', copy.signup.privacyLink);
      await expect(signup.getByText(sentence, { exact: true })).toBeVisible();

      await signup.getByRole('link', { name: copy.signup.privacyLink }).click();

      await expectPrivacyPage(page, localeCase);
    });

    test(`${privacyPath} is prerendered with its own title, canonical address and alternates`, async ({
      request,
    }) => {
      const response = await request.get(privacyPath);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<html lang="${locale}">`);
      expect(html).toContain(notice.title);
      expect(html).toContain(notice.rights.title);
      expect(html).toContain(`<link rel="canonical" href="${SITE.url}${privacyPath}">`);
      expect(html).toContain(`<link rel="alternate" hreflang="nl" href="${SITE.url}/privacy">`);
      expect(html).toContain(`<link rel="alternate" hreflang="en" href="${SITE.url}/en/privacy">`);
    });

    test('covers every subject under its own heading, with the contact address and the AP', async ({
      page,
    }) => {
      await openPage(page, privacyPath);

      await expect(page.getByRole('heading', { level: 2 })).toHaveText(sectionTitles(localeCase));
      const controller = page.getByRole('region', { name: notice.controller.title });
      await expect(controller.getByRole('link', { name: SITE.contactEmail })).toHaveAttribute(
        'href',
        `mailto:${SITE.contactEmail}`,
      );
      const rights = page.getByRole('region', { name: notice.rights.title });
      await expect(rights.getByRole('listitem')).toHaveText(Object.values(notice.rights.items));
      await expect(rights.getByRole('link', { name: SITE.contactEmail })).toBeVisible();
      await expect(rights.getByRole('link', { name: 'Autoriteit Persoonsgegevens' })).toHaveAttribute(
        'href',
        AP_URL,
      );
      await expect(
        page.getByRole('region', { name: notice.browser.title }).getByText('mandje:language'),
      ).toBeVisible();
    });

    test('says what is counted, without cookies, and that a signup keeps only a coarse source', async ({
      page,
    }) => {
      await openPage(page, privacyPath);

      const counting = page.getByRole('region', { name: notice.counting.title });
      await expect(counting.getByText(notice.counting.visits)).toBeVisible();
      await expect(counting.getByText(notice.counting.source)).toBeVisible();
      await expect(counting.getByText(notice.counting.noCookie)).toBeVisible();
      expect(await page.context().cookies()).toEqual([]);
    });

    test('loads without console errors, warnings or failed requests, and axe finds nothing', async ({
      page,
    }) => {
      const record = recordConsole(page);
      const failedRequests: string[] = [];
      page.on('requestfailed', (request) => failedRequests.push(request.url()));
      page.on('response', (response) => {
        if (response.status() >= 400) failedRequests.push(`${response.url()}: ${response.status()}`);
      });

      await openPage(page, privacyPath);
      await expectPrivacyPage(page, localeCase);
      await page.waitForLoadState('networkidle');

      expect(record.errors, 'console errors').toEqual([]);
      expect(record.pageErrors, 'uncaught page errors').toEqual([]);
      expect(record.warnings, 'console warnings').toEqual([]);
      expect(failedRequests, 'failed requests').toEqual([]);
      await expectNoAxeViolations(page);
    });

    test('its home link leads to the home page in the same language', async ({ page }) => {
      await openPage(page, privacyPath);
      await page.getByRole('main').getByRole('link', { name: copy.common.backToHome }).click();

      await expect(page).toHaveURL(new URL(path, page.url()).href);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
    });

    test('the footer of the home page links to the notice', async ({ page }) => {
      await openPage(page, path);
      await page.getByRole('contentinfo').getByRole('link', { name: copy.footer.privacy }).click();

      await expectPrivacyPage(page, localeCase);
    });
  });
}

test('the language switch moves between /privacy and /en/privacy, and a reload keeps the choice', async ({
  page,
}) => {
  await openPage(page, '/privacy');
  await expectPrivacyPage(page, NL);

  await languageLink(page, NL, 'EN').click();
  await expectPrivacyPage(page, EN);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${SITE.url}/en/privacy`);

  await page.reload();
  await expectPrivacyPage(page, EN);

  await languageLink(page, EN, 'NL').click();
  await expectPrivacyPage(page, NL);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${SITE.url}/privacy`);
});

test('a visitor who chose English and opens /privacy gets the English notice at /en/privacy', async ({
  page,
}) => {
  const record = recordConsole(page);
  await openPage(page, '/en/');
  await languageLink(page, EN, 'EN').click();

  await openPage(page, '/privacy');

  await expectPrivacyPage(page, EN);
  expect(record.errors).toEqual([]);
});

test('/privacy/ with a trailing slash is the same page', async ({ request }) => {
  const response = await request.get('/privacy/');
  expect(response.status()).toBe(200);
  expect(await response.text()).toContain(privacyCopy.nl.title);
});
