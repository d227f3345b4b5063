/**
 * Confirming and leaving as a person does it, in both languages, with and without a script: join, take the
 * links from the mail (the runner's outbox), open them, press the buttons; leaving from the privacy notice's
 * form for a person without a mail at hand; and every result page these lead to.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { CONFIRM_PATH, CONFIRM_RESULT_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_RESULT_PATH } from '#contract/leave';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import { linkInMailTo } from './mail-link';
import {
  expect,
  expectNoAxeViolations,
  joinWaitlist,
  LOCALE_CASES,
  newAddress,
  OUTBOX,
  openPage,
  SECURITY_HEADER_NAMES,
  signupParts,
  test,
} from './support';

/** Whether `email` is still on the list: a confirmed address signing up again hears it is registered. */
async function stillOnTheList(request: APIRequestContext, email: string): Promise<boolean> {
  return (await request.post('/api/waitlist', { data: { email, language: 'en' } })).status() === 409;
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

const RESULT_PAGES = Object.keys(PAGE_PATH).filter((page) =>
  /^(waitlist|confirm|leave)-/.test(page),
) as Exclude<keyof typeof PAGE_PATH, 'home' | 'privacy'>[];

for (const { locale, path, copy } of LOCALE_CASES) {
  const confirm = confirmCopy[locale].page;
  const leave = leaveCopy[locale];
  const privacy = privacyCopy[locale].leave;
  const titles = {
    ...copy.meta.confirmResultTitles,
    ...copy.meta.leaveResultTitles,
    ...copy.meta.waitlistResultTitles,
  };

  test(`with the script, in ${locale}: the mail's links confirm, then leave, each page clean and in place`, async ({
    page,
    request,
  }) => {
    test.slow();
    const email = newAddress(`links.${locale}`);
    await openPage(page, path);
    await joinWaitlist(page, copy, email);
    // Where the mail went, as typed, so a typo would show.
    await expect(signupParts(page, copy).success.getByText(email, { exact: true })).toBeVisible();

    const confirmLink = await linkInMailTo(OUTBOX, email, CONFIRM_PATH);
    await openPage(page, confirmLink);
    await expect(page.getByRole('heading', { level: 1, name: copy.meta.confirmTitle })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    // The token leaves the address bar.
    await expect.poll(() => new URL(page.url()).search).not.toContain('t=');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: confirm.button }).click();
    await expect(page.getByRole('heading', { name: titles['confirm-confirmed'] })).toBeVisible();
    await expect(page.getByRole('button', { name: confirm.button })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await openPage(page, confirmLink);
    await page.getByRole('button', { name: confirm.button }).click();
    await expect(page.getByRole('heading', { name: titles['confirm-already-confirmed'] })).toBeVisible();

    // The leave link opens a page that removes no one; its button does, and says so in place.
    const leaveLink = await linkInMailTo(OUTBOX, email, LEAVE_PATH);
    await openPage(page, leaveLink);
    await expect(page.getByRole('heading', { level: 1, name: copy.meta.leaveTitle })).toBeVisible();
    await expect(page.getByText(leave.page.nothingYet)).toBeVisible();
    await expect.poll(() => new URL(page.url()).search).not.toContain('t=');
    await expectNoAxeViolations(page);
    expect(await stillOnTheList(request, email)).toBe(true);
    await page.getByRole('button', { name: leave.page.button }).click();
    const done = page.getByRole('status');
    await expect(done.getByRole('heading', { level: 2, name: titles['leave-done'] })).toBeFocused();
    await expect(done.getByText(leave.results.done.body)).toBeVisible();
    await expect(done.getByRole('link', { name: leave.signUpAgain })).toHaveAttribute(
      'href',
      `${path}#signup`,
    );
    await expect(page.getByRole('button', { name: leave.page.button })).toHaveCount(0);
    await expectNoAxeViolations(page);
    expect(await stillOnTheList(request, email)).toBe(false);
    // The link again, now used: the same answer.
    await openPage(page, leaveLink);
    await page.getByRole('button', { name: leave.page.button }).click();
    await expect(page.getByText(leave.results.done.body)).toBeVisible();
  });

  test(`with the script, in ${locale}: the privacy notice's leave form says what is wrong, then gives the one neutral answer`, async ({
    page,
  }) => {
    test.slow();
    await openPage(page, PAGE_PATH.privacy[locale]);
    const form = leaveForm(page, locale);
    await expect(form.section).toContainText(privacy.link);
    // Its field's messages are the signup form's (signup.spec.ts): one refusal, for axe to see.
    await form.submit.click();
    await expect(form.section.getByText(copy.signup.errors.empty)).toBeVisible();
    await expectNoAxeViolations(page);

    await form.email.fill(newAddress(`${locale}.nobody`));
    await form.submit.click();
    await expect(form.section.getByRole('status')).toContainText(privacy.requested.body);
    await expect(form.section.getByRole('status')).toContainText(privacy.requested.next);
    await expectNoAxeViolations(page);
  });

  test.describe(`without a script, in ${locale}`, () => {
    test.use({ javaScriptEnabled: false });

    test('the mail’s links lead to the confirmed, already confirmed and done pages, and the person is gone', async ({
      page,
      request,
    }) => {
      const email = newAddress(`links.nojs.${locale}`);
      await page.goto(path);
      await joinWaitlist(page, copy, email, false);
      const confirmLink = await linkInMailTo(OUTBOX, email, CONFIRM_PATH);
      for (const result of ['confirmed', 'already-confirmed'] as const) {
        await page.goto(confirmLink);
        await expect(page.getByRole('heading', { level: 1, name: copy.meta.confirmTitle })).toBeVisible();
        await Promise.all([
          page.waitForURL(/\/confirm\//),
          page.getByRole('button', { name: confirm.button }).click(),
        ]);
        expect(new URL(page.url()).pathname).toBe(CONFIRM_RESULT_PATH[result][locale]);
        await expect(
          page.getByRole('heading', { level: 1, name: titles[`confirm-${result}`] }),
        ).toBeVisible();
      }

      await page.goto(await linkInMailTo(OUTBOX, email, LEAVE_PATH));
      await expect(page.getByRole('heading', { level: 1, name: copy.meta.leaveTitle })).toBeVisible();
      expect(await stillOnTheList(request, email)).toBe(true);
      await Promise.all([
        page.waitForURL(/\/leave\/done$/),
        page.getByRole('button', { name: leave.page.button }).click(),
      ]);
      expect(new URL(page.url()).pathname).toBe(LEAVE_RESULT_PATH.done[locale]);
      await expect(page.getByText(leave.results.done.next)).toBeVisible();
      expect(await stillOnTheList(request, email)).toBe(false);
    });

    test('the privacy notice’s form leads to the neutral requested page', async ({ page }) => {
      await page.goto(PAGE_PATH.privacy[locale]);
      const form = leaveForm(page, locale);
      await form.email.fill(newAddress(`${locale}.nojs`));
      await Promise.all([page.waitForURL(/\/leave\/requested$/), form.submit.click()]);
      expect(new URL(page.url()).pathname).toBe(LEAVE_RESULT_PATH.requested[locale]);
      await expect(page.getByRole('heading', { level: 1, name: titles['leave-requested'] })).toBeVisible();
      await expect(page.getByText(privacy.requested.body)).toBeVisible();
    });
  });

  for (const colorScheme of ['light', 'dark'] as const)
    test.describe(`every result page in ${locale}, ${colorScheme}`, () => {
      test.use({ colorScheme });

      // Axe runs in the page, so with the script; the HTML is the same prerendered page.
      test('is a noindex page with the site’s head and security headers, axe finding nothing', async ({
        page,
      }) => {
        test.setTimeout(120_000);
        for (const result of RESULT_PAGES) {
          const response = await openPage(page, PAGE_PATH[result][locale]);
          expect(response?.status(), result).toBe(200);
          for (const name of SECURITY_HEADER_NAMES) expect(response?.headers()[name], name).toBeTruthy();
          await expect(page.getByRole('heading', { level: 1, name: titles[result] })).toBeVisible();
          await expect(page).toHaveTitle(`${titles[result]} · Mandje`);
          await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
          await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
          await expect(page.locator('link[rel="manifest"]')).toHaveCount(1);
          await expect(page.getByRole('navigation', { name: copy.common.languageNavLabel })).toBeVisible();
          await expect(page.getByRole('contentinfo')).toBeVisible();
          await expectNoAxeViolations(page);
        }
      });
    });
}
