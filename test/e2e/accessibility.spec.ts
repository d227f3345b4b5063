/**
 * The dark theme is the palette itself, swapped under `prefers-color-scheme: dark`, so every pairing of text
 * and ground changes: axe checks each kind of page again in dark, in both languages (in light, each spec
 * runs axe on the pages and states it walks).
 */
import { leaveLink } from '#contract/leave';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import { PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import {
  containing,
  demoParts,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  openPage,
  test,
} from './support';

test.use({ colorScheme: 'dark' });

for (const { locale, path, copy } of LOCALE_CASES)
  test(`in dark, axe finds nothing on the ${locale} home page, its basket view and dialog, the notice and the leave page`, async ({
    page,
    baseURL,
  }) => {
    test.slow();
    await openPage(page, path);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    await expectNoAxeViolations(page);
    const { basketTab, panel } = demoParts(page, copy);
    await basketTab.click();
    await expect(panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await panel
      .getByRole('button', { name: containing(copy.demo.alternative.title('Albert Heijn')) })
      .click();
    await expect(
      page.getByRole('dialog', { name: dialogCopy[locale].basketDialog.title('Albert Heijn') }),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    // Any token shows the leave page: what it removes is decided only when the button is pressed.
    for (const address of [PAGE_PATH.privacy[locale], leaveLink(baseURL as string, locale, 'A'.repeat(43))]) {
      await openPage(page, address);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page);
    }
  });
