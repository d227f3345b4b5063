/**
 * The product sets no cookie, so nothing needs a consent banner: not on any built file, not on a page that
 * is not there, and not on any answer of the API, success or error, through the runner that serves the
 * production build with production's headers.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { APIResponse } from '@playwright/test';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH, ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { messages } from '../../frontend/src/i18n/messages';
import { linkInMailTo } from './mail-link';
import { expect, openPage, test } from './support';

const DIST = resolve(import.meta.dirname, '../../dist');
const OUTBOX = join(process.env.MANDJE_E2E_DATA_DIR as string, 'outbox');

let addressCount = 0;
const newAddress = (label: string) =>
  `cookies.${label}.${Date.now()}.${process.pid}.${++addressCount}@example.nl`;

/** Every file the build wrote that the site serves (not the build's own folders, which start with a dot). */
function builtFiles(folder = DIST): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? builtFiles(path) : [relative(DIST, path).split(sep).join('/')];
  });
}

/** The address a built file is served at: a page's folder (`/privacy`, the homes with a slash), or itself. */
function servedPath(file: string): string {
  if (file === 'index.html') return '/';
  if (file === 'en/index.html') return '/en/';
  return `/${file.replace(/\/index\.html$/, '')}`;
}

/** Each Set-Cookie header of an answer, as sent (a redirect's own, not its target's). */
const setCookies = (response: APIResponse) =>
  response
    .headersArray()
    .filter(({ name }) => name.toLowerCase() === 'set-cookie')
    .map(({ value }) => value);

/** The answers of one API route, by what was asked, each with its status and its Set-Cookie headers. */
type Answers = Record<string, { status: number; cookies: string[] }>;

async function ask(answers: Answers, label: string, response: Promise<APIResponse>): Promise<APIResponse> {
  const answer = await response;
  answers[label] = { status: answer.status(), cookies: setCookies(answer) };
  return answer;
}

const noRedirects = { maxRedirects: 0 } as const;
const ONE_CLICK = `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`;

test.describe('no cookie, anywhere', () => {
  test('no built file sets a cookie: every page in both languages, and every asset', async ({ request }) => {
    const files = builtFiles();
    const pages = files.filter((file) => file.endsWith('.html') && !/(^|\/)404\.html$/.test(file));
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'en/index.html', 'privacy/index.html']));
    expect(files.some((file) => file.startsWith('assets/'))).toBe(true);

    const answers: Answers = {};
    for (const file of files.filter((name) => !/(^|\/)404\.html$/.test(name))) {
      await ask(answers, servedPath(file), request.get(servedPath(file), noRedirects));
    }

    for (const [path, { status, cookies }] of Object.entries(answers)) {
      expect(status, path).toBe(200);
      expect(cookies, path).toEqual([]);
    }
    expect((await request.storageState()).cookies).toEqual([]);
  });

  test('the 404 page sets no cookie, in either language', async ({ request }) => {
    for (const path of ['/no-such-page', '/en/no-such-page', '/assets/no-such-file.js']) {
      const response = await request.get(path, noRedirects);
      expect(response.status(), path).toBe(404);
      expect(setCookies(response), path).toEqual([]);
    }
  });

  test('no answer of the API sets a cookie: waitlist, confirm, leave and leave-request, success and error', async ({
    request,
  }) => {
    const answers: Answers = {};
    const email = newAddress('api');
    const json = (data: unknown) => ({ data, ...noRedirects });
    const form = (fields: Record<string, string>) => ({ form: fields, ...noRedirects });

    // The waitlist: joined, already there, a bad address, a form post, a wrong method and media type.
    await ask(answers, 'waitlist joined', request.post(WAITLIST_PATH, json({ email, language: 'en' })));
    await ask(answers, 'waitlist again', request.post(WAITLIST_PATH, json({ email, language: 'en' })));
    await ask(
      answers,
      'waitlist invalid',
      request.post(WAITLIST_PATH, json({ email: 'ann@', language: 'nl' })),
    );
    await ask(
      answers,
      'waitlist form',
      request.post(WAITLIST_PATH, form({ email: newAddress('form'), language: 'nl', website: '' })),
    );
    await ask(answers, 'waitlist GET', request.get(WAITLIST_PATH, noRedirects));
    await ask(
      answers,
      'waitlist text',
      request.post(WAITLIST_PATH, {
        data: 'email',
        headers: { 'content-type': 'text/plain' },
        ...noRedirects,
      }),
    );

    // Confirmation: the link's page, the confirmation itself, a second one, and a token that is nobody's.
    const confirmLink = new URL(await linkInMailTo(OUTBOX, email, CONFIRM_PATH));
    const token = confirmLink.searchParams.get('t');
    await ask(answers, 'confirm page', request.get(confirmLink.pathname + confirmLink.search, noRedirects));
    await ask(answers, 'confirm', request.post(CONFIRM_PATH, json({ token })));
    await ask(answers, 'confirm again', request.post(CONFIRM_PATH, json({ token })));
    await ask(answers, 'confirm unknown', request.post(CONFIRM_PATH, json({ token: 'not-a-token' })));
    await ask(answers, 'confirm malformed', request.post(CONFIRM_PATH, json({})));
    await ask(answers, 'confirm unknown page', request.get(`${CONFIRM_PATH}?t=not-a-token`, noRedirects));

    // Leaving: the link's page, one click, the page's form, and a link that is nobody's.
    const leaveLink = new URL(await linkInMailTo(OUTBOX, email, LEAVE_PATH));
    const leavePath = leaveLink.pathname + leaveLink.search;
    await ask(answers, 'leave page', request.get(leavePath, noRedirects));
    await ask(
      answers,
      'leave one click',
      request.post(leavePath, {
        data: ONE_CLICK,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ...noRedirects,
      }),
    );
    await ask(
      answers,
      'leave form',
      request.post(leavePath, form({ token: leaveLink.searchParams.get('t') ?? '', language: 'en' })),
    );
    await ask(answers, 'leave malformed', request.post(LEAVE_PATH, json({ token: 42 })));
    await ask(answers, 'leave GET without token', request.get(LEAVE_PATH, noRedirects));

    // Asking for a leave link: accepted, a bad address, and a form post.
    await ask(answers, 'leave-request', request.post(LEAVE_REQUEST_PATH, json({ email, language: 'nl' })));
    await ask(
      answers,
      'leave-request invalid',
      request.post(LEAVE_REQUEST_PATH, json({ email: 'x', language: 'nl' })),
    );
    await ask(
      answers,
      'leave-request form',
      request.post(LEAVE_REQUEST_PATH, form({ email: newAddress('leave'), language: 'en' })),
    );

    // The list covers success and error for each route, so an empty Set-Cookie list means something.
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
    await openPage(page, '/en/?utm_source=newsletter');
    await openPage(page, '/privacy');
    await openPage(page, '/');
    const copy = messages.nl.signup;
    await page.getByRole('textbox', { name: copy.emailLabel }).fill(newAddress('browser'));
    await page.getByRole('button', { name: copy.submit }).click();
    await expect(page.getByRole('status').filter({ hasText: copy.notices.successTitle })).toContainText(
      copy.notices.successBody,
    );

    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });
});
