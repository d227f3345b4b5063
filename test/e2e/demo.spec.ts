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

const LITRE = { nl: '1 liter', en: '1 litre' } as const;

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
      const deferred = [/\/demo-dialogs-[\w-]+\.js$/, /\/plus-menu-entries-[\w-]+\.js$/];
      expect((await loadedScripts()).filter((path) => deferred.some((name) => name.test(path)))).toEqual([]);

      const { section, panel } = demoParts(page, copy);
      await Promise.all([page.waitForResponse(deferred[0] as RegExp), panel.hover()]);
      const toggle = section.getByRole('button', { name: copy.demo.plusMenu.toggle });
      await Promise.all([page.waitForResponse(deferred[1] as RegExp), toggle.focus()]);

      await toggle.press('Enter');
      await expect(section.getByRole('button', { name: copy.demo.plusMenu.scanReceipt })).toBeVisible();
    });

    test('the product deal opens a details dialog with every field; Escape closes it and focus returns', async ({
      page,
    }) => {
      const { milk, dialog } = await openMilkDetails(page, copy);

      const labels = copy.demo.dealDialog;
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
      await expect(dialog).toContainText(locale === 'nl' ? '25 aug' : '25 Aug 2025');
      await expect(dialog.getByRole('button', { name: labels.close })).toBeVisible();

      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(milk).toBeFocused();
    });

    test('the details dialog closes with its Close button and gives focus back to the deal', async ({
      page,
    }) => {
      const { milk, dialog } = await openMilkDetails(page, copy);
      await expect(dialog.getByRole('button', { name: copy.demo.dealDialog.close })).toBeFocused();

      await dialog.getByRole('button', { name: copy.demo.dealDialog.close }).click();
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
        await opened.getByRole('button', { name: copy.demo.dealDialog.close }).click();
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

      const dialogCopy = copy.demo.basketDialog;
      const dialog = page.getByRole('dialog', { name: dialogCopy.title('Albert Heijn') });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleDescription(dialogCopy.description);
      const items = dialog
        .getByRole('list', { name: dialogCopy.title('Albert Heijn') })
        .getByRole('listitem');
      const products = ['milk', 'bread', 'pasta', 'apples'] as const;
      await expect(items).toHaveCount(products.length);
      for (const [index, product] of products.entries()) {
        const item = items.nth(index);
        const expected = figures.alternativeItems[index];
        await expect(item).toContainText(copy.demo.products[product]);
        await expect(item).toContainText(expected?.bonusPrice ?? 'missing figure');
        await expect(item).toContainText(`${dialogCopy.savings} ${expected?.savings ?? 'missing figure'}`);
      }
      await expect(dialog.getByRole('term')).toHaveText([dialogCopy.total, dialogCopy.totalSavings]);
      await expect(dialog.getByRole('definition')).toHaveText([
        figures.alternativeTotal,
        figures.alternativeSavings,
      ]);

      await dialog.getByRole('button', { name: dialogCopy.close }).click();
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
      await submit.click();

      const loading = section.getByRole('button', { name: tryFirst.loading });
      await expect(loading).toBeVisible();
      await expect(loading).toBeDisabled();
      await expect(signupHeading).not.toBeInViewport();

      await expect(signupHeading).toBeInViewport({ timeout: 5_000 });
      await expect.poll(() => signupIsScrolledTo(page)).toBe(true);
      await expect(page.getByRole('textbox', { name: copy.signup.emailLabel })).toBeFocused();
      await expect(section.getByRole('button', { name: tryFirst.submit })).toBeEnabled();
    });
  });
}
