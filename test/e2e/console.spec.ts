import { expect, LOCALE_CASES, openPage, recordConsole, test } from './support';

// The server sends a strict Content-Security-Policy: an inline script or style would show up here as a
// console error. A hydration mismatch shows up as a console error or an uncaught (reported) error.
for (const { locale, path, copy } of LOCALE_CASES) {
  test(`loading ${path} (${locale}) logs no errors, no warnings and no hydration problems`, async ({
    page,
  }) => {
    const record = recordConsole(page);
    const failedRequests: string[] = [];
    page.on('requestfailed', (request) =>
      failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`),
    );
    page.on('response', (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.url()}: ${response.status()}`);
    });

    await openPage(page, path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.hero.title);
    await page.waitForLoadState('networkidle');

    expect(record.errors, 'console errors').toEqual([]);
    expect(record.pageErrors, 'uncaught page errors').toEqual([]);
    expect(record.warnings, 'console warnings').toEqual([]);
    expect(failedRequests, 'failed requests').toEqual([]);
  });
}
