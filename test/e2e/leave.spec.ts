/**
 * Leaving the waitlist as a person does it, in both languages, with and without a script: from the leave
 * link in a real mail (the runner's outbox), and from the privacy notice's form for a person without a mail
 * at hand. Axe checks each new page as it appears.
 */
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { LEAVE_RESULT_PATH } from '#contract/leave';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import { linkInMailTo } from './mail-link';
import { expect, expectNoAxeViolations, LOCALE_CASES, openPage, test } from './support';

const OUTBOX = join(process.env.MANDJE_E2E_DATA_DIR as string, 'outbox');

let addressCount = 0;
const newAddress = (label: string) =>
  `leave.${label}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

/** Someone who signed up and confirmed: their confirmation mail holds their leave link. */
async function confirmedPerson(
  request: APIRequestContext,
  locale: 'nl' | 'en',
): Promise<{ email: string; leave: string }> {
  const email = newAddress(locale);
  expect((await request.post('/api/waitlist', { data: { email, language: locale } })).status()).toBe(201);
  const confirm = new URL(await linkInMailTo(OUTBOX, email, '/api/confirm'));
  const confirmed = await request.post('/api/confirm', { data: { token: confirm.searchParams.get('t') } });
  expect(await confirmed.json()).toEqual({ result: 'confirmed' });
  return { email, leave: await linkInMailTo(OUTBOX, email, '/api/leave') };
}

/** Whether `email` is still on the list: a confirmed address signing up again hears it is registered. */
async function stillOnTheList(request: APIRequestContext, email: string): Promise<boolean> {
  const again = await request.post('/api/waitlist', { data: { email, language: 'en' } });
  return again.status() === 409;
}

function leaveForm(page: Page, locale: 'nl' | 'en') {
  const copy = privacyCopy[locale].leave;
  const section = page.getByRole('region', { name: copy.title });
  return {
    section,
    email: section.getByRole('textbox', { name: copy.emailLabel }),
    submit: section.getByRole('button', { name: copy.submit }),
  };
}

for (const { locale, copy } of LOCALE_CASES) {
  const leave = leaveCopy[locale];
  const privacy = privacyCopy[locale].leave;

  test.describe(`leaving in ${locale}, with the script`, () => {
    test('the mail’s leave link opens a page that removes no one; its button does, and says so in place', async ({
      page,
      request,
    }) => {
      const { email, leave: link } = await confirmedPerson(request, locale);

      await openPage(page, link);
      await expect(page.getByRole('heading', { level: 1, name: copy.meta.leaveTitle })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByText(leave.page.nothingYet)).toBeVisible();
      // The token leaves the address bar.
      await expect.poll(() => new URL(page.url()).search).not.toContain('t=');
      await expectNoAxeViolations(page);
      expect(await stillOnTheList(request, email)).toBe(true);

      await page.getByRole('button', { name: leave.page.button }).click();
      await expect(
        page.getByRole('status').getByRole('heading', { name: copy.meta.leaveResultTitles['leave-done'] }),
      ).toBeVisible();
      await expect(page.getByText(leave.results.done.body)).toBeVisible();
      await expect(page.getByRole('button', { name: leave.page.button })).toHaveCount(0);
      await expectNoAxeViolations(page);
      expect(await stillOnTheList(request, email)).toBe(false);

      // The link again, now used: the same answer.
      await openPage(page, link);
      await page.getByRole('button', { name: leave.page.button }).click();
      await expect(page.getByText(leave.results.done.body)).toBeVisible();
    });

    test('the privacy notice’s form says what is wrong with an address, then gives the one neutral answer', async ({
      page,
    }) => {
      await openPage(page, PAGE_PATH.privacy[locale]);
      const form = leaveForm(page, locale);
      await expect(form.section).toContainText(privacy.link);

      await form.submit.click();
      await expect(form.section.getByText(copy.signup.errors.empty)).toBeVisible();
      await form.email.fill('not-an-address');
      await form.submit.click();
      await expect(
        form.section.getByText(copy.signup.errors.malformed(copy.signup.exampleEmail)),
      ).toBeVisible();
      await expectNoAxeViolations(page);

      await form.email.fill(newAddress(`${locale}.nobody`));
      await form.submit.click();
      await expect(form.section.getByRole('status')).toContainText(privacy.requested.body);
      await expect(form.section.getByRole('status')).toContainText(privacy.requested.next);
      await expectNoAxeViolations(page);
    });
  });

  test.describe(`leaving in ${locale}, without a script`, () => {
    test.use({ javaScriptEnabled: false });

    test('the mail’s leave link and its button lead to the done page, and the person is gone', async ({
      page,
      request,
    }) => {
      const { email, leave: link } = await confirmedPerson(request, locale);

      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: copy.meta.leaveTitle })).toBeVisible();
      expect(await stillOnTheList(request, email)).toBe(true);
      await Promise.all([
        page.waitForURL(/\/leave\/done$/),
        page.getByRole('button', { name: leave.page.button }).click(),
      ]);
      expect(new URL(page.url()).pathname).toBe(LEAVE_RESULT_PATH.done[locale]);
      await expect(
        page.getByRole('heading', { level: 1, name: copy.meta.leaveResultTitles['leave-done'] }),
      ).toBeVisible();
      await expect(page.getByText(leave.results.done.next)).toBeVisible();
      expect(await stillOnTheList(request, email)).toBe(false);
    });

    test('the privacy notice’s form leads to the neutral requested page', async ({ page }) => {
      await page.goto(PAGE_PATH.privacy[locale]);
      const form = leaveForm(page, locale);
      await form.email.fill(newAddress(`${locale}.nojs`));
      await Promise.all([page.waitForURL(/\/leave\/requested$/), form.submit.click()]);

      expect(new URL(page.url()).pathname).toBe(LEAVE_RESULT_PATH.requested[locale]);
      await expect(
        page.getByRole('heading', { level: 1, name: copy.meta.leaveResultTitles['leave-requested'] }),
      ).toBeVisible();
      await expect(page.getByText(privacy.requested.body)).toBeVisible();
    });
  });

  // Axe runs in the page, so with the script; the HTML is the same prerendered page.
  test(`every leave result page in ${locale} is a clean noindex page`, async ({ page }) => {
    // A page with axe each: on a busy 2-core machine close to the usual time, so three times that.
    test.slow();
    for (const result of ['done', 'requested', 'try-again'] as const) {
      const response = await openPage(page, LEAVE_RESULT_PATH[result][locale]);
      expect(response?.status()).toBe(200);
      await expect(
        page.getByRole('heading', { level: 1, name: copy.meta.leaveResultTitles[`leave-${result}`] }),
      ).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expectNoAxeViolations(page);
    }
  });
}
