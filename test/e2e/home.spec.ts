/**
 * The home page in both languages as SPEC describes it, its first screen and typeface, the brand, the
 * not-found page, and the files a crawler or a security researcher looks for.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { BRAND_NAME } from '#contract/brand';
import { SOCIAL_PREVIEW } from '../../frontend/src/i18n/page-paths';
import {
  containing,
  demoParts,
  escapeRegExp,
  expect,
  expectNoAxeViolations,
  LOCALE_CASES,
  NL,
  openPage,
  recordTrouble,
  SITE,
  signupParts,
  test,
  waitUntilInteractive,
} from './support';

const SUPERMARKETS = 'Albert Heijn,Jumbo,Lidl,Plus,Aldi,Hoogvliet,SPAR,Ekoplaza,Dirk,Vomar'.split(',');

/** The fonts Chromium really drew an element's text in (not the list the CSS asked for). */
async function drawnFonts(page: Page, selector: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => font.familyName).join(', ');
  } finally {
    await cdp.detach();
  }
}

/** The number of lines each visible occurrence of a text is laid out on. */
function linesOf(page: Page, text: string): Promise<number[]> {
  return page.evaluate((wanted) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const counts: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0 || !node.parentElement?.checkVisibility()) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      counts.push(new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size);
    }
    return counts;
  }, text);
}

const styleOf = (element: Locator, names: string[]) =>
  element.evaluate(
    (node, wanted) => wanted.map((name) => getComputedStyle(node).getPropertyValue(name)),
    names,
  );

for (const { locale, path, copy, other, ogLocale, figures } of LOCALE_CASES) {
  const caption = new RegExp(`^${escapeRegExp(copy.demo.intro.slice(0, 20))}`);

  test.describe(`the home page in ${locale} at ${path}`, () => {
    test('loads clean, with the head of its language and its sections in SPEC’s order, each saying what SPEC says', async ({
      page,
      request,
    }) => {
      const trouble = recordTrouble(page);
      await openPage(page, path);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page).toHaveTitle(copy.meta.homeTitle);
      const head = {
        'link[rel="canonical"]': ['href', `${SITE.url}${path}`],
        'link[rel="alternate"][hreflang="nl"]': ['href', `${SITE.url}/`],
        'link[rel="alternate"][hreflang="en"]': ['href', `${SITE.url}/en/`],
        'link[rel="alternate"][hreflang="x-default"]': ['href', `${SITE.url}/`],
        'meta[property="og:locale"]': ['content', ogLocale],
        'meta[property="og:locale:alternate"]': ['content', other === 'nl' ? 'nl_NL' : 'en_GB'],
        'meta[name="description"]': ['content', copy.meta.homeDescription],
        'meta[property="og:image"]': ['content', `${SITE.url}${SOCIAL_PREVIEW.path[locale]}`],
        'meta[property="og:image:alt"]': ['content', `Mandje: ${copy.hero.title}`],
      };
      for (const [selector, [name, value]] of Object.entries(head))
        await expect(page.locator(selector)).toHaveAttribute(name as string, value as string);
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(3);
      const preview = await request.get(SOCIAL_PREVIEW.path[locale]);
      expect(preview.headers()['content-type']).toBe('image/png');

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
      await page.waitForLoadState('networkidle');
      // The strict Content-Security-Policy would show an inline script or style here; a hydration mismatch too.
      expect(trouble).toEqual([]);
      await expectNoAxeViolations(page);

      const hero = page.getByRole('banner');
      await expect(hero.getByText(copy.hero.subtitle)).toBeVisible();
      await expect(hero.getByText(copy.hero.testers)).toBeVisible();
      await expect(hero.getByRole('link', { name: copy.hero.joinWaitlist })).toHaveAttribute(
        'href',
        '#signup',
      );
      const languages = hero.getByRole('navigation', { name: copy.common.languageNavLabel });
      await expect(languages.getByRole('link')).toHaveText(['NL Nederlands', 'EN English']);
      const languageLink = (code: string) => languages.getByRole('link', { name: new RegExp(`^${code}\\b`) });
      await expect(languageLink(locale.toUpperCase())).toHaveAttribute('aria-current', 'true');
      await expect(languageLink(other.toUpperCase())).not.toHaveAttribute('aria-current');
      await expect(languageLink('NL')).toHaveAttribute('href', '/');
      await expect(languageLink('EN')).toHaveAttribute('href', '/en/');

      // Three ways in, each on its own, not steps: no ordered list and no number before a mode.
      const how = page.getByRole('region', { name: copy.howItWorks.title });
      await expect(how.getByText(copy.howItWorks.intro)).toBeVisible();
      await expect(how.locator('ol')).toHaveCount(0);
      for (const mode of await how.getByRole('listitem').allTextContents())
        expect(mode).not.toMatch(/^\s*\d/);
      const why = page.getByRole('region', { name: copy.why.title });
      const next = page.getByRole('region', { name: copy.next.title });
      await expect(next.getByText(copy.next.intro)).toBeVisible();
      for (const [region, items] of [
        [how, Object.values(copy.howItWorks.modes)],
        [why, Object.values(copy.why.points)],
        [next, Object.values(copy.next.features)],
      ] as const) {
        await expect(region.getByRole('heading', { level: 3 })).toHaveText(items.map((item) => item.title));
        for (const item of items) await expect(region.getByText(item.body)).toBeVisible();
      }
      // One "coming soon" over the whole roadmap, not one per entry.
      await expect(next.getByText(copy.common.comingSoon, { exact: true })).toHaveCount(1);
      await expect(next.getByRole('img', { name: copy.next.mascotLabel })).toBeVisible();

      // The supermarkets are names, not controls: no outline, no fill, no pill, no coloured dot.
      const sources = page.getByRole('region', { name: copy.sources.title });
      const list = sources.getByRole('list', { name: copy.sources.listLabel });
      await expect(list.getByRole('listitem')).toHaveText(SUPERMARKETS);
      await expect(list.locator('span')).toHaveCount(0);
      await expect(sources.getByText(copy.sources.note)).toBeVisible();
      for (const item of await list.getByRole('listitem').all())
        expect(await styleOf(item, ['box-shadow', 'background-color', 'border-top-width'])).toEqual([
          'none',
          'rgba(0, 0, 0, 0)',
          '0px',
        ]);

      // The final call's button is the hero's filled button, not an outline.
      const finalCall = page.getByRole('region', { name: copy.finalCta.title });
      await expect(finalCall.getByText(copy.finalCta.body)).toBeVisible();
      const finalLink = finalCall.getByRole('link', { name: copy.finalCta.button });
      await expect(finalLink).toHaveAttribute('href', '#signup');
      const look = ['background-color', 'color', 'font-size', 'padding-top', 'border-top-width'];
      expect(await styleOf(finalLink, look)).toEqual(
        await styleOf(hero.getByRole('link', { name: copy.hero.joinWaitlist }), look),
      );

      const signup = signupParts(page, copy);
      await expect(signup.section).toHaveAttribute('id', 'signup');
      await expect(signup.section.getByText(copy.signup.body)).toBeVisible();
      await expect(signup.email).toHaveAttribute('type', 'email');
      await expect(signup.email).toHaveAttribute('required', '');
      await expect(signup.email).toHaveAttribute('placeholder', copy.signup.exampleEmail);
      await expect(signup.submit).toBeVisible();

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
      await expect(tiktok).toBeDisabled();
      await expect(tiktok).not.toHaveAttribute('href');
      await expect(footer.getByText(copy.footer.contact, { exact: true })).toBeVisible();
      await expect(footer.getByRole('link', { name: SITE.contactEmail })).toHaveAttribute(
        'href',
        `mailto:${SITE.contactEmail}`,
      );
    });

    test('the first screen shows the product: the still of one exchange, its answer whole at 390 px; no word broken at a hyphen or in a range', async ({
      page,
    }) => {
      for (const { width, height } of [
        { width: 360, height: 740 },
        { width: 390, height: 844 },
        { width: 1280, height: 800 },
      ]) {
        await page.setViewportSize({ width, height });
        await openPage(page, path);
        const still = page.getByRole('figure', { name: caption });
        await expect(still.getByText(copy.demo.productQuestion)).toBeVisible();
        expect(
          (await still.boundingBox())?.y ?? height,
          `its top in the first screen at ${width} px`,
        ).toBeLessThan(height);
        // The answer names the store and the price, and ends inside the first screen of a phone.
        const answer = still.getByText(new RegExp(`^${locale === 'nl' ? 'Bij' : 'At'} Jumbo! `));
        await expect(answer).toContainText(figures.milk.bonus);
        const box = await answer.boundingBox();
        if (width === 390) expect((box?.y ?? height) + (box?.height ?? 0)).toBeLessThanOrEqual(height);
        // No word broken at a hyphen or inside a range of amounts.
        for (const word of width > 390
          ? []
          : locale === 'nl'
            ? ['e\u2011mailadres', '20–\u206030']
            : ['€20–\u206030']) {
          const lines = await linesOf(page, word);
          expect(lines.length, `${word} is on the page at ${width} px`).toBeGreaterThan(0);
          expect(lines, `${word} at ${width} px`).toEqual(lines.map(() => 1));
        }
      }
      const still = page.getByRole('figure', { name: caption });
      for (const summary of [copy.demo.summary.total, copy.demo.summary.bestStore, figures.basket.total])
        await expect(still).not.toContainText(summary);
      await expect(still.getByRole('link', { name: copy.demo.title })).toHaveAttribute('href', '#demo');
      // To a screen reader it is its caption and link: the demo it links to says the conversation in full.
      await expect(still.getByRole('term')).toHaveCount(0);
      await expect(still.getByRole('figure', { includeHidden: true })).toHaveCount(0);
    });

    test('sets the hero in the brand typeface once the page is in the cache, and never swaps it in view', async ({
      page,
    }) => {
      // A first visit: the fallback, and the file is fetched after the first paint.
      await openPage(page, path);
      expect(await drawnFonts(page, 'h1')).not.toMatch(/Bricolage/);
      await page.waitForFunction(() =>
        [...document.fonts].some((face) => face.family.includes('Bricolage') && face.status === 'loaded'),
      );
      // The next visit finds the file in the cache. The face is `optional`: used from the first paint when
      // the browser has it within its short block period, else not at all on that page, so it never swaps in
      // view. A machine under heavy load can miss the period; the next cached visit has it.
      let drawn = '';
      for (let visit = 1; visit <= 3 && !/Bricolage Grotesque/.test(drawn); visit++) {
        await openPage(page, path);
        await expect(page.locator('html')).toHaveAttribute('data-typeface', 'cached');
        await expect(page.getByRole('heading', { level: 1 })).toHaveCSS(
          'font-family',
          /^"Bricolage Grotesque"/,
        );
        drawn = await drawnFonts(page, 'h1');
        await page.evaluate(() => document.fonts.ready);
        await page.waitForTimeout(300);
        expect(await drawnFonts(page, 'h1'), 'the same face after the file loaded').toBe(drawn);
      }
      expect(drawn).toMatch(/Bricolage Grotesque/);
    });

    test('an unknown path answers 404 with the not-found page of its language, logs the path, and leads home', async ({
      page,
      request,
    }) => {
      const missing = `${path}no-such-page`;
      const logged = page.waitForEvent('console', {
        predicate: (message) => message.type() === 'error' && message.text().includes(missing),
      });
      expect((await openPage(page, missing))?.status()).toBe(404);
      await logged;
      await expect(page.getByText(copy.notFound.code, { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: copy.notFound.title })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page).toHaveTitle(copy.meta.notFoundTitle);
      await expect(page).toHaveURL(new RegExp(`${missing}$`));
      await expectNoAxeViolations(page);
      const html = await (await request.get(missing)).text();
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).not.toContain('rel="canonical"');

      await page.getByRole('link', { name: copy.notFound.homeLink }).click();
      await expect(page).toHaveURL(new URL(path, page.url()).href);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
    });
  });
}

test.describe('the brand and the page’s details', () => {
  test('the logo’s name is one drawn picture in the header and the footer, shown on a first visit; so is the tab icon; in dark the selected tab stands out', async ({
    page,
    request,
  }) => {
    await openPage(page, '/');
    const inHeader = page.getByRole('banner').getByRole('img', { name: BRAND_NAME });
    const src = (await inHeader.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/assets\/wordmark-[\w-]+\.svg$/);
    await expect(page.getByRole('contentinfo').getByRole('img', { name: BRAND_NAME })).toHaveAttribute(
      'src',
      src,
    );
    await expect
      .poll(() => inHeader.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    const file = await request.get(src);
    expect(file.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(file.headers()['cache-control']).toContain('immutable');
    expect((await file.text()).match(/<path /g)).toHaveLength(1);
    // Not text, which a first visit would show in the local fallback.
    for (const part of [page.getByRole('banner'), page.getByRole('contentinfo')])
      await expect(part.getByText(BRAND_NAME, { exact: true })).toHaveCount(0);
    // The tab icon, written into the page as a data: URL, is an image the browser draws.
    const href = (await page.locator('link[rel="icon"]').getAttribute('href')) ?? '';
    expect(href).toMatch(/^data:image\/svg\+xml,/);
    const width = await page.evaluate(async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      return image.naturalWidth;
    }, href);
    expect(width).toBeGreaterThan(0);

    // In the dark theme the selected tab stands out from its track.
    await page.emulateMedia({ colorScheme: 'dark' });
    const luminance = ([colour = '']: string[]) => {
      const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const { tablist } = demoParts(page, NL.copy);
    const pill = await styleOf(tablist.getByRole('tab', { selected: true }), ['background-color']);
    expect(luminance(pill)).toBeGreaterThan(luminance(await styleOf(tablist, ['background-color'])));
  });

  test('without Chromium’s deliveryType, as in Firefox and WebKit, a reload and a page reached from the site are in the typeface from their first paint', async ({
    page,
  }) => {
    await page.addInitScript(() =>
      Reflect.deleteProperty(PerformanceResourceTiming.prototype, 'deliveryType'),
    );
    const inTypeface = /^"Bricolage Grotesque"/;
    await openPage(page, '/');
    const hasDeliveryType = () => 'deliveryType' in (performance.getEntriesByType('navigation')[0] ?? {});
    expect(await page.evaluate(hasDeliveryType)).toBe(false);
    await expect(page.locator('html')).not.toHaveAttribute('data-typeface');
    await page.waitForLoadState('networkidle');

    await page.reload();
    await waitUntilInteractive(page);
    await expect(page.locator('html')).toHaveAttribute('data-typeface', 'cached');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('font-family', inTypeface);
    await page.getByRole('contentinfo').getByRole('link', { name: NL.copy.footer.privacy }).click();
    await waitUntilInteractive(page);
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.locator('html')).toHaveAttribute('data-typeface', 'cached');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('font-family', inTypeface);
  });
});

test.describe('the files crawlers and researchers look for', () => {
  /** The runner's path for an absolute address of the site. */
  const pathOf = (url: string) => url.slice(SITE.url.length) || '/';
  const alternatesIn = (text: string, pattern: RegExp) =>
    Object.fromEntries([...text.matchAll(pattern)].map(([, hreflang, href]) => [hreflang, href]));
  const text = async (request: APIRequestContext, path: string, type: string) => {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type'], path).toBe(type);
    return response.text();
  };

  test('robots.txt names the sitemap, which lists each indexed page with the alternates the page itself names; security.txt its contact, expiry and itself', async ({
    request,
  }) => {
    const lines = (await text(request, '/robots.txt', 'text/plain; charset=utf-8')).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain(`Sitemap: ${SITE.url}/sitemap.xml`);

    const xml = await text(request, '/sitemap.xml', 'application/xml; charset=utf-8');
    const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, url = '']) => ({
      loc: url.match(/<loc>([^<]+)<\/loc>/)?.[1] ?? '',
      alternates: alternatesIn(url, /<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g),
    }));
    expect(urls.map(({ loc }) => pathOf(loc))).toEqual(['/', '/en/', '/privacy', '/en/privacy']);
    for (const { loc, alternates } of urls) {
      const html = await text(request, pathOf(loc), 'text/html; charset=utf-8');
      expect(html.match(/<link rel="canonical" href="([^"]+)">/)?.[1], loc).toBe(loc);
      expect(alternates, loc).toEqual(
        alternatesIn(html, /<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g),
      );
      const dutch = pathOf(loc).replace(/^\/en\/?/, '/');
      expect(alternates, loc).toEqual({
        nl: `${SITE.url}${dutch}`,
        en: `${SITE.url}/en${dutch === '/' ? '/' : dutch}`,
        'x-default': `${SITE.url}${dutch}`,
      });
    }

    // security.txt names the contact address, an expiry within a year, and itself.
    const fields = Object.fromEntries(
      (await text(request, '/.well-known/security.txt', 'text/plain; charset=utf-8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/: (.*)/s).slice(0, 2)),
    );
    expect(fields.Contact).toBe(`mailto:${SITE.contactEmail}`);
    expect(fields['Preferred-Languages']).toBe('nl, en');
    expect(fields.Canonical).toBe(`${SITE.url}/.well-known/security.txt`);
    const daysLeft = (Date.parse(fields.Expires) - Date.now()) / (24 * 60 * 60 * 1000);
    expect(daysLeft).toBeGreaterThan(0);
    expect(daysLeft).toBeLessThan(365);
  });
});
