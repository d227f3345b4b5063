/**
 * The product sets no cookie, so nothing needs a consent banner: not on any built file, not on a page that
 * is not there, and not on any answer of the API, success or error, through the runner that serves the
 * production build with production's headers.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH, ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { linkInMailTo } from './mail-link';
import { expect, joinWaitlist, NL, newAddress, OUTBOX, openPage, signupParts, test } from './support';

const DIST = resolve(import.meta.dirname, '../../dist');
const noRedirects = { maxRedirects: 0 } as const;

/** Each Set-Cookie header of what `ask` answers (a redirect's own, not its target's), and its status. */
async function cookiesOf(answer: ReturnType<APIRequestContext['get']>) {
  const response = await answer;
  const cookies = response.headersArray().filter(({ name }) => name.toLowerCase() === 'set-cookie');
  return { status: response.status(), cookies: cookies.map(({ value }) => value) };
}

test('no built file sets a cookie: every page in both languages, every asset, and the 404 pages', async ({
  request,
}) => {
  // Not the build's own dot folders, nor the 404 pages' files, which are served only for what is missing.
  const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .map((file) => file.replaceAll('\\', '/'))
    .filter((file) => !/(^|\/)\./.test(file) && !/(^|\/)404\.html$/.test(file) && file.includes('.'));
  expect(files).toEqual(expect.arrayContaining(['index.html', 'en/index.html', 'privacy/index.html']));
  expect(files.some((file) => file.startsWith('assets/'))).toBe(true);
  for (const file of files) {
    const path = file === 'en/index.html' ? '/en/' : `/${file}`.replace(/\/?index\.html$/, '') || '/';
    expect(await cookiesOf(request.get(path, noRedirects)), path).toEqual({ status: 200, cookies: [] });
  }
  for (const path of ['/no-such-page', '/en/no-such-page', '/assets/no-such-file.js'])
    expect(await cookiesOf(request.get(path, noRedirects)), path).toEqual({ status: 404, cookies: [] });
  expect((await request.storageState()).cookies).toEqual([]);
});

test('no answer of the API sets a cookie: waitlist, confirm, leave and leave-request, success and error', async ({
  request,
}) => {
  const email = newAddress('cookies');
  const json = (data: unknown) => ({ data, ...noRedirects });
  const form = (fields: Record<string, string>) => ({ form: fields, ...noRedirects });
  const asked: Record<string, () => ReturnType<APIRequestContext['get']>> = {
    'waitlist joined': () => request.post(WAITLIST_PATH, json({ email, language: 'en' })),
    'waitlist invalid': () => request.post(WAITLIST_PATH, json({ email: 'ann@', language: 'nl' })),
    'waitlist form': () =>
      request.post(WAITLIST_PATH, form({ email: newAddress('form'), language: 'nl', website: '' })),
  };
  const answers: Record<string, { status: number; cookies: string[] }> = {};
  for (const [label, ask] of Object.entries(asked)) answers[label] = await cookiesOf(ask());

  const confirm = new URL(await linkInMailTo(OUTBOX, email, CONFIRM_PATH));
  const token = confirm.searchParams.get('t');
  const leave = new URL(await linkInMailTo(OUTBOX, email, LEAVE_PATH));
  const leavePath = leave.pathname + leave.search;
  const afterMail: typeof asked = {
    'confirm page': () => request.get(confirm.pathname + confirm.search, noRedirects),
    confirm: () => request.post(CONFIRM_PATH, json({ token })),
    'confirm malformed': () => request.post(CONFIRM_PATH, json({})),
    'leave page': () => request.get(leavePath, noRedirects),
    'leave one click': () =>
      request.post(leavePath, {
        data: `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ...noRedirects,
      }),
    'leave form': () =>
      request.post(leavePath, form({ token: leave.searchParams.get('t') ?? '', language: 'en' })),
    'leave malformed': () => request.post(LEAVE_PATH, json({ token: 42 })),
    'leave-request': () => request.post(LEAVE_REQUEST_PATH, json({ email, language: 'nl' })),
    'leave-request invalid': () => request.post(LEAVE_REQUEST_PATH, json({ email: 'x', language: 'nl' })),
    'leave-request form': () =>
      request.post(LEAVE_REQUEST_PATH, form({ email: newAddress('leave'), language: 'en' })),
  };
  for (const [label, ask] of Object.entries(afterMail)) answers[label] = await cookiesOf(ask());

  // Success and error for each route, so an empty Set-Cookie list means something.
  for (const route of ['waitlist', 'confirm', 'leave', 'leave-request']) {
    const statuses = Object.entries(answers)
      .filter(([label]) => label.split(' ')[0] === route)
      .map(([, { status }]) => status);
    expect(
      statuses.some((status) => status < 400),
      `${route} succeeded`,
    ).toBe(true);
    expect(
      statuses.some((status) => status >= 400),
      `${route} refused`,
    ).toBe(true);
  }
  for (const [label, { cookies }] of Object.entries(answers)) expect(cookies, label).toEqual([]);
  expect((await request.storageState()).cookies).toEqual([]);
});

test('a visitor who reads both homes and the notice and signs up has no cookie afterwards', async ({
  page,
  context,
}) => {
  for (const path of ['/en/?utm_source=newsletter', '/privacy', '/']) await openPage(page, path);
  await joinWaitlist(page, NL.copy, newAddress('browser'));
  await expect(signupParts(page, NL.copy).success).toContainText(NL.copy.signup.notices.successBody);
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => document.cookie)).toBe('');
});
