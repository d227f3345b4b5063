/** Dutch at /, English at /en/: switching in place, remembering the choice, and offering English. */
import type { Page } from '@playwright/test';
import { ENGLISH_OFFER } from '../../frontend/src/features/landing/copy/english-offer';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { markWhenInteractive } from './in-page';
import {
  EN,
  expect,
  expectNoAxeViolations,
  joinWaitlist,
  type LocaleCase,
  NL,
  newAddress,
  openPage,
  recordTrouble,
  SITE,
  signupParts,
  test,
} from './support';

/** Leaves a value on `window` that only survives if the page is not reloaded or left. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as { __sameDocument?: boolean }).__sameDocument = true;
  });
const isSameDocument = (page: Page) =>
  page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument);

async function expectLanguage(page: Page, { locale, path, copy }: LocaleCase, privacy = false) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    privacy ? privacyCopy[locale].title : copy.hero.title,
  );
  await expect(page).toHaveURL(new URL(privacy ? `${path}privacy` : path, page.url()).href);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expect(page).toHaveTitle(privacy ? copy.meta.privacyTitle : copy.meta.homeTitle);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `${SITE.url}${new URL(page.url()).pathname}`,
  );
}

const languageLink = (page: Page, { copy }: LocaleCase, target: 'NL' | 'EN') =>
  page
    .getByRole('navigation', { name: copy.common.languageNavLabel })
    .getByRole('link', { name: new RegExp(`^${target}\\b`) });

test('EN and NL in the hero and the demo’s plus menu switch the language in place, back and forth; Back returns; a signup notice follows', async ({
  page,
}) => {
  await openPage(page, '/');
  await expectLanguage(page, NL);
  await markDocument(page);
  await languageLink(page, NL, 'EN').click();
  await expectLanguage(page, EN);
  await expect(page.getByRole('contentinfo').getByText(EN.copy.footer.launching)).toBeVisible();
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', EN.ogLocale);
  await expect(languageLink(page, EN, 'EN')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByText(NL.copy.hero.subtitle)).toHaveCount(0);
  await page.goBack();
  await expectLanguage(page, NL);
  await expect(page.getByText(NL.copy.hero.subtitle)).toBeVisible();
  await languageLink(page, NL, 'EN').click();
  await languageLink(page, EN, 'NL').click();
  await expectLanguage(page, NL);
  expect(await isSameDocument(page)).toBe(true);

  // The demo's plus menu switches it in place too, both ways, and a signup notice follows the switch.
  await joinWaitlist(page, NL.copy, newAddress('follows'));
  await expect(signupParts(page, NL.copy).success).toBeVisible();
  await page.getByRole('button', { name: NL.copy.demo.plusMenu.toggle }).click();
  await page.getByRole('button', { name: NL.copy.common.languageNames.en, exact: true }).click();
  await expectLanguage(page, EN);
  await expect(page.getByRole('button', { name: EN.copy.demo.plusMenu.toggle })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(signupParts(page, EN.copy).success).toContainText(EN.copy.signup.notices.successBody);
  await page.getByRole('button', { name: EN.copy.demo.plusMenu.toggle }).click();
  await page.getByRole('button', { name: EN.copy.common.languageNames.nl, exact: true }).click();
  await expectLanguage(page, NL);
  expect(await isSameDocument(page)).toBe(true);
});

test('the choice is remembered, in this browser only: a reload, a later / and the privacy notice stay English, a shared /en/ link stays English', async ({
  page,
  browser,
  baseURL,
}) => {
  const trouble = recordTrouble(page);
  await openPage(page, '/');
  await languageLink(page, NL, 'EN').click();
  await expectLanguage(page, EN);
  await page.reload();
  await expectLanguage(page, EN);
  await openPage(page, '/');
  await expectLanguage(page, EN);
  // The remembered language is rendered afresh (not hydrated over the Dutch HTML): it must still work.
  const basketTab = page.getByRole('tab', { name: EN.copy.demo.views.basket, exact: true });
  await basketTab.click();
  await expect(basketTab).toHaveAttribute('aria-selected', 'true');
  // The notice follows: /privacy opens the English one, and its switch moves between it and /privacy.
  await openPage(page, '/privacy');
  await expectLanguage(page, EN, true);
  await languageLink(page, EN, 'NL').click();
  await expectLanguage(page, NL, true);
  await languageLink(page, NL, 'EN').click();
  await expectLanguage(page, EN, true);
  await page.reload();
  await expectLanguage(page, EN, true);
  expect(trouble).toEqual([]);

  const fresh = await browser.newContext({ baseURL });
  await fresh.addInitScript(markWhenInteractive);
  const freshPage = await fresh.newPage();
  await openPage(freshPage, '/');
  await expectLanguage(freshPage, NL);
  await fresh.close();

  await openPage(page, '/en/');
  await languageLink(page, EN, 'NL').click();
  await expectLanguage(page, NL);
  await page.reload();
  await expectLanguage(page, NL);
  await openPage(page, '/en/');
  await expectLanguage(page, EN);
});

/** The offer, or its absence, is settled: the page's first effects have run and rendered. */
async function openSettled(page: Page, path: string) {
  await openPage(page, path);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

test.describe('a browser that asks for English before Dutch', () => {
  test.use({ locale: 'en-GB' });

  test('is offered the English page at /, in English, by a link to /en/; not on /en/, nor once it chose Dutch; one asking for Dutch is not', async ({
    page,
    browser,
    baseURL,
  }) => {
    await openSettled(page, '/');
    await expectLanguage(page, NL);
    const offer = page.getByRole('banner').getByRole('link', { name: ENGLISH_OFFER });
    expect(await offer.evaluate((link) => link.closest('[lang]')?.getAttribute('lang'))).toBe('en');
    await expect(offer).toHaveAttribute('href', EN.path);
    await expectNoAxeViolations(page);
    await offer.click();
    await expectLanguage(page, EN);
    await expect(page.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);

    await languageLink(page, EN, 'NL').click();
    await expectLanguage(page, NL);
    await openSettled(page, '/');
    await expect(page.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);

    // A browser that asks for Dutch is not offered it.
    const dutch = await browser.newContext({ baseURL, locale: 'nl-NL' });
    await dutch.addInitScript(markWhenInteractive);
    const dutchPage = await dutch.newPage();
    await openSettled(dutchPage, '/');
    await expectLanguage(dutchPage, NL);
    await expect(dutchPage.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);
    await dutch.close();
  });
});
