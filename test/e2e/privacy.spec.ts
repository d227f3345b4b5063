/**
 * The privacy notice in both languages: reached from the form and the footer, whole and clean (its addresses and
 * alternates are home.spec's sitemap test's, its trailing slash test/integration's site-parity).
 */
import { PENDING_DAYS } from '#contract/waitlist-table';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import {
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  openPage,
  recordTrouble,
  SITE,
  signupParts,
  test,
} from './support';

for (const { locale, path, copy } of LOCALE_CASES) {
  const notice = privacyCopy[locale];
  const privacyPath = `${path}privacy`;

  test.describe(`the privacy notice in ${locale}`, () => {
    test(`the signup section says what the address is for and links to ${privacyPath}, as the footer does; the notice covers every subject under its own heading, loads clean, and leads home`, async ({
      page,
    }) => {
      for (const link of [
        signupParts(page, copy).section.getByRole('link', { name: copy.signup.privacyLink }),
        page.getByRole('contentinfo').getByRole('link', { name: copy.footer.privacy }),
      ]) {
        await openPage(page, path);
        const { section } = signupParts(page, copy);
        await expect(section.getByText(copy.signup.note, { exact: true })).toBeVisible();
        const sentence = copy.signup.privacySentence
          .replace('{days}', String(PENDING_DAYS))
          .replace('{link}', copy.signup.privacyLink);
        await expect(section.getByText(sentence, { exact: true })).toBeVisible();
        await link.click();
        await expect(page).toHaveURL(new URL(privacyPath, page.url()).href);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(notice.title);
        await expect(page).toHaveTitle(copy.meta.privacyTitle);
      }

      const trouble = recordTrouble(page);
      await openPage(page, privacyPath);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const subjects = [
        'summary',
        'controller',
        'data',
        'purpose',
        'retention',
        'storage',
        'limits',
        'logs',
        'counting',
        'browser',
        'leave',
        'rights',
      ] as const;
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(
        subjects.map((key) => notice[key].title),
      );
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
        'https://autoriteitpersoonsgegevens.nl',
      );
      await expect(
        page.getByRole('region', { name: notice.browser.title }).getByText('mandje:language'),
      ).toBeVisible();
      // What is counted, without cookies, and that a signup keeps only a coarse source.
      const counting = page.getByRole('region', { name: notice.counting.title });
      for (const said of [notice.counting.visits, notice.counting.source, notice.counting.noCookie])
        await expect(counting.getByText(said)).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(trouble).toEqual([]);
      await expectNoAxeViolations(page);

      await page.getByRole('main').getByRole('link', { name: copy.common.backToHome }).click();
      await expect(page).toHaveURL(new URL(path, page.url()).href);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
    });
  });
}
