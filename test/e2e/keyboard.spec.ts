/** Where the keyboard's focus goes, in both languages: the skip link, the jumps to the form, the plus menu. */
import type { Locator, Page } from '@playwright/test';
import {
  demoParts,
  expect,
  LOCALE_CASES,
  openPage,
  signupIsScrolledTo,
  signupParts,
  test,
  waitUntilInteractive,
} from './support';

/** Tabs forward until `target` has focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let press = 0; press < 10; press += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target}`);
}

/** The contrast ratio of two sRGB colours written as `rgb(…)`/`rgba(…)`, the first blended over the second. */
function contrastOver(foreground: string, background: string): number {
  const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
  const back = channels(background).slice(0, 3);
  const [r = 0, g = 0, b = 0, alpha = 1] = channels(foreground);
  const blended = [r, g, b].map((value, index) => value * alpha + (back[index] ?? 0) * (1 - alpha));
  const luminance = (rgb: number[]) => {
    const [lr = 0, lg = 0, lb = 0] = rgb.map((value) => {
      const s = value / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  };
  const [light, dark] = [luminance(blended), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

for (const { locale, path, copy, other } of LOCALE_CASES) {
  const otherCopy = LOCALE_CASES.find((each) => each.locale === other)?.copy ?? copy;

  test.describe(`the keyboard in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test('the skip link passes the logo and language switch and lands on the hero heading, before its button; the e-mail field’s focus ring stands out 3:1', async ({
      page,
    }) => {
      const skip = page.getByRole('link', { name: copy.common.skipToContent });
      await page.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      // Room of its own, above the logo.
      await expect(skip).toHaveCSS('padding-top', /^(?!0px)/);
      const link = await skip.boundingBox();
      const logo = await page.getByRole('banner').locator('svg').first().boundingBox();
      expect((link?.y ?? 0) + (link?.height ?? 0)).toBeLessThanOrEqual(logo?.y ?? 0);
      await page.keyboard.press('Enter');
      const target = await page.getByRole('heading', { level: 1, name: copy.hero.title }).getAttribute('id');
      expect(target).toBeTruthy();
      await expect(page).toHaveURL(new RegExp(`#${target}$`));
      await page.keyboard.press('Tab');
      await expect(
        page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }),
      ).toBeFocused();

      // The e-mail field shows a focus ring of at least 3:1 against the section, in light and dark.
      const { email } = signupParts(page, copy);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await email.focus();
        const ring = await email.evaluate((input) => {
          const style = getComputedStyle(input);
          let background = 'rgba(0, 0, 0, 0)';
          for (let element = input.parentElement; element; element = element.parentElement) {
            const colour = getComputedStyle(element).backgroundColor;
            if (!/rgba\(.*, 0\)$/.test(colour) && colour !== 'transparent') {
              background = colour;
              break;
            }
          }
          return {
            style: style.outlineStyle,
            width: Number.parseFloat(style.outlineWidth),
            colour: style.outlineColor,
            background,
          };
        });
        expect(ring.style, colorScheme).not.toBe('none');
        expect(ring.width, colorScheme).toBeGreaterThanOrEqual(2);
        expect(contrastOver(ring.colour, ring.background), colorScheme).toBeGreaterThanOrEqual(3);
      }
    });

    test('Enter on the hero’s or the early-access button scrolls smoothly to the form and puts the focus in its field; with reduced motion at once', async ({
      page,
    }) => {
      const { email } = signupParts(page, copy);
      const heading = page.getByRole('heading', { level: 2, name: copy.signup.title });
      for (const link of [
        page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }),
        page
          .getByRole('region', { name: copy.finalCta.title })
          .getByRole('link', { name: copy.finalCta.button }),
      ]) {
        await openPage(page, path);
        await expect(heading).not.toBeInViewport();
        await link.focus();
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(/#signup$/);
        await expect(heading).toBeInViewport();
        await expect.poll(() => signupIsScrolledTo(page)).toBe(true);
        await expect(email).toBeFocused();
      }
      await openPage(page, path);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).click();
      expect(await signupIsScrolledTo(page)).toBe(true);
      await expect(email).toBeFocused();
    });

    test('the plus menu: Escape from an entry and tabbing out either way close it; after an entry the focus is back on its button', async ({
      page,
    }) => {
      test.slow();
      const { section, productTab, basketTab, toggle, scanReceipt } = demoParts(page, copy);
      const entry = (name: string) => section.getByRole('button', { name, exact: true });
      const open = async () => {
        await toggle.focus();
        await page.keyboard.press('Enter');
        await expect(scanReceipt).toBeVisible();
      };
      await open();
      await tabTo(page, entry(copy.demo.plusMenu.product));
      await page.keyboard.press('Escape');
      await expect(scanReceipt).toBeHidden();
      await expect(toggle).toBeFocused();

      await open();
      await tabTo(page, entry(copy.common.languageNames[other]));
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('Tab');
      await expect(section.getByRole('textbox', { name: copy.demo.input.label, exact: true })).toBeFocused();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await open();
      await page.keyboard.press('Shift+Tab');
      await expect(toggle).not.toBeFocused();
      await expect(scanReceipt).toBeHidden();

      await open();
      await tabTo(page, scanReceipt);
      await page.keyboard.press('Enter');
      await expect(section.getByRole('log')).toContainText(copy.demo.plusMenu.scanReceipt);
      await expect(section.getByRole('log')).toContainText(copy.demo.cannedReply);
      await expect(toggle).toBeFocused();
      await basketTab.click();
      await open();
      await tabTo(page, entry(copy.demo.plusMenu.product));
      await page.keyboard.press('Enter');
      await expect(productTab).toHaveAttribute('aria-selected', 'true');
      await expect(toggle).toBeFocused();

      await open();
      await tabTo(page, entry(copy.common.languageNames[other]));
      await page.keyboard.press('Enter');
      const otherToggle = demoParts(page, otherCopy).toggle;
      await expect(otherToggle).toBeFocused();
      await expect(otherToggle).toHaveAttribute('aria-expanded', 'false');
    });
  });

  test.describe(`arriving at the form in ${locale}`, () => {
    test('a signup button pressed before the script has run, or a link to #signup, ends with the focus in the e-mail field; a reload scrolled elsewhere, or any other page, leaves it alone', async ({
      page,
    }) => {
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/main-[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(path, { waitUntil: 'domcontentloaded' });
      const { email } = signupParts(page, copy);
      // Without the script the link is a plain anchor: the browser jumps, the focus stays where it was.
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).click();
      await expect(page).toHaveURL(/#signup$/);
      await expect(email).not.toBeFocused();
      release();
      await waitUntilInteractive(page);
      await expect(email).toBeFocused();

      // Opened at a fragment the page often reports no largest paint; the loader then starts the script at load.
      await page.goto('about:blank');
      await openPage(page, `${path}#signup`);
      await expect(email).toBeFocused();
      // The visitor reads from the top, the address still ending in #signup, and reloads: the browser brings
      // them back where they were, so the field is out of view.
      await email.blur();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.reload({ waitUntil: 'domcontentloaded' });
      await waitUntilInteractive(page);
      await expect(page).toHaveURL(/#signup$/);
      await expect(email).not.toBeFocused();
      await openPage(page, path);
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    });
  });
}
