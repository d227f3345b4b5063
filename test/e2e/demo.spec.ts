import type { Locator, Page } from '@playwright/test';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import {
  BASKET_DEALS,
  containing,
  dealButton,
  demoParts,
  expect,
  LOCALE_CASES,
  openMilkDetails,
  openPage,
  signupIsScrolledTo,
  test,
} from './support';

/** The example week as a reader sees it, written out (not computed with the page's own formatter). */
const EXAMPLE_WEEK = { nl: '25–31 aug.', en: '25–31 Aug' } as const;
const LITRE = { nl: '1 liter', en: '1 litre' } as const;

/** How many lines of text an element's content takes. */
function linesOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const lineHeight = Number.parseFloat(getComputedStyle(node).lineHeight);
    return Math.round(node.getBoundingClientRect().height / lineHeight);
  });
}

/** Elements in the demo section that reach past the right edge of the viewport, by tag and text. */
function overflowingDemoElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const demo = document.getElementById('demo');
    if (!demo) return ['no demo section'];
    const offenders = [...demo.querySelectorAll('*')].filter(
      (element) => element.getBoundingClientRect().right > width + 0.5,
    );
    if (demo.scrollWidth > demo.clientWidth) offenders.unshift(demo);
    return offenders.map((element) => `${element.tagName} ${element.textContent?.slice(0, 40)}`);
  });
}

for (const { locale, path, copy, figures } of LOCALE_CASES) {
  test.describe(`demo in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test('the dialogs and the plus menu load their code only when a pointer or the focus comes near', async ({
      page,
    }) => {
      const loadedScripts = () =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((entry) => new URL(entry.name).pathname)
            .filter((path) => path.endsWith('.js')),
        );
      const deferred = [
        /\/demo-dialogs-[\w-]+\.js$/,
        /\/plus-menu-entries-[\w-]+\.js$/,
        /\/basket-answer-[\w-]+\.js$/,
      ];
      expect((await loadedScripts()).filter((path) => deferred.some((name) => name.test(path)))).toEqual([]);

      const { section, panel, tablist } = demoParts(page, copy);
      await Promise.all([page.waitForResponse(deferred[0] as RegExp), panel.hover()]);
      await Promise.all([page.waitForResponse(deferred[2] as RegExp), tablist.hover()]);
      const toggle = section.getByRole('button', { name: copy.demo.plusMenu.toggle });
      await Promise.all([page.waitForResponse(deferred[1] as RegExp), toggle.focus()]);

      await toggle.press('Enter');
      await expect(section.getByRole('button', { name: copy.demo.plusMenu.scanReceipt })).toBeVisible();
    });

    test('the product deal opens a details dialog with every field; Escape closes it and focus returns', async ({
      page,
    }) => {
      const { milk, dialog } = await openMilkDetails(page, copy);

      const labels = dialogCopy[locale].dealDialog;
      await expect(dialog.getByRole('term')).toHaveText([
        labels.store,
        labels.discount,
        labels.bonusPrice,
        labels.originalPrice,
        labels.size,
        labels.unitPrice,
        labels.quantity,
        labels.savings,
        labels.validFrom,
        labels.validUntil,
      ]);
      await expect(dialog.getByRole('definition')).toHaveText([
        'Jumbo',
        copy.demo.discountOff('27%'),
        figures.milkBonus,
        figures.milkOriginal,
        LITRE[locale],
        figures.milkUnitPrice,
        '1',
        figures.milkSavings,
        figures.validFrom,
        figures.validUntil,
      ]);
      await expect(dialog).toContainText(locale === 'nl' ? '25 aug' : '25 Aug');
      await expect(dialog.getByRole('button', { name: dialogCopy[locale].close })).toBeVisible();

      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(milk).toBeFocused();
    });

    test('the details dialog closes with its Close button and gives focus back to the deal', async ({
      page,
    }) => {
      const { milk, dialog } = await openMilkDetails(page, copy);
      await expect(dialog.getByRole('button', { name: dialogCopy[locale].close })).toBeFocused();

      await dialog.getByRole('button', { name: dialogCopy[locale].close }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(milk).toBeFocused();
    });

    test('each basket deal opens the dialog for that product', async ({ page }) => {
      const { basketTab, panel } = demoParts(page, copy);
      await basketTab.click();

      const bread = dealButton(panel, copy, 'bread');
      await bread.click();
      const dialog = page.getByRole('dialog', { name: copy.demo.products.bread });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(copy.demo.discountOff('16%'));
      await expect(dialog).toContainText(figures.breadUnitPrice);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      for (const { product, discount } of BASKET_DEALS) {
        await dealButton(panel, copy, product).click();
        const opened = page.getByRole('dialog', { name: copy.demo.products[product] });
        await expect(opened).toContainText(copy.demo.discountOff(discount));
        await opened.getByRole('button', { name: dialogCopy[locale].close }).click();
        await expect(opened).toBeHidden();
      }
    });

    test('the Albert Heijn card opens the basket dialog with its items, total and savings', async ({
      page,
    }) => {
      const { basketTab, panel } = demoParts(page, copy);
      await basketTab.click();
      const card = panel.getByRole('button', {
        name: containing(copy.demo.alternative.title('Albert Heijn')),
      });
      await card.click();

      const basketCopy = dialogCopy[locale].basketDialog;
      const dialog = page.getByRole('dialog', { name: basketCopy.title('Albert Heijn') });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleDescription(basketCopy.description);
      const items = dialog
        .getByRole('list', { name: basketCopy.title('Albert Heijn') })
        .getByRole('listitem');
      const products = ['milk', 'bread', 'pasta', 'apples'] as const;
      await expect(items).toHaveCount(products.length);
      for (const [index, product] of products.entries()) {
        const item = items.nth(index);
        const expected = figures.alternativeItems[index];
        await expect(item).toContainText(copy.demo.products[product]);
        await expect(item).toContainText(expected?.bonusPrice ?? 'missing figure');
        await expect(item).toContainText(`${basketCopy.savings} ${expected?.savings ?? 'missing figure'}`);
      }
      await expect(dialog.getByRole('term')).toHaveText([basketCopy.total, basketCopy.totalSavings]);
      await expect(dialog.getByRole('definition')).toHaveText([
        figures.alternativeTotal,
        figures.alternativeSavings,
      ]);

      await dialog.getByRole('button', { name: dialogCopy[locale].close }).click();
      await expect(dialog).toBeHidden();
      await expect(card).toBeFocused();
    });

    test('the plus menu opens with Character and Location disabled, and closes on an outside click and on Escape', async ({
      page,
    }) => {
      const { section } = demoParts(page, copy);
      const menuCopy = copy.demo.plusMenu;
      const toggle = section.getByRole('button', { name: menuCopy.toggle });
      const scanReceipt = section.getByRole('button', { name: menuCopy.scanReceipt });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(scanReceipt).toBeHidden();

      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      for (const entry of [menuCopy.scanReceipt, menuCopy.product, menuCopy.supermarket]) {
        await expect(section.getByRole('button', { name: entry, exact: true })).toBeEnabled();
      }
      for (const entry of [menuCopy.character, menuCopy.location]) {
        const disabled = section.getByRole('button', { name: containing(entry) });
        await expect(disabled).toBeVisible();
        await expect(disabled).toBeDisabled();
        await expect(disabled).toContainText(copy.common.comingSoon);
      }
      const otherLanguage = locale === 'nl' ? 'en' : 'nl';
      await expect(
        section.getByRole('button', { name: copy.common.languageNames[otherLanguage], exact: true }),
      ).toBeEnabled();

      await section.getByRole('heading', { level: 2, name: copy.demo.title }).click();
      await expect(scanReceipt).toBeHidden();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');

      await toggle.click();
      await expect(scanReceipt).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(scanReceipt).toBeHidden();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(toggle).toBeFocused();
    });

    test('plus menu entries act on the demo: a sent entry and Product back to the product view', async ({
      page,
    }) => {
      const { section, productTab, basketTab } = demoParts(page, copy);
      const menuCopy = copy.demo.plusMenu;
      const toggle = section.getByRole('button', { name: menuCopy.toggle });
      const log = section.getByRole('log', { name: copy.demo.conversationLabel });

      await toggle.click();
      await section.getByRole('button', { name: menuCopy.scanReceipt, exact: true }).click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(log).toContainText(menuCopy.scanReceipt);
      await expect(log).toContainText(copy.demo.cannedReply);

      await basketTab.click();
      await expect(basketTab).toHaveAttribute('aria-selected', 'true');
      await toggle.click();
      await section.getByRole('button', { name: menuCopy.product, exact: true }).click();
      await expect(productTab).toHaveAttribute('aria-selected', 'true');
    });

    test('typing a message and sending it shows the message and the canned reply', async ({ page }) => {
      const { section } = demoParts(page, copy);
      const log = section.getByRole('log', { name: copy.demo.conversationLabel });
      const input = section.getByRole('textbox', { name: copy.demo.input.label, exact: true });
      const send = section.getByRole('button', { name: copy.demo.input.send, exact: true });
      await expect(log).toHaveText('');

      await input.fill('   ');
      await send.click();
      await expect(log).toHaveText('');

      const message = locale === 'nl' ? 'Waar is kaas het goedkoopst?' : 'Where is cheese cheapest?';
      await input.fill(message);
      await send.click();
      await expect(log.getByText(message)).toBeVisible();
      await expect(log.getByText(copy.demo.cannedReply)).toBeVisible();
      await expect(input).toHaveValue('');

      await input.fill('2');
      await input.press('Enter');
      await expect(log.getByText(copy.demo.cannedReply)).toHaveCount(2);
    });

    test('says the offers are from an example week, the same week as the deals are valid', async ({
      page,
    }) => {
      const { section, basketTab } = demoParts(page, copy);
      const week = section.getByText(copy.demo.exampleWeek(EXAMPLE_WEEK[locale]), { exact: true });
      await expect(week).toBeVisible();

      const { dialog } = await openMilkDetails(page, copy);
      const labels = dialogCopy[locale].dealDialog;
      await expect(dialog.getByRole('term')).toContainText([labels.validFrom, labels.validUntil]);
      await expect(dialog.getByRole('definition')).toContainText([figures.validFrom, figures.validUntil]);
      await page.keyboard.press('Escape');

      await basketTab.click();
      await expect(section.getByRole('tabpanel').getByText(copy.demo.basketAnswer)).toBeVisible();
      await expect(week).toBeVisible();
    });

    test('shows Albert Heijn as the dearer comparison beside the highlighted cheapest store', async ({
      page,
    }) => {
      const { basketTab, panel } = demoParts(page, copy);
      await basketTab.click();

      const cheapest = panel.getByRole('group', { name: copy.demo.dealsTitle('Jumbo') });
      await expect(cheapest.getByText(copy.demo.cheapestLabel, { exact: true })).toBeVisible();
      await expect(cheapest.getByRole('definition')).toHaveText([
        figures.basketTotal,
        figures.basketSavings,
        'Jumbo',
      ]);

      const comparison = copy.demo.alternativeComparison({
        store: 'Albert Heijn',
        amount: locale === 'nl' ? '€ 6,25' : '€6.25',
        cheapest: 'Jumbo',
      });
      const card = panel.getByRole('button', {
        name: containing(copy.demo.alternative.title('Albert Heijn')),
      });
      await expect(panel.getByText(comparison)).toBeVisible();
      await expect(card).toHaveAccessibleDescription(containing(comparison));
      await expect(card).toContainText(copy.demo.alternative.available(4));
      await expect(card).toContainText(figures.alternativeTotal);
      await expect(card).toContainText(copy.demo.alternative.save(figures.alternativeSavings));
      await expect(card).not.toContainText(copy.demo.cheapestLabel);

      // SPEC's orange card, not highlighted like the winner: the cheapest store's box has the brand colour
      // around it. The colour as painted, in sRGB (the stylesheet may give it in another colour space).
      const outline = (element: Locator) => element.evaluate((node) => getComputedStyle(node).boxShadow);
      expect(await outline(card)).not.toEqual(await outline(cheapest));
      const [red = 0, green = 0, blue = 0] = await card.evaluate((node) => {
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        context.fillStyle = getComputedStyle(node).backgroundColor;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data];
      });
      expect(red, 'orange: more red than green').toBeGreaterThan(green);
      expect(green, 'orange: more green than blue').toBeGreaterThan(blue);
      expect(red - blue, 'orange, not grey').toBeGreaterThanOrEqual(12);
    });

    test('shows the products without an offer as a plain note, not as an error', async ({ page }) => {
      const { basketTab, panel } = demoParts(page, copy);
      await basketTab.click();

      await expect(panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true })).toBeVisible();
      await expect(panel.getByText(copy.demo.notFoundNote)).toBeVisible();
      const missing = panel.getByRole('list', { name: copy.demo.notFoundTitle });
      await expect(missing.getByRole('listitem')).toHaveText([
        copy.demo.missingProducts.quinoa,
        copy.demo.missingProducts.coconutOil,
        copy.demo.missingProducts.matchaPowder,
      ]);
      // No cross or warning sign next to them.
      await expect(missing.locator('svg')).toHaveCount(0);
    });

    for (const width of [360, 1280]) {
      test(`every basket deal can be reached at ${width} px: all in view, or a list that shows it scrolls`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 900 });
        const { basketTab, panel } = demoParts(page, copy);
        await basketTab.click();
        const list = panel.getByRole('list').filter({ has: dealButton(page, copy, 'milk') });
        await expect(list.getByRole('listitem')).toHaveCount(BASKET_DEALS.length);

        const { scrolls, background } = await list.evaluate((node) => ({
          scrolls: node.scrollHeight > node.clientHeight + 1,
          background: getComputedStyle(node).backgroundImage,
        }));
        // Scrolling or not, the list carries the shadows that appear along an edge with more behind it.
        expect(background).toContain('radial-gradient');
        if (width >= 768) expect(scrolls, 'all four deals fit the list').toBe(false);

        for (const { product } of BASKET_DEALS) {
          const deal = dealButton(list, copy, product);
          await deal.scrollIntoViewIfNeeded();
          // Whole, to within a pixel: scrolling stops on whole pixels, and a card's edge may fall between two.
          await expect(deal).toBeInViewport({ ratio: 0.98 });
          await deal.click();
          const dialog = page.getByRole('dialog', { name: copy.demo.products[product] });
          await expect(dialog).toBeVisible();
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
        }
      });
    }

    test('the demo card is as round at the bottom as at the top, its tinted last part included', async ({
      page,
    }) => {
      const { section } = demoParts(page, copy);
      const field = section.getByRole('textbox', { name: copy.demo.tryFirst.label });

      const corners = await field.evaluate((node) => {
        const form = node.closest('form') as HTMLElement;
        const card = form.parentElement as HTMLElement;
        const { borderTopLeftRadius, borderTopRightRadius } = getComputedStyle(card);
        const { borderBottomLeftRadius, borderBottomRightRadius } = getComputedStyle(form);
        return {
          lastPart: form === card.lastElementChild,
          top: [borderTopLeftRadius, borderTopRightRadius],
          bottom: [borderBottomLeftRadius, borderBottomRightRadius],
        };
      });

      expect(corners.lastPart).toBe(true);
      expect(corners.top[0]).not.toBe('0px');
      expect(corners.bottom).toEqual(corners.top);
    });

    test('fits 360 px: nothing wider than the screen, no broken amounts, short lines on the cards', async ({
      page,
    }) => {
      await page.setViewportSize({ width: 360, height: 800 });
      const { section, basketTab, panel } = demoParts(page, copy);
      await section.scrollIntoViewIfNeeded();
      expect(await overflowingDemoElements(page)).toEqual([]);

      // The message box shows its whole placeholder.
      const input = section.getByRole('textbox', { name: copy.demo.input.label, exact: true });
      const placeholderFits = await input.evaluate((field: HTMLInputElement) => {
        const style = getComputedStyle(field);
        const context = document.createElement('canvas').getContext('2d');
        if (!context) return false;
        context.font = style.font;
        const room =
          field.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return context.measureText(field.placeholder).width <= room;
      });
      expect(placeholderFits, 'the placeholder fits the message box').toBe(true);

      await basketTab.click();
      await expect(panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true })).toBeVisible();
      expect(await overflowingDemoElements(page)).toEqual([]);

      const card = panel.getByRole('button', {
        name: containing(copy.demo.alternative.title('Albert Heijn')),
      });
      const title = card.getByText(copy.demo.alternative.title('Albert Heijn'), { exact: true });
      expect(await linesOf(title), 'the Albert Heijn title on one line').toBe(1);
      const cardLines = await card.evaluate((node) => {
        const style = getComputedStyle(node);
        const content =
          node.clientHeight - Number.parseFloat(style.paddingTop) - Number.parseFloat(style.paddingBottom);
        return Math.round(content / 20); // text-sm lines are 20 px; the title's 24 px rounds the same way
      });
      expect(cardLines, 'the Albert Heijn card in at most three lines').toBeLessThanOrEqual(3);

      await card.click();
      const dialog = page.getByRole('dialog', {
        name: dialogCopy[locale].basketDialog.title('Albert Heijn'),
      });
      await expect(dialog).toBeVisible();
      const savings = dialog.getByText(containing(`${dialogCopy[locale].basketDialog.savings} €`));
      await expect(savings).toHaveCount(4);
      for (const each of await savings.all()) {
        expect(await linesOf(each), `"${await each.textContent()}" on one line`).toBe(1);
      }
      // Its list scrolls at this size: it shows that it does, and its last item can be brought into view.
      const items = dialog.getByRole('list', { name: dialogCopy[locale].basketDialog.title('Albert Heijn') });
      expect(await items.evaluate((node) => getComputedStyle(node).backgroundImage)).toContain(
        'radial-gradient',
      );
      const last = items.getByRole('listitem').last();
      await last.scrollIntoViewIfNeeded();
      await expect(last).toBeInViewport({ ratio: 1 });
    });

    test('"try it first" requires a product, then shows a loading state and brings the signup form into view', async ({
      page,
    }) => {
      const { section } = demoParts(page, copy);
      const tryFirst = copy.demo.tryFirst;
      const input = section.getByRole('textbox', { name: tryFirst.label });
      const submit = section.getByRole('button', { name: tryFirst.submit });
      const signupHeading = page.getByRole('heading', { level: 2, name: copy.signup.title });

      await submit.click();
      await expect(section.getByText(tryFirst.required)).toBeVisible();
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(tryFirst.required);
      await expect(input).toBeFocused();

      await input.fill(locale === 'nl' ? 'melk, brood' : 'milk, bread');
      await expect(section.getByText(tryFirst.required)).toHaveCount(0);
      await expect(input).toHaveAttribute('aria-invalid', 'false');
      // The page's clock stands still while the loading state is looked at: on a busy machine, two seconds
      // of real time can pass between two checks.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 60_000);
      await submit.click();

      const loading = section.getByRole('button', { name: tryFirst.loading });
      await expect(loading).toBeVisible();
      await expect(loading).toBeDisabled();
      await page.clock.runFor(1_900);
      await expect(loading).toBeDisabled();
      await expect(signupHeading).not.toBeInViewport();

      await page.clock.resume();
      await expect(signupHeading).toBeInViewport({ timeout: 5_000 });
      await expect.poll(() => signupIsScrolledTo(page)).toBe(true);
      await expect(page.getByRole('textbox', { name: copy.signup.emailLabel })).toBeFocused();
      await expect(section.getByRole('button', { name: tryFirst.submit })).toBeEnabled();
    });
  });
}
