/**
 * Joining the waitlist with the page's script, in both languages: the form's messages, the answer in the
 * form's place, the faults (a store down, a lost connection, API Gateway's throttle, the per-client limit),
 * where the answer shows, and where a signup came from as a real browser sends it.
 */
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page, Route } from '@playwright/test';
import {
  TOO_MANY_REQUESTS_CONTENT_TYPE,
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import {
  containing,
  EN,
  expect,
  expectNoAxeViolations,
  joinWaitlist,
  LOCALE_CASES,
  NL,
  newAddress,
  OUTBOX,
  openPage,
  signupParts,
  test,
  waitUntilInteractive,
} from './support';

/** The record `npm run waitlist -- show` prints for `email`, read through the running store. */
async function storedRecord(email: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'operator/waitlist-tool.ts', 'show', email, '--data-dir', dirname(OUTBOX)],
    {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  return (JSON.parse(stdout) as Record<string, unknown>[])[0] ?? {};
}

/** What the API (or the edge in front of it) answers instead, and how often the page asked. */
async function answerWith(
  page: Page,
  answer: (route: Route) => Promise<void>,
): Promise<{ requests: number }> {
  const seen = { requests: 0 };
  await page.route('**/api/waitlist', (route) => {
    seen.requests++;
    return answer(route);
  });
  return seen;
}

const json =
  (status: number, body = '{}') =>
  (route: Route) =>
    route.fulfill({ status, contentType: 'application/json', body });

const FAULTS = {
  'a store that is down (503)': json(503, '{"error":"unavailable"}'),
  'a refused request (400)': json(400, '{"error":"invalid_request"}'),
  'a lost connection': (route: Route) => route.abort('internetdisconnected'),
  'API Gateway’s throttle (429)': json(429, '{"message":"Too Many Requests"}'),
  'the per-client limit at the edge (429 page)': (route: Route) =>
    route.fulfill({
      status: TOO_MANY_REQUESTS_STATUS,
      headers: {
        'content-type': TOO_MANY_REQUESTS_CONTENT_TYPE,
        'retry-after': TOO_MANY_REQUESTS_RETRY_AFTER,
      },
      body: TOO_MANY_REQUESTS_HTML,
    }),
};

for (const { locale, path, copy } of LOCALE_CASES) {
  const { notices } = copy.signup;

  test.describe(`joining the waitlist in ${locale}`, () => {
    test.beforeEach(async ({ page }) => {
      await openPage(page, path);
    });

    test('the form says what is wrong with an address, marks the field and focuses it, and points out a mistyped domain', async ({
      page,
    }) => {
      const { section, email, submit } = signupParts(page, copy);
      await expect(email).toHaveAttribute('aria-invalid', 'false');
      await expect(email).toHaveAccessibleDescription(copy.signup.note);
      await submit.click();
      await expect(section.getByText(copy.signup.errors.empty)).toBeVisible();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription(containing(copy.signup.errors.empty));
      await expect(email).toBeFocused();
      await expect(page).toHaveURL(new URL(path, page.url()).href);

      const malformed = copy.signup.errors.malformed(copy.signup.exampleEmail);
      await email.fill('not-an-email');
      await submit.click();
      await expect(section.getByText(malformed)).toBeVisible();
      await expect(email).toHaveAccessibleDescription(containing(malformed));
      await expectNoAxeViolations(page);
      await email.fill('n');
      await expect(section.getByText(malformed)).toHaveCount(0);
      await expect(email).toHaveAttribute('aria-invalid', 'false');

      // A mistyped mail domain is pointed out when the field is left; one press puts the likely address in.
      const name = newAddress(locale).split('@')[0];
      await email.fill(`${name}@gmial.com`);
      await email.press('Tab');
      const likely = page.getByRole('button', { name: `${name}@gmail.com` });
      await expect(likely).toBeVisible();
      await expect(email).toHaveAccessibleDescription(containing(copy.signup.didYouMean.split('{')[0] ?? ''));
      await expectNoAxeViolations(page, '#signup');

      await likely.click();
      await expect(email).toHaveValue(`${name}@gmail.com`);
      await submit.click();
      await expect(
        signupParts(page, copy).success.getByText(`${name}@gmail.com`, { exact: true }),
      ).toBeVisible();
    });

    test('a join gives way to "check your inbox" with the address as typed; the same address again is already registered', async ({
      page,
    }) => {
      const form = signupParts(page, copy);
      const address = newAddress(locale).replace('@example.nl', '@Exampel.nl');
      await joinWaitlist(page, copy, `  ${address} `);
      await expect(form.success).toContainText(notices.successBody);
      await expect(form.success.getByText(address, { exact: true })).toBeVisible();
      await expect(form.success).toContainText(copy.signup.spamFolder);
      await expect(form.email).toHaveCount(0);
      await expect(page.getByText(copy.signup.note)).toHaveCount(0);
      await expectNoAxeViolations(page);

      await form.success.getByRole('button', { name: copy.signup.changeAddress }).click();
      await expect(form.email).toHaveValue(address);
      await expect(form.email).toBeFocused();
      await joinWaitlist(page, copy, address.toUpperCase());
      const already = page.getByRole('status').filter({ hasText: notices.duplicateTitle });
      await expect(already).toContainText(notices.duplicateBody);
      await expect(already).toContainText(copy.signup.notConfirmedYet);
      await expect(page.getByRole('alert').filter({ hasText: notices.duplicateTitle })).toHaveCount(0);
      await expect(form.email).toHaveValue(address.toUpperCase());
    });

    for (const [fault, answer] of Object.entries(FAULTS))
      test(`${fault} gives the error notice, which can be dismissed, and keeps the address`, async ({
        page,
      }) => {
        const seen = await answerWith(page, answer);
        const { section, email, submit } = signupParts(page, copy);
        const address = newAddress(locale);
        await joinWaitlist(page, copy, address);
        await expect(page.getByRole('alert')).toContainText(notices.errorTitle);
        await expect(page.getByRole('alert')).toContainText(notices.errorBody);
        await expect(email).toHaveValue(address);
        await expect(section.getByRole('status')).toHaveText('');
        await expect(page).toHaveURL(new RegExp(`${path}$`));
        expect(seen.requests).toBe(1);
        await expectNoAxeViolations(page);
        await page.getByRole('alert').getByRole('button', { name: copy.signup.dismissNotice }).click();
        await expect(page.getByRole('alert')).toHaveText('');
        await expect(submit).toBeEnabled();
      });
  });

  for (const viewport of [
    { width: 360, height: 780 },
    { width: 1280, height: 800 },
  ])
    test.describe(`the signup's answer in ${locale} at ${viewport.width} px`, () => {
      test.use({ viewport });

      // After joining, "check your inbox" takes the form's place; a fault's notice comes under the form.
      for (const { status, role, title } of [
        { status: 201, role: 'status', title: notices.successTitle },
        { status: 503, role: 'alert', title: notices.errorTitle },
      ] as const)
        test(`shows the ${role} notice under the form or in its place, in the page's flow`, async ({
          page,
        }) => {
          await answerWith(page, json(status));
          await openPage(page, path);
          const { section, form } = signupParts(page, copy);
          const formBefore = await form.boundingBox();
          await joinWaitlist(page, copy, `notice.${locale}@example.nl`);
          const notice = page.getByRole(role).filter({ hasText: title });
          await expect(notice).toBeVisible();
          await notice.scrollIntoViewIfNeeded();
          const [box, sectionBox, footer] = await Promise.all(
            [notice, section, page.getByRole('contentinfo')].map((each) => each.boundingBox()),
          );
          if (!box || !formBefore || !sectionBox || !footer) throw new Error('not laid out');
          expect(box.x).toBeGreaterThanOrEqual(formBefore.x - 1);
          expect(box.x + box.width).toBeLessThanOrEqual(formBefore.x + formBefore.width + 1);
          expect(box.y).toBeGreaterThanOrEqual(sectionBox.y);
          expect(box.y + box.height).toBeLessThanOrEqual(
            Math.min(sectionBox.y + sectionBox.height, footer.y),
          );
          if (status === 201) await expect(form).toHaveCount(0);
          else {
            const formBox = await form.boundingBox();
            const below = box.y - ((formBox?.y ?? 0) + (formBox?.height ?? 0));
            expect(below).toBeGreaterThanOrEqual(0);
            expect(below).toBeLessThanOrEqual(200);
          }
          const positioned = (element: Element) => {
            for (let node: Element | null = element; node; node = node.parentElement)
              if (['fixed', 'sticky'].includes(getComputedStyle(node).position)) return true;
            return false;
          };
          expect(await notice.evaluate(positioned), 'fixed or sticky').toBe(false);
        });
    });
}

test.describe('where a signup came from', () => {
  test('with the script: the link’s UTM values and the referring site’s name, not its address', async ({
    page,
  }) => {
    const email = newAddress('source');
    await page.goto('/en/?utm_source=Newsletter&utm_medium=email&utm_campaign=december&fbclid=abc', {
      referer: 'https://www.instagram.com/p/secret-post?igsh=123',
    });
    await waitUntilInteractive(page);
    await joinWaitlist(page, EN.copy, email);
    await expect(signupParts(page, EN.copy).success).toBeVisible();
    const record = await storedRecord(email);
    expect(record.source).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'december',
      referrer: 'instagram.com',
    });
    expect(JSON.stringify(record)).not.toMatch(/secret-post|fbclid|igsh/);

    const direct = newAddress('direct');
    await openPage(page, '/');
    await joinWaitlist(page, NL.copy, direct);
    await expect(signupParts(page, NL.copy).success).toBeVisible();
    expect(await storedRecord(direct)).not.toHaveProperty('source');
  });

  test.describe('without the script', () => {
    test.use({ javaScriptEnabled: false });

    test('the form post keeps the UTM values of the page it was sent from', async ({ page }) => {
      const email = newAddress('source-noscript');
      await page.goto('/?utm_source=Flyer&utm_medium=qr&utm_campaign=market', {
        referer: 'https://www.instagram.com/p/secret-post',
      });
      await joinWaitlist(page, NL.copy, email, false);
      expect((await storedRecord(email)).source).toEqual({
        utmSource: 'flyer',
        utmMedium: 'qr',
        utmCampaign: 'market',
      });
    });
  });
});
