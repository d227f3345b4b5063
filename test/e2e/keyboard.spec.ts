import type { Locator, Page } from '@playwright/test';
import {
  demoParts,
  expect,
  LOCALE_CASES,
  type LocaleCase,
  openPage,
  signupIsScrolledTo,
  test,
  waitUntilInteractive,
} from './support';

// Where the keyboard's focus goes, and where the signup's answer shows, in both languages.

function signupParts(page: Page, { copy }: LocaleCase) {
  const section = page.getByRole('region', { name: copy.signup.title });
  return {
    section,
    form: section.locator('form'),
    email: section.getByRole('textbox', { name: copy.signup.emailLabel }),
    submit: section.getByRole('button', { name: copy.signup.submit }),
  };
}

function plusMenuParts(page: Page, { copy, other }: LocaleCase) {
  const { section } = demoParts(page, copy);
  const menu = copy.demo.plusMenu;
  return {
    section,
    toggle: section.getByRole('button', { name: menu.toggle }),
    scanReceipt: section.getByRole('button', { name: menu.scanReceipt, exact: true }),
    product: section.getByRole('button', { name: menu.product, exact: true }),
    otherLanguage: section.getByRole('button', { name: copy.common.languageNames[other], exact: true }),
    messageBox: section.getByRole('textbox', { name: copy.demo.input.label, exact: true }),
    log: section.getByRole('log', { name: copy.demo.conversationLabel }),
  };
}

/** Opens the plus menu from the keyboard and waits for its entries. */
async function openPlusMenu(page: Page, localeCase: LocaleCase) {
  const parts = plusMenuParts(page, localeCase);
  await parts.toggle.focus();
  await page.keyboard.press('Enter');
  await expect(parts.toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(parts.scanReceipt).toBeVisible();
  return parts;
}

/** Tabs forward until `target` has focus (at most `limit` presses), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, limit = 10): Promise<void> {
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target} in ${limit} presses`);
}

/** The contrast ratio of two sRGB colours written as `rgb(…)`/`rgba(…)`, the first blended over the second. */
function contrastOver(foreground: string, background: string): number {
  const channels = (colour: string) => {
    const [r = 0, g = 0, b = 0, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
    return { rgb: [r, g, b], alpha: a };
  };
  const back = channels(background).rgb;
  const front = channels(foreground);
  const blended = front.rgb.map(
    (value, index) => value * front.alpha + (back[index] ?? 0) * (1 - front.alpha),
  );
  const luminance = (rgb: number[]) => {
    const [r = 0, g = 0, b = 0] = rgb.map((value) => {
      const s = value / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(blended), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

for (const localeCase of LOCALE_CASES) {
  const { locale, path, copy } = localeCase;

  test.describe(`keyboard in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test('the skip link passes the logo and language switch and lands on the hero heading, before its button', async ({
      page,
    }) => {
      const skip = page.getByRole('link', { name: copy.common.skipToContent });
      await page.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();

      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { level: 1, name: copy.hero.title });
      const target = await heading.getAttribute('id');
      expect(target).toBeTruthy();
      await expect(page).toHaveURL(new RegExp(`#${target}$`));

      await page.keyboard.press('Tab');
      await expect(
        page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }),
      ).toBeFocused();
    });

    test('the hero button puts the focus in the e-mail field', async ({ page }) => {
      const { email } = signupParts(page, localeCase);
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).focus();
      await page.keyboard.press('Enter');

      await expect(page).toHaveURL(/#signup$/);
      await expect(email).toBeFocused();
      await expect(email).toBeInViewport();
    });

    test('the early-access button puts the focus in the e-mail field', async ({ page }) => {
      const { email } = signupParts(page, localeCase);
      await page
        .getByRole('region', { name: copy.finalCta.title })
        .getByRole('link', { name: copy.finalCta.button })
        .focus();
      await page.keyboard.press('Enter');

      await expect(page).toHaveURL(/#signup$/);
      await expect(email).toBeFocused();
      await expect(email).toBeInViewport();
    });

    test('with reduced motion the hero button jumps to the form at once, the focus in the e-mail field', async ({
      page,
    }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const { email } = signupParts(page, localeCase);
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).click();

      expect(await signupIsScrolledTo(page)).toBe(true);
      await expect(email).toBeFocused();
    });

    test('the e-mail field shows a focus ring of at least 3:1 against the section, in light and dark', async ({
      page,
    }) => {
      const { email } = signupParts(page, localeCase);
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

    test('the plus menu closes when the focus tabs out of it, either way', async ({ page }) => {
      const menu = await openPlusMenu(page, localeCase);
      await tabTo(page, menu.otherLanguage);
      await expect(menu.toggle).toHaveAttribute('aria-expanded', 'true');

      await page.keyboard.press('Tab');
      await expect(menu.messageBox).toBeFocused();
      await expect(menu.toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(menu.scanReceipt).toBeHidden();

      await openPlusMenu(page, localeCase);
      await page.keyboard.press('Shift+Tab');
      await expect(menu.toggle).not.toBeFocused();
      await expect(menu.toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(menu.scanReceipt).toBeHidden();
    });

    test('the plus menu closes when something outside it is clicked', async ({ page }) => {
      const menu = await openPlusMenu(page, localeCase);
      await menu.messageBox.click();
      await expect(menu.toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(menu.messageBox).toBeFocused();
    });

    test('Escape closes the plus menu from any entry and gives the focus back to the plus button', async ({
      page,
    }) => {
      const menu = await openPlusMenu(page, localeCase);
      await tabTo(page, menu.product);
      await page.keyboard.press('Escape');

      await expect(menu.scanReceipt).toBeHidden();
      await expect(menu.toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(menu.toggle).toBeFocused();
    });

    test('after a plus-menu entry the focus is back on the plus button, not lost', async ({ page }) => {
      const menu = await openPlusMenu(page, localeCase);
      await tabTo(page, menu.scanReceipt);
      await page.keyboard.press('Enter');

      await expect(menu.log).toContainText(copy.demo.plusMenu.scanReceipt);
      await expect(menu.toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(menu.toggle).toBeFocused();

      const { basketTab, productTab } = demoParts(page, copy);
      await basketTab.click();
      await openPlusMenu(page, localeCase);
      await tabTo(page, menu.product);
      await page.keyboard.press('Enter');
      await expect(productTab).toHaveAttribute('aria-selected', 'true');
      await expect(menu.toggle).toBeFocused();
    });

    test('after the language entry the focus is on the plus button, in the other language', async ({
      page,
    }) => {
      const menu = await openPlusMenu(page, localeCase);
      await tabTo(page, menu.otherLanguage);
      await page.keyboard.press('Enter');

      const otherCopy = LOCALE_CASES.find((candidate) => candidate.locale === localeCase.other)?.copy;
      const toggle = demoParts(page, otherCopy ?? copy).section.getByRole('button', {
        name: otherCopy?.demo.plusMenu.toggle,
      });
      await expect(toggle).toBeFocused();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    });
  });

  test.describe(`arriving at the form in ${locale} before the script has run`, () => {
    test('a signup button pressed while the page loads ends with the focus in the e-mail field', async ({
      page,
    }) => {
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/main-[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(path, { waitUntil: 'domcontentloaded' });
      const { email } = signupParts(page, localeCase);

      // Without the script the link is a plain anchor: the browser jumps, the focus stays where it was.
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).click();
      await expect(page).toHaveURL(/#signup$/);
      await expect(email).not.toBeFocused();

      release();
      await waitUntilInteractive(page);
      await expect(email).toBeFocused();
    });

    // Opened at a fragment the page often reports no largest paint; the loader (frontend/build.ts) then
    // starts the script at the load event.
    test('a link to the form from another page puts the focus in the e-mail field', async ({ page }) => {
      await openPage(page, `${path}#signup`);
      await expect(signupParts(page, localeCase).email).toBeFocused();
    });

    test('a reload at #signup, scrolled elsewhere, leaves the focus alone', async ({ page }) => {
      const { email } = signupParts(page, localeCase);
      await openPage(page, `${path}#signup`);
      await expect(email).toBeFocused();
      // The visitor reads the page from the top, the address still ending in #signup, and reloads it: the
      // browser brings them back where they were, so the field is out of view.
      await email.blur();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.reload({ waitUntil: 'domcontentloaded' });
      await waitUntilInteractive(page);
      await expect(page).toHaveURL(/#signup$/);
      await expect(email).not.toBeFocused();
    });

    test('the page opened anywhere else leaves the focus alone', async ({ page }) => {
      await openPage(page, path);
      await expect(signupParts(page, localeCase).email).not.toBeFocused();
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    });
  });

  for (const viewport of [
    { width: 360, height: 780 },
    { width: 1280, height: 800 },
  ]) {
    test.describe(`the signup's answer in ${locale} at ${viewport.width} px`, () => {
      test.use({ viewport });

      for (const answer of [
        { status: 201, role: 'status', title: copy.signup.notices.successTitle },
        { status: 503, role: 'alert', title: copy.signup.notices.errorTitle },
      ] as const) {
        // After joining, "check your inbox" takes the form's place; a fault's notice comes under the form.
        test(`shows the ${answer.role} notice under the form or in its place, over nothing`, async ({
          page,
        }) => {
          await page.route('**/api/waitlist', (route) =>
            route.fulfill({ status: answer.status, contentType: 'application/json', body: '{}' }),
          );
          await openPage(page, path);
          const { section, form, email, submit } = signupParts(page, localeCase);
          await email.fill(`notice.${locale}@example.nl`);
          const formBefore = await form.boundingBox();
          await submit.click();

          const notice = page.getByRole(answer.role).filter({ hasText: answer.title });
          await expect(notice).toBeVisible();
          await notice.scrollIntoViewIfNeeded();
          const noticeBox = await notice.boundingBox();
          const sectionBox = await section.boundingBox();
          const footerBox = await page.getByRole('contentinfo').boundingBox();
          if (!noticeBox || !formBefore || !sectionBox || !footerBox)
            throw new Error('notice, form, section or footer not laid out');

          // As wide as the form (was) at most, in the signup section.
          expect(noticeBox.x).toBeGreaterThanOrEqual(formBefore.x - 1);
          expect(noticeBox.x + noticeBox.width).toBeLessThanOrEqual(formBefore.x + formBefore.width + 1);
          expect(noticeBox.y).toBeGreaterThanOrEqual(sectionBox.y);
          expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(sectionBox.y + sectionBox.height);
          if (answer.status === 201) {
            await expect(form).toHaveCount(0);
          } else {
            // Under the form, within 200 px of it.
            const formBox = await form.boundingBox();
            if (!formBox) throw new Error('form not laid out');
            expect(noticeBox.y).toBeGreaterThanOrEqual(formBox.y + formBox.height);
            expect(noticeBox.y - (formBox.y + formBox.height)).toBeLessThanOrEqual(200);
          }
          // In the flow of the page: above the footer, not over it or its privacy link.
          expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(footerBox.y);
          expect(
            await notice.evaluate((element) => {
              for (let node: Element | null = element; node; node = node.parentElement) {
                const { position } = getComputedStyle(node);
                if (position === 'fixed' || position === 'sticky') return position;
              }
              return 'in flow';
            }),
          ).toBe('in flow');
        });
      }
    });
  }
}
