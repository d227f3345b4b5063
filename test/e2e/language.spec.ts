import type { Page } from '@playwright/test';
import { ENGLISH_OFFER } from '../../frontend/src/features/landing/copy/english-offer';
import {
  EN,
  expect,
  expectNoAxeViolations,
  type LocaleCase,
  NL,
  openPage,
  prepare,
  recordConsole,
  SITE,
  test,
} from './support';

type MarkedWindow = { __sameDocument?: string };

/** Leaves a value on `window` that only survives if the page is not reloaded or navigated away from. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as MarkedWindow).__sameDocument = 'still here';
  });
}

async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as MarkedWindow).__sameDocument)).toBe('still here');
}

async function expectLanguage(page: Page, { locale, path, copy }: LocaleCase) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
  await expect(page).toHaveURL(new URL(path, page.url()).href);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expect(page).toHaveTitle(copy.meta.homeTitle);
}

function languageLink(page: Page, { copy }: LocaleCase, target: 'NL' | 'EN') {
  return page
    .getByRole('navigation', { name: copy.common.languageNavLabel })
    .getByRole('link', { name: new RegExp(`^${target}\\b`) });
}

test('a first visit to / opens in Dutch', async ({ page }) => {
  await openPage(page, '/');
  await expectLanguage(page, NL);
});

test('clicking EN in the hero switches to English in place: URL /en/, lang, title and all text', async ({
  page,
}) => {
  await openPage(page, '/');
  await markDocument(page);

  await languageLink(page, NL, 'EN').click();

  await expectLanguage(page, EN);
  await expect(page.getByRole('region', { name: EN.copy.signup.title })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByText(EN.copy.footer.launching)).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${SITE.url}/en/`);
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', EN.ogLocale);
  await expect(languageLink(page, EN, 'EN')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByText(NL.copy.hero.subtitle)).toHaveCount(0);
  await expectSameDocument(page);
});

test('the English choice is remembered: reload stays English and a later visit to / opens /en/', async ({
  page,
}) => {
  const consoleRecord = recordConsole(page);
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
  expect(consoleRecord.errors).toEqual([]);
  expect(consoleRecord.pageErrors).toEqual([]);
});

test('a fresh browser visiting / gets Dutch, whatever another browser chose', async ({
  page,
  browser,
  baseURL,
}) => {
  await openPage(page, '/');
  await languageLink(page, NL, 'EN').click();
  await expectLanguage(page, EN);

  const freshContext = await browser.newContext({ baseURL });
  try {
    const freshPage = await freshContext.newPage();
    await prepare(freshPage);
    await openPage(freshPage, '/');
    await expectLanguage(freshPage, NL);
  } finally {
    await freshContext.close();
  }
});

test('the plus menu language entry switches the page to English', async ({ page }) => {
  await openPage(page, '/');
  await markDocument(page);
  await page.getByRole('button', { name: NL.copy.demo.plusMenu.toggle }).click();
  await page.getByRole('button', { name: NL.copy.common.languageNames.en, exact: true }).click();

  await expectLanguage(page, EN);
  await expect(page.getByRole('button', { name: EN.copy.demo.plusMenu.toggle })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expectSameDocument(page);
});

test('the plus menu on /en/ offers Nederlands and switches back to Dutch at /', async ({ page }) => {
  await openPage(page, '/en/');
  await page.getByRole('button', { name: EN.copy.demo.plusMenu.toggle }).click();
  await page.getByRole('button', { name: EN.copy.common.languageNames.nl, exact: true }).click();
  await expectLanguage(page, NL);
});

test('browser back after a language switch returns to Dutch at /', async ({ page }) => {
  await openPage(page, '/');
  await markDocument(page);
  await languageLink(page, NL, 'EN').click();
  await expectLanguage(page, EN);

  await page.goBack();
  await expectLanguage(page, NL);
  await expect(page.getByText(NL.copy.hero.subtitle)).toBeVisible();
  await expectSameDocument(page);
});

test('choosing NL on /en/ switches to Dutch at / and a reload of / stays Dutch', async ({ page }) => {
  await openPage(page, '/en/');
  await markDocument(page);
  await languageLink(page, EN, 'NL').click();
  await expectLanguage(page, NL);
  await expectSameDocument(page);

  await page.reload();
  await expectLanguage(page, NL);
});

test('a shared /en/ link stays English for a visitor who chose Dutch', async ({ page }) => {
  await openPage(page, '/en/');
  await languageLink(page, EN, 'NL').click();
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

  test('is offered the English page at /, in English, by a link that switches to /en/', async ({ page }) => {
    await openSettled(page, '/');
    await expectLanguage(page, NL);
    const offer = page.getByRole('banner').getByRole('link', { name: ENGLISH_OFFER });
    await expect(offer).toBeVisible();
    expect(await offer.evaluate((link) => link.closest('[lang]')?.getAttribute('lang'))).toBe('en');
    await expect(offer).toHaveAttribute('href', EN.path);
    await expectNoAxeViolations(page);

    await offer.click();
    await expectLanguage(page, EN);
    await expect(page.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);
  });

  test('is not offered it on /en/, nor at / once it has chosen Dutch', async ({ page }) => {
    await openSettled(page, '/en/');
    await expectLanguage(page, EN);
    await expect(page.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);

    await languageLink(page, EN, 'NL').click();
    await expectLanguage(page, NL);
    await openSettled(page, '/');
    await expect(page.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);
  });
});

test.describe('a browser that asks for Dutch', () => {
  test.use({ locale: 'nl-NL' });

  test('is not offered the English page at /', async ({ page }) => {
    await openSettled(page, '/');
    await expectLanguage(page, NL);
    await expect(page.getByRole('link', { name: ENGLISH_OFFER })).toHaveCount(0);
  });
});
