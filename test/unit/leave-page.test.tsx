/**
 * The page a leave link opens and the leave result pages: prerendered as a plain form with the token's
 * placeholder, kept out of search engines; with the script, one press sends the token and shows the one
 * answer in place.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LEAVE_RESULT_PATH, LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { siteConfig } from '../../frontend/src/config/site';
import { LeavePage, leaveTokenOfPage } from '../../frontend/src/features/leave/components/leave-page';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages, messages } from '../../frontend/src/i18n/messages';
import { pageMetadata } from '../../frontend/src/i18n/page-metadata';
import { leaveResultPage, pageOfPath } from '../../frontend/src/i18n/page-paths';
import { prerenderPage } from '../../frontend/src/prerender';
import { renderPage } from './render-page';

const TOKEN = 'Z2b3xQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

const answer = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

function renderLeavePage(locale: Locale = 'en') {
  render(
    <LanguageProvider page="leave" initialLocale={locale} catalog={allMessages}>
      <LeavePage token={TOKEN} />
    </LanguageProvider>,
  );
  const copy = leaveCopy[locale];
  return { copy, button: screen.getByRole('button', { name: copy.page.button }), user: userEvent.setup() };
}

describe.each(['nl', 'en'] as const)('the leave page as prerendered, in %s', (locale) => {
  const { head, body, lang } = prerenderPage('leave', locale);
  const document = new DOMParser().parseFromString(body, 'text/html');
  const form = document.querySelector('form');

  it('is a plain form post to the leave API with the token’s placeholder, once, and the language', () => {
    expect(lang).toBe(locale);
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.getAttribute('action')).toBe('/api/leave');
    expect(form?.querySelector('input[type="hidden"][name="token"]')?.getAttribute('value')).toBe(
      LEAVE_TOKEN_PLACEHOLDER,
    );
    expect(form?.querySelector('input[type="hidden"][name="language"]')?.getAttribute('value')).toBe(locale);
    expect(body.split(LEAVE_TOKEN_PLACEHOLDER)).toHaveLength(2);
    expect(head).not.toContain(LEAVE_TOKEN_PLACEHOLDER);
  });

  it('has one button, and says nothing happens until it is pressed', () => {
    expect(document.querySelector('h1')?.textContent).toBe(messages[locale].meta.leaveTitle);
    expect([...document.querySelectorAll('button')].map((button) => button.textContent)).toEqual([
      leaveCopy[locale].page.button,
    ]);
    expect(document.body.textContent).toContain(leaveCopy[locale].page.nothingYet);
  });

  it('is kept out of search engines and sends no Referer, which would carry the token', () => {
    expect(head).toContain('<meta name="robots" content="noindex">');
    expect(head).not.toContain('rel="canonical"');
    expect(head.startsWith('<meta name="referrer" content="no-referrer">')).toBe(true);
    expect(pageMetadata('leave', locale, messages[locale].meta).title).toBe(
      `${messages[locale].meta.leaveTitle} · ${siteConfig.brandName}`,
    );
  });
});

describe('the leave page with its script', () => {
  it('finds the token in the served form, or in the link where nobody put it there', () => {
    const served = new DOMParser().parseFromString(`<input name="token" value="${TOKEN}">`, 'text/html');
    const placeholder = new DOMParser().parseFromString(
      `<input name="token" value="${LEAVE_TOKEN_PLACEHOLDER}">`,
      'text/html',
    );

    expect(leaveTokenOfPage(served, '')).toBe(TOKEN);
    expect(leaveTokenOfPage(placeholder, `?lang=en&t=${TOKEN}`)).toBe(TOKEN);
  });

  it.each(['nl', 'en'] as const)(
    'in %s sends the token as JSON, then shows "done" in place with the focus on it',
    async (locale) => {
      fetchMock.mockReturnValue(answer(200, { result: 'done' }));
      const { copy, button, user } = renderLeavePage(locale);
      await user.click(button);

      const [url, init] = fetchMock.mock.calls[0] ?? [];
      expect(url).toBe('/api/leave');
      expect(init).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
      expect(JSON.parse(String(init?.body))).toEqual({ token: TOKEN });
      const status = screen.getByRole('status');
      expect(
        await within(status).findByRole('heading', {
          level: 2,
          name: messages[locale].meta.leaveResultTitles['leave-done'],
        }),
      ).toHaveFocus();
      expect(status).toHaveTextContent(copy.results.done.body);
      expect(within(status).getByRole('link', { name: copy.signUpAgain })).toHaveAttribute(
        'href',
        locale === 'nl' ? '/#signup' : '/en/#signup',
      );
      expect(screen.queryByRole('button', { name: copy.page.button })).not.toBeInTheDocument();
    },
  );

  it.each([
    ['a server fault', () => answer(503, { error: 'unavailable' })],
    ['a rate limit', () => answer(429, {})],
    ['an answer that is no result', () => answer(200, { result: 'maybe' })],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('after %s says to try again and keeps the button, which then works', async (_case, reply) => {
    fetchMock.mockImplementationOnce(reply).mockReturnValue(answer(200, { result: 'done' }));
    const { copy, button, user } = renderLeavePage('en');
    await user.click(button);

    expect(
      await within(screen.getByRole('alert')).findByRole('heading', {
        name: messages.en.meta.leaveResultTitles['leave-try-again'],
      }),
    ).toHaveFocus();
    await user.click(screen.getByRole('button', { name: copy.page.button }));
    expect(await within(screen.getByRole('status')).findByText(copy.results.done.body)).toBeInTheDocument();
  });
});

describe.each(['nl', 'en'] as const)('the leave result pages in %s', (locale) => {
  const titles = messages[locale].meta.leaveResultTitles;

  it.each([
    ['done', leaveCopy[locale].results.done.body],
    ['requested', privacyCopy[locale].leave.requested.body],
    ['try-again', leaveCopy[locale].results['try-again'].body],
  ] as const)('%s lives at its contract path, says what happened, and is not indexed', (result, text) => {
    const page = leaveResultPage(result);
    expect(pageOfPath(LEAVE_RESULT_PATH[result][locale])).toBe(page);

    renderPage(locale, page);
    expect(screen.getByRole('heading', { level: 1, name: titles[page] })).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
    const meta = pageMetadata(page, locale, messages[locale].meta);
    expect(meta.canonicalUrl).toBeUndefined();
    expect(prerenderPage(page, locale).head).toContain('<meta name="robots" content="noindex">');
  });

  it('done says each thing once: that you left (the heading), that no mail follows, the way back', () => {
    renderPage(locale, 'leave-done');
    const said = (screen.getByRole('main').textContent ?? '').toLowerCase();
    const times = (words: string) => said.split(words.toLowerCase()).length - 1;

    expect(times(titles['leave-done'])).toBe(1);
    expect(times(locale === 'nl' ? 'wachtlijst' : 'waitlist')).toBeLessThanOrEqual(1);
    expect(times(leaveCopy[locale].signUpAgain)).toBe(1);
  });

  it('done says signing up again is always possible', () => {
    renderPage(locale, 'leave-done');
    expect(screen.getByText(leaveCopy[locale].results.done.next)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: leaveCopy[locale].signUpAgain })).toBeInTheDocument();
  });

  it('requested tells to check the inbox and the spam folder', () => {
    renderPage(locale, 'leave-requested');
    expect(screen.getByText(privacyCopy[locale].leave.requested.next)).toBeInTheDocument();
  });
});
