import { EN, expect, NL, openPage, test } from './support';

test('an unknown path answers 404 with the Dutch not-found page and logs the path', async ({ page }) => {
  const logged = page.waitForEvent('console', {
    predicate: (message) => message.type() === 'error' && message.text().includes('/no-such-page'),
  });
  const response = await openPage(page, '/no-such-page');
  expect(response?.status()).toBe(404);
  await logged;

  const copy = NL.copy.notFound;
  await expect(page.getByText(copy.code, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
  await expect(page.getByRole('link', { name: copy.homeLink })).toHaveAttribute('href', '/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(page).toHaveTitle(NL.copy.meta.notFoundTitle);
  await expect(page).toHaveURL(/\/no-such-page$/);
});

test('the not-found page is kept out of search results', async ({ request }) => {
  const response = await request.get('/no-such-page');
  expect(response.status()).toBe(404);
  const html = await response.text();
  expect(html).toContain('<meta name="robots" content="noindex">');
  expect(html).not.toContain('rel="canonical"');
  expect(html).toContain(NL.copy.notFound.title);
});

test('an unknown path under /en/ shows the English not-found page', async ({ page }) => {
  const response = await openPage(page, '/en/no-such-page');
  expect(response?.status()).toBe(404);

  const copy = EN.copy.notFound;
  await expect(page.getByText(copy.code, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: copy.title })).toBeVisible();
  await expect(page.getByRole('link', { name: copy.homeLink })).toHaveAttribute('href', '/en/');
  await expect(page.getByText(NL.copy.notFound.title)).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page).toHaveTitle(EN.copy.meta.notFoundTitle);
  await expect(page).toHaveURL(/\/en\/no-such-page$/);
});

test('the home link on the not-found page leads to the home page', async ({ page }) => {
  await openPage(page, '/no-such-page');
  await page.getByRole('link', { name: NL.copy.notFound.homeLink }).click();
  await expect(page).toHaveURL(new URL('/', page.url()).href);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(NL.copy.hero.title);
});
