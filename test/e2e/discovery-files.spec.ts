import type { APIRequestContext } from '@playwright/test';
import { SOCIAL_PREVIEW } from '../../frontend/src/i18n/page-paths';
import { EN, expect, NL, openPage, SITE, test } from './support';

/** The runner's path for an absolute address of the site. */
const pathOf = (url: string) => {
  expect(url.startsWith(SITE.url), `${url} is on ${SITE.url}`).toBe(true);
  return url.slice(SITE.url.length) || '/';
};

/** The head's canonical and hreflang alternates of the page at `path`, as the runner serves it. */
async function headLinks(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  return {
    canonical: html.match(/<link rel="canonical" href="([^"]+)">/)?.[1],
    alternates: Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(
        ([, hreflang, href]) => [hreflang, href],
      ),
    ),
  };
}

test('robots.txt is plain text that names the sitemap by its absolute address', async ({ request }) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const lines = (await response.text()).split('\n');
  expect(lines).toContain('User-agent: *');
  expect(lines).toContain(`Sitemap: ${SITE.url}/sitemap.xml`);
});

test('sitemap.xml lists each indexed page in both languages, as the pages themselves name them', async ({
  request,
}) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/xml; charset=utf-8');
  const xml = await response.text();
  const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, url = '']) => ({
    loc: url.match(/<loc>([^<]+)<\/loc>/)?.[1] ?? '',
    alternates: Object.fromEntries(
      [...url.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
        ([, hreflang, href]) => [hreflang, href],
      ),
    ),
  }));
  expect(urls.map(({ loc }) => pathOf(loc))).toEqual(['/', '/en/', '/privacy', '/en/privacy']);
  for (const { loc, alternates } of urls) {
    const head = await headLinks(request, pathOf(loc));
    expect(head.canonical, `${loc} names itself canonical`).toBe(loc);
    expect(alternates, `${loc}: the sitemap's alternates are the page's`).toEqual(head.alternates);
    expect(alternates['x-default']).toBe(alternates.nl);
  }
});

test('/.well-known/security.txt names the contact address, an expiry within a year, and itself', async ({
  request,
}) => {
  const response = await request.get('/.well-known/security.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const fields = Object.fromEntries(
    (await response.text())
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

test('nothing else in a dot folder is served', async ({ request }) => {
  for (const path of ['/.well-known/', '/.well-known/change-password', '/.mandje/inline-hashes.json']) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
});

for (const { locale, copy } of [NL, EN]) {
  test(`the ${locale} home page shares the ${locale} social preview, with its alt text in ${locale}`, async ({
    page,
    request,
  }) => {
    await openPage(page, locale === 'nl' ? '/' : '/en/');
    const image = page.locator('meta[property="og:image"]');
    await expect(image).toHaveAttribute('content', `${SITE.url}${SOCIAL_PREVIEW.path[locale]}`);
    await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute(
      'content',
      `Mandje: ${copy.hero.title}`,
    );
    const served = await request.get(SOCIAL_PREVIEW.path[locale]);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
  });
}

test('the tab icon, written into the page as a data: URL, is an image the browser draws', async ({
  page,
}) => {
  await openPage(page, '/');
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toMatch(/^data:image\/svg\+xml,/);
  const width = await page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    return image.naturalWidth;
  }, href ?? '');
  expect(width).toBeGreaterThan(0);
});
