import type { Locator } from '@playwright/test';
import {
  BASKET_DEALS,
  containing,
  dealButton,
  demoParts,
  EN,
  expect,
  LOCALE_CASES,
  NL,
  openPage,
  SITE,
  SUPERMARKET_NAMES,
  signupIsScrolledTo,
  test,
} from './support';

for (const { locale, path, copy, other, ogLocale, figures } of LOCALE_CASES) {
  test.describe(`landing page in ${locale} at ${path}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test('has the language, title, canonical URL, hreflang alternates and og:locale of its language', async ({
      page,
    }) => {
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page).toHaveTitle(copy.meta.homeTitle);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${SITE.url}${path}`);
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(3);
      await expect(page.locator('link[rel="alternate"][hreflang="nl"]')).toHaveAttribute(
        'href',
        `${SITE.url}/`,
      );
      await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute(
        'href',
        `${SITE.url}/en/`,
      );
      await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute(
        'href',
        `${SITE.url}/`,
      );
      await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', ogLocale);
      await expect(page.locator('meta[property="og:locale:alternate"]')).toHaveAttribute(
        'content',
        other === 'nl' ? NL.ogLocale : EN.ogLocale,
      );
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        copy.meta.homeDescription,
      );
    });

    test('shows its sections in the order of the spec', async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
      await expect(page.getByRole('heading', { level: 2 })).toHaveText([
        copy.howItWorks.title,
        copy.why.title,
        copy.demo.title,
        copy.sources.title,
        copy.next.title,
        copy.finalCta.title,
        copy.signup.title,
      ]);
    });

    test('hero shows title, subtitle, testers line, join link and the NL/EN language switch', async ({
      page,
    }) => {
      const hero = page.getByRole('banner');
      await expect(hero.getByRole('heading', { level: 1, name: copy.hero.title })).toBeVisible();
      await expect(hero.getByText(copy.hero.subtitle)).toBeVisible();
      await expect(hero.getByText(copy.hero.testers)).toBeVisible();
      await expect(hero.getByRole('link', { name: copy.hero.joinWaitlist })).toHaveAttribute(
        'href',
        '#signup',
      );

      const languages = hero.getByRole('navigation', { name: copy.common.languageNavLabel });
      await expect(languages.getByRole('link')).toHaveText(['NL Nederlands', 'EN English']);
      const current = languages.getByRole('link', { name: new RegExp(`^${locale.toUpperCase()}\\b`) });
      const otherLink = languages.getByRole('link', { name: new RegExp(`^${other.toUpperCase()}\\b`) });
      await expect(current).toHaveAttribute('aria-current', 'true');
      await expect(otherLink).not.toHaveAttribute('aria-current');
      await expect(languages.getByRole('link', { name: /^NL\b/ })).toHaveAttribute('href', '/');
      await expect(languages.getByRole('link', { name: /^EN\b/ })).toHaveAttribute('href', '/en/');
    });

    test('how it works shows the three modes and why Mandje the three reasons', async ({ page }) => {
      const how = page.getByRole('region', { name: copy.howItWorks.title });
      await expect(how.getByText(copy.howItWorks.intro)).toBeVisible();
      const modes = [
        copy.howItWorks.modes.product,
        copy.howItWorks.modes.basket,
        copy.howItWorks.modes.receipt,
      ];
      await expect(how.getByRole('listitem')).toHaveCount(3);
      // Three ways in, each on its own, not steps: no ordered list and no number before a mode.
      await expect(how.locator('ol')).toHaveCount(0);
      for (const mode of await how.getByRole('listitem').allTextContents())
        expect(mode).not.toMatch(/^\s*\d/);
      await expect(how.getByRole('heading', { level: 3 })).toHaveText(modes.map((mode) => mode.title));
      for (const mode of modes) await expect(how.getByText(mode.body)).toBeVisible();

      const why = page.getByRole('region', { name: copy.why.title });
      const points = [copy.why.points.money, copy.why.points.time, copy.why.points.oneTrip];
      await expect(why.getByRole('heading', { level: 3 })).toHaveText(points.map((point) => point.title));
      for (const point of points) await expect(why.getByText(point.body)).toBeVisible();
    });

    test('demo opens in the product view with the cheap-milk answer and its deal', async ({ page }) => {
      const { section, productTab, basketTab, panel } = demoParts(page, copy);
      await expect(section.getByText(copy.demo.intro)).toBeVisible();
      await expect(section.getByText(copy.demo.assistantName)).toBeVisible();
      await expect(productTab).toHaveAttribute('aria-selected', 'true');
      await expect(basketTab).toHaveAttribute('aria-selected', 'false');
      await expect(panel).toHaveAccessibleName(copy.demo.views.product);

      await expect(panel.getByText(copy.demo.productQuestion)).toBeVisible();
      const answer = copy.demo.productAnswer({
        store: 'Jumbo',
        product: copy.demo.products.milk,
        bonusPrice: figures.milkBonus,
        originalPrice: figures.milkOriginal,
        savings: figures.milkSavings,
      });
      await expect(panel.getByText(answer)).toBeVisible();

      const milk = dealButton(panel, copy, 'milk');
      await expect(milk).toBeVisible();
      await expect(milk).toContainText(figures.milkBonus);
      await expect(milk).toContainText(copy.demo.discountOff('27%'));
      await expect(milk).toHaveAccessibleName(containing(copy.demo.wasPrice(figures.milkOriginal)));
    });

    test('demo basket tab shows totals, best store, four deals, the Albert Heijn card and what was not found', async ({
      page,
    }) => {
      const { productTab, basketTab, panel } = demoParts(page, copy);
      await basketTab.click();
      await expect(basketTab).toHaveAttribute('aria-selected', 'true');
      await expect(productTab).toHaveAttribute('aria-selected', 'false');
      await expect(panel).toHaveAccessibleName(copy.demo.views.basket);
      await expect(panel.getByText(copy.demo.productQuestion)).toHaveCount(0);

      await expect(panel.getByText(copy.demo.basketQuestion)).toBeVisible();
      await expect(panel.getByText(copy.demo.basketAnswer)).toBeVisible();
      await expect(panel.getByRole('term')).toHaveText([
        copy.demo.summary.total,
        copy.demo.summary.savings,
        copy.demo.summary.bestStore,
      ]);
      await expect(panel.getByRole('definition')).toHaveText([
        figures.basketTotal,
        figures.basketSavings,
        'Jumbo',
      ]);

      await expect(panel.getByRole('heading', { name: copy.demo.dealsTitle('Jumbo') })).toBeVisible();
      const deals = panel.getByRole('list').filter({ has: dealButton(page, copy, 'milk') });
      await expect(deals.getByRole('listitem')).toHaveCount(4);
      for (const [index, { product, discount }] of BASKET_DEALS.entries()) {
        const deal = deals.getByRole('listitem').nth(index).getByRole('button');
        await expect(deal).toContainText(copy.demo.products[product]);
        await expect(deal).toContainText(copy.demo.discountOff(discount));
      }

      const alternative = panel.getByRole('button', {
        name: containing(copy.demo.alternative.title('Albert Heijn')),
      });
      await expect(alternative).toBeVisible();
      await expect(alternative).toContainText(copy.demo.alternative.available(4));
      await expect(alternative).toContainText(figures.alternativeTotal);
      await expect(alternative).toContainText(copy.demo.alternative.save(figures.alternativeSavings));

      await expect(panel.getByRole('heading', { name: copy.demo.notFoundTitle, exact: true })).toBeVisible();
      const missing = panel.getByRole('list').filter({ hasText: copy.demo.missingProducts.quinoa });
      await expect(missing.getByRole('listitem')).toHaveText([
        copy.demo.missingProducts.quinoa,
        copy.demo.missingProducts.coconutOil,
        copy.demo.missingProducts.matchaPowder,
      ]);
    });

    test('names the ten supermarkets and shows the weekly price note', async ({ page }) => {
      const sources = page.getByRole('region', { name: copy.sources.title });
      const list = sources.getByRole('list', { name: copy.sources.listLabel });
      await expect(list.getByRole('listitem')).toHaveText([...SUPERMARKET_NAMES]);
      await expect(sources.getByText(copy.sources.note)).toBeVisible();
      // Names, not controls: no outline, no fill, no pill to press.
      for (const item of await list.getByRole('listitem').all()) {
        expect(
          await item.evaluate((node) => {
            const { boxShadow, backgroundColor, borderTopWidth } = getComputedStyle(node);
            return { boxShadow, backgroundColor, borderTopWidth };
          }),
        ).toEqual({ boxShadow: 'none', backgroundColor: 'rgba(0, 0, 0, 0)', borderTopWidth: '0px' });
      }
    });

    test("what's next shows four coming features and the mascot", async ({ page }) => {
      const next = page.getByRole('region', { name: copy.next.title });
      await expect(next.getByText(copy.next.intro)).toBeVisible();
      const features = [
        copy.next.features.location,
        copy.next.features.personal,
        copy.next.features.notifications,
        copy.next.features.seasonal,
      ];
      await expect(next.getByRole('heading', { level: 3 })).toHaveText(
        features.map((feature) => feature.title),
      );
      for (const feature of features) await expect(next.getByText(feature.body)).toBeVisible();
      // One "coming soon" over the whole roadmap, not one per entry.
      await expect(next.getByText(copy.common.comingSoon, { exact: true })).toHaveCount(1);
      await expect(next.getByRole('img', { name: copy.next.mascotLabel })).toBeVisible();
    });

    test('final call to action, signup section and footer are complete', async ({ page }) => {
      const finalCall = page.getByRole('region', { name: copy.finalCta.title });
      await expect(finalCall.getByText(copy.finalCta.body)).toBeVisible();
      const finalLink = finalCall.getByRole('link', { name: copy.finalCta.button });
      await expect(finalLink).toHaveAttribute('href', '#signup');
      // The hero's filled button, not an outline: the same fill, text colour and size.
      const look = (link: Locator) =>
        link.evaluate((node) => {
          const { backgroundColor, color, fontSize, paddingTop, borderTopWidth } = getComputedStyle(node);
          return { backgroundColor, color, fontSize, paddingTop, borderTopWidth };
        });
      expect(await look(finalLink)).toEqual(
        await look(page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist })),
      );

      const signup = page.getByRole('region', { name: copy.signup.title });
      await expect(signup).toHaveAttribute('id', 'signup');
      await expect(signup.getByText(copy.signup.body)).toBeVisible();
      const email = signup.getByRole('textbox', { name: copy.signup.emailLabel });
      await expect(email).toBeVisible();
      await expect(email).toHaveAttribute('type', 'email');
      await expect(email).toHaveAttribute('required', '');
      await expect(email).toHaveAttribute('placeholder', copy.signup.exampleEmail);
      await expect(signup.getByRole('button', { name: copy.signup.submit })).toBeVisible();
      await expect(signup.getByText(copy.signup.note)).toBeVisible();

      const footer = page.getByRole('contentinfo');
      await expect(footer.getByText(copy.footer.follow)).toBeVisible();
      await expect(footer.getByText(copy.footer.launching)).toBeVisible();

      const social = footer.getByRole('link', {
        name: containing(copy.footer.socialLink(SITE.social.network, SITE.social.handle)),
      });
      await expect(social).toHaveAttribute('href', SITE.social.url);
      await expect(social).toHaveAttribute('target', '_blank');
      await expect(social).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(social).toHaveAccessibleName(containing(copy.common.opensInNewTab));

      const tiktok = footer.getByRole('link', { name: copy.footer.tiktokPlaceholder });
      await expect(tiktok).toBeVisible();
      await expect(tiktok).toBeDisabled();
      await expect(tiktok).not.toHaveAttribute('href');

      await expect(footer.getByText(copy.footer.contact, { exact: true })).toBeVisible();
      await expect(footer.getByRole('link', { name: SITE.contactEmail })).toHaveAttribute(
        'href',
        `mailto:${SITE.contactEmail}`,
      );
    });

    test('the hero join-waitlist link scrolls smoothly to the signup section', async ({ page }) => {
      const signupHeading = page.getByRole('heading', { level: 2, name: copy.signup.title });
      await expect(signupHeading).not.toBeInViewport();
      await page.getByRole('banner').getByRole('link', { name: copy.hero.joinWaitlist }).click();
      await expect(page).toHaveURL(/#signup$/);
      await expect(signupHeading).toBeInViewport();
      await expect.poll(() => signupIsScrolledTo(page)).toBe(true);
    });

    test('the final "get early access" link goes to the signup section', async ({ page }) => {
      const signupHeading = page.getByRole('heading', { level: 2, name: copy.signup.title });
      await page
        .getByRole('region', { name: copy.finalCta.title })
        .getByRole('link', { name: copy.finalCta.button })
        .click();
      await expect(page).toHaveURL(/#signup$/);
      await expect(signupHeading).toBeInViewport();
      await expect.poll(() => signupIsScrolledTo(page)).toBe(true);
    });
  });
}

test.describe('prerendered HTML, before any script runs', () => {
  test.use({ javaScriptEnabled: false });

  for (const { locale, path, copy, ogLocale } of LOCALE_CASES) {
    test(`${path} is served with the ${locale} page text and head already in the HTML`, async ({
      page,
      request,
    }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toContain('text/html');
      expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain(`<html lang="${locale}">`);
      expect(html).toContain(`<title>${copy.meta.homeTitle}</title>`);
      expect(html).toContain(`>${copy.hero.title}</h1>`);

      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page).toHaveTitle(copy.meta.homeTitle);
      await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', ogLocale);
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(3);
      await expect(page.getByRole('heading', { level: 1, name: copy.hero.title })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: copy.signup.title })).toBeVisible();
      // The demo's conversation, and the still of it in the hero.
      await expect(
        page.getByRole('region', { name: copy.demo.title }).getByText(copy.demo.productQuestion),
      ).toBeVisible();
      await expect(page.getByRole('figure').getByText(copy.demo.productQuestion)).toBeVisible();
      await expect(page.getByRole('contentinfo').getByText(copy.footer.launching)).toBeVisible();
    });
  }

  test('the NL/EN links work as plain links without JavaScript', async ({ page }) => {
    await page.goto('/');
    await page
      .getByRole('navigation', { name: NL.copy.common.languageNavLabel })
      .getByRole('link', { name: /^EN\b/ })
      .click();
    await expect(page).toHaveURL(/\/en\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(EN.copy.hero.title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});

for (const { locale, path, copy } of LOCALE_CASES) {
  for (const viewport of [
    { width: 360, height: 740 },
    { width: 1280, height: 800 },
  ]) {
    test(`shows the product in the first screen at ${viewport.width} px (${locale})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await openPage(page, path);

      const caption = copy.demo.intro.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const still = page.getByRole('figure', { name: new RegExp(`^${caption}`) });
      await expect(still.getByText(copy.demo.productQuestion)).toBeVisible();
      const box = await still.boundingBox();
      expect(box, 'the still has a box').not.toBeNull();
      // Its top is in the first screen: a visitor sees the product before scrolling.
      expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(viewport.height);
      await expect(still.getByRole('link', { name: copy.demo.title })).toHaveAttribute('href', '#demo');
      // To a screen reader it is its caption and link: the demo it links to says the conversation in full.
      await expect(still.getByRole('term')).toHaveCount(0);
      await expect(still.getByRole('figure', { includeHidden: true })).toHaveCount(0);
    });
  }
}
