// The pages a mail's link opens (confirm, leave), but for the journeys with a real mail (test/e2e's).
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRM_RESULTS, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '../../frontend/src/config/site';
import { ConfirmPage, tokenOfPage } from '../../frontend/src/features/confirm/components/confirm-page';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { LeavePage } from '../../frontend/src/features/leave/components/leave-page';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { fillInText } from '../../frontend/src/i18n/fill-in';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages, messages } from '../../frontend/src/i18n/messages';
import { prerenderPage } from '../../frontend/src/prerender';

/** A token of the shape the API makes (27 base64url characters). */
const TOKEN = 'Z2b3xQAAAAAAAAAAAAAAAAAAAAA';
const fetchMock = vi.fn<typeof fetch>();
const answer = (status: number, body: unknown = {}) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

const PAGES = {
  confirm: { Page: ConfirmPage, api: '/api/confirm', placeholder: TOKEN_PLACEHOLDER, copy: confirmCopy },
  leave: { Page: LeavePage, api: '/api/leave', placeholder: LEAVE_TOKEN_PLACEHOLDER, copy: leaveCopy },
};

async function press(page: keyof typeof PAGES, locale: Locale = 'en') {
  const { Page, copy } = PAGES[page];
  render(
    <LanguageProvider page={page} initialLocale={locale} catalog={allMessages}>
      <Page token={TOKEN} />
    </LanguageProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: copy[locale].page.button }));
  return { copy: copy[locale], user };
}

describe.each(['confirm', 'leave'] as const)('the %s page', (page) => {
  const { api, placeholder } = PAGES[page];

  it.each(['nl', 'en'] as const)(
    'is prerendered in %s as a plain form post with the placeholder once, out of search engines, sending no Referer',
    (locale) => {
      const { head, body, lang } = prerenderPage(page, locale);
      const form = new DOMParser().parseFromString(body, 'text/html').querySelector('form');

      expect(lang).toBe(locale);
      expect(form?.getAttribute('method')).toBe('post');
      expect(form?.getAttribute('action')).toBe(api);
      expect(form?.querySelector('input[name="token"]')?.getAttribute('value')).toBe(placeholder);
      expect(form?.querySelector('input[name="language"]')?.getAttribute('value')).toBe(locale);
      expect(body.split(placeholder)).toHaveLength(2);
      expect(head).not.toContain(placeholder);
      // First in the head, before anything the head makes the browser fetch; no link holds the token.
      expect(head.startsWith('<meta name="referrer" content="no-referrer">')).toBe(true);
      expect(head).toContain('<meta name="robots" content="noindex">');
      expect(head).not.toMatch(/rel="canonical"|hreflang/);
      expect(body).not.toMatch(/<nav|hreflang/);
    },
  );

  it.each([
    ['a server fault', () => answer(503, { error: 'unavailable' })],
    ['a rate limit', () => answer(429, { message: 'Too Many Requests' })],
    ['an answer that is no result', () => answer(200, { result: 'maybe' })],
    ['an answer that is not JSON', () => Promise.resolve(new Response('<html>', { status: 200 }))],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('after %s says to try again and keeps the button, which then works', async (_case, reply) => {
    fetchMock.mockImplementationOnce(reply);
    const { copy, user } = await press(page);

    const alert = screen.getByRole('alert');
    expect(
      await within(alert).findByRole('heading', { level: 2, name: 'Something went wrong' }),
    ).toHaveFocus();
    expect(alert).toHaveTextContent(copy.results['try-again'].body);
    expect(alert).toHaveTextContent(copy.results['try-again'].next);
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();

    fetchMock.mockReturnValue(answer(200, { result: page === 'confirm' ? 'confirmed' : 'done' }));
    await user.click(screen.getByRole('button', { name: copy.page.button }));
    expect(await within(screen.getByRole('status')).findByRole('heading')).toBeInTheDocument();
    expect(alert).toBeEmptyDOMElement();
    expect(JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body))).toEqual({ token: TOKEN });
    expect(fetchMock.mock.calls[1]?.[0]).toBe(api);
  });
});

describe.each(['nl', 'en'] as const)('with the script, in %s', (locale) => {
  const titles = { ...messages[locale].meta.confirmResultTitles, ...messages[locale].meta.leaveResultTitles };

  it.each(CONFIRM_RESULTS)(
    'the confirm page shows %s in its place, in the live region its news needs, with the focus and the title',
    async (result) => {
      fetchMock.mockReturnValue(answer(200, { result }));
      await press('confirm', locale);
      const copy = confirmCopy[locale];

      const settled = result === 'confirmed' || result === 'already-confirmed';
      const region = screen.getByRole(settled ? 'status' : 'alert');
      const title = titles[`confirm-${result}`];
      const heading = await within(region).findByRole('heading', { level: 1, name: title });
      expect(heading).toHaveFocus();
      expect(screen.getAllByRole('heading', { level: 1 })).toEqual([heading]);
      expect(document.title).toBe(`${title} · Mandje`);
      const facts = { brand: siteConfig.brandName, days: String(PENDING_DAYS) };
      for (const text of Object.values(copy.results[result]))
        expect(region).toHaveTextContent(fillInText(text, facts));
      expect(screen.queryByRole('button', { name: copy.page.button })).not.toBeInTheDocument();
      // The page never knew the address, so shows none.
      expect(screen.getByRole('main').textContent).not.toMatch(/\S@\S/);
    },
  );

  it.each([
    [400, { error: 'invalid_request' }],
    [413, { error: 'payload_too_large' }],
  ])('the confirm page answers a refused request (%s) as a broken link', async (status, body) => {
    fetchMock.mockReturnValue(answer(status, body));
    await press('confirm', locale);

    const alert = screen.getByRole('alert');
    expect(await within(alert).findByRole('heading', { name: titles['confirm-invalid'] })).toHaveFocus();
  });
});

describe('the token', () => {
  it('leaves the address bar, the rest of the link stays, and the page keeps its language through history', async () => {
    window.history.replaceState(null, '', `/api/confirm?lang=en&t=${TOKEN}`);
    fetchMock.mockReturnValue(answer(200, { result: 'confirmed' }));
    await press('confirm');

    expect(window.location.pathname + window.location.search).toBe('/api/confirm?lang=en');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ token: TOKEN });
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(document.documentElement.lang).toBe('en');
  });

  const pageWith = (value: string | null) => {
    const root = document.createElement('div');
    if (value !== null) root.innerHTML = `<form><input type="hidden" name="token" value="${value}"></form>`;
    return root;
  };

  it.each([
    ['the one the API put in the form', TOKEN, '?t=other', TOKEN],
    ['an empty one the API left in the form, not the link’s', '', '?t=%3Cscript%3E', ''],
    ['the link’s where nobody replaced the placeholder', TOKEN_PLACEHOLDER, `?lang=nl&t=${TOKEN}`, TOKEN],
    ['the link’s where there is no form', null, `?t=${TOKEN}`, TOKEN],
    ['none where neither has one', null, '', ''],
  ])('read is %s', (_case, inForm, search, token) => {
    expect(tokenOfPage(pageWith(inForm), search)).toBe(token);
  });
});
