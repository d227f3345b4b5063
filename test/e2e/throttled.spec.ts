import { expect, LOCALE_CASES, openPage, test } from './support';

// API Gateway answers above the stage's throttle with 429 and its own body, before the handler runs.
for (const { locale, path, copy } of LOCALE_CASES) {
  test(`a throttled API (429) gives the error notice and keeps the address (${locale})`, async ({ page }) => {
    let requests = 0;
    await page.route('**/api/waitlist', (route) => {
      requests++;
      return route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: '{"message":"Too Many Requests"}',
      });
    });
    await openPage(page, path);
    const section = page.getByRole('region', { name: copy.signup.title });
    const email = section.getByRole('textbox', { name: copy.signup.emailLabel });
    const address = `throttled.${locale}.${Date.now()}@example.nl`;

    await email.fill(address);
    await section.getByRole('button', { name: copy.signup.submit }).click();

    const alert = page.getByRole('alert');
    await expect(alert).toContainText(copy.signup.notices.errorTitle);
    await expect(alert).toContainText(copy.signup.notices.errorBody);
    await expect(email).toHaveValue(address);
    await expect(section.getByRole('status')).toHaveText('');
    expect(requests).toBe(1);
  });
}
