import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIRM_RESULTS, type ConfirmResult, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import type { Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '../../frontend/src/config/site';
import { ConfirmPage, tokenOfPage } from '../../frontend/src/features/confirm/components/confirm-page';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages, messages } from '../../frontend/src/i18n/messages';
import { pageMetadata } from '../../frontend/src/i18n/page-metadata';
import { confirmResultPage } from '../../frontend/src/i18n/page-paths';
import { prerenderPage } from '../../frontend/src/prerender';

/** A token of the shape the API makes (27 base64url characters). */
const TOKEN = 'Z2b3xQAAAAAAAAAAAAAAAAAAAAA';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

const answer = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

function renderConfirmPage(locale: Locale = 'en', token = TOKEN) {
  render(
    <LanguageProvider page="confirm" initialLocale={locale} catalog={allMessages}>
      <ConfirmPage token={token} />
    </LanguageProvider>,
  );
  const copy = confirmCopy[locale];
  return {
    copy,
    button: screen.getByRole('button', { name: copy.page.button }),
    user: userEvent.setup(),
  };
}

const resultTitle = (locale: Locale, result: Parameters<typeof confirmResultPage>[0]) =>
  messages[locale].meta.confirmResultTitles[confirmResultPage(result)];

describe.each(['nl', 'en'] as const)('the confirmation page as prerendered, in %s', (locale) => {
  const { head, body, lang } = prerenderPage('confirm', locale);
  const document = new DOMParser().parseFromString(body, 'text/html');
  const form = document.querySelector('form');

  it('is a plain form post to the confirm API, with the placeholder for the token and the language', () => {
    expect(lang).toBe(locale);
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.getAttribute('action')).toBe('/api/confirm');
    expect(form?.querySelector('input[type="hidden"][name="token"]')?.getAttribute('value')).toBe(
      TOKEN_PLACEHOLDER,
    );
    expect(form?.querySelector('input[type="hidden"][name="language"]')?.getAttribute('value')).toBe(locale);
    expect(form?.querySelector('button[type="submit"]')?.textContent).toBe(confirmCopy[locale].page.button);
  });

  it('holds the placeholder once, where the API puts the token, and nowhere else', () => {
    expect(body.split(TOKEN_PLACEHOLDER)).toHaveLength(2);
    expect(head).not.toContain(TOKEN_PLACEHOLDER);
  });

  it('says what the button does and links to the privacy notice in its language', () => {
    expect(document.querySelector('h1')?.textContent).toBe(messages[locale].meta.confirmTitle);
    const privacy = [...document.querySelectorAll('main a')].find(
      (link) => link.textContent === messages[locale].signup.privacyLink,
    );
    expect(privacy?.getAttribute('href')).toBe(locale === 'nl' ? '/privacy' : '/en/privacy');
  });

  it('is kept out of search engines and sends no Referer, which would carry the token', () => {
    expect(head).toContain('<meta name="robots" content="noindex">');
    expect(head).not.toContain('rel="canonical"');
    expect(head).not.toContain('hreflang');
    // First in the page's head, before anything the head makes the browser fetch.
    expect(head.startsWith('<meta name="referrer" content="no-referrer">')).toBe(true);
    const meta = pageMetadata('confirm', locale, messages[locale].meta);
    expect(meta.title).toBe(`${messages[locale].meta.confirmTitle} · Mandje`);
    expect(meta.canonicalUrl).toBeUndefined();
    expect(meta.alternates).toEqual([]);
    expect(meta.noReferrer).toBe(true);
  });

  it('has no language switch: the mail chose the language, and no other link holds the token', () => {
    expect(document.querySelector('nav')).toBeNull();
    expect(document.querySelector('a[hreflang]')).toBeNull();
  });
});

describe('the other pages', () => {
  it('send a Referer as before: only the confirmation page holds a token', () => {
    for (const page of ['home', 'privacy', 'confirm-confirmed', 'waitlist-joined'] as const)
      expect(prerenderPage(page, 'nl').head).not.toContain('referrer');
  });
});

describe('the confirmation page with its script', () => {
  it('sends the token as JSON to the confirm API, and gives up after 10 seconds', async () => {
    fetchMock.mockReturnValue(answer(200, { result: 'confirmed' }));
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const { button, user } = renderConfirmPage('nl');
    await user.click(button);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/confirm');
    expect(init).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(String(init?.body))).toEqual({ token: TOKEN });
    expect(timeout).toHaveBeenCalledWith(10_000);
  });

  it('shows that it is confirming, and sends once however often the button is pressed', async () => {
    let finish: (response: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { copy, button, user } = renderConfirmPage('en');
    await user.click(button);

    const sending = screen.getByRole('button', { name: copy.page.sending });
    expect(sending).toBeDisabled();
    await user.click(sending);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    finish(new Response('{"result":"confirmed"}', { status: 200 }));
    expect(
      await screen.findByRole('heading', { level: 1, name: resultTitle('en', 'confirmed') }),
    ).toBeInTheDocument();
  });

  describe.each(['nl', 'en'] as const)('in %s', (locale) => {
    it.each(
      CONFIRM_RESULTS.map((result) => [
        result,
        result === 'confirmed' || result === 'already-confirmed' ? 'status' : 'alert',
      ]),
    )(
      'shows %s in place of the page, announced as a %s, with the focus on it and the button gone',
      async (result, role) => {
        fetchMock.mockReturnValue(answer(200, { result }));
        const { copy, button, user } = renderConfirmPage(locale);
        await user.click(button);

        const region = screen.getByRole(role);
        // The result is the page now: its heading, and nothing is left of the request it was.
        const heading = await within(region).findByRole('heading', {
          level: 1,
          name: resultTitle(locale, result as ConfirmResult),
        });
        expect(heading).toHaveFocus();
        expect(screen.getAllByRole('heading', { level: 1 })).toEqual([heading]);
        expect(screen.queryByText(messages[locale].meta.confirmTitle)).not.toBeInTheDocument();
        expect(document.title).toBe(`${resultTitle(locale, result as ConfirmResult)} · Mandje`);
        const texts = copy.results[result as ConfirmResult];
        expect(region).toHaveTextContent(texts.body.replace('{days}', String(PENDING_DAYS)));
        expect(region).toHaveTextContent(texts.next.replace('{brand}', siteConfig.brandName));
        expect(screen.queryByRole('button', { name: copy.page.button })).not.toBeInTheDocument();
        expect(screen.getByRole(role === 'status' ? 'alert' : 'status')).toBeEmptyDOMElement();
      },
    );
  });

  it.each([
    ['expired', '/en/#signup', 'signUpAgain'],
    ['unknown', '/en/#signup', 'signUpAgain'],
    ['invalid', '/en/', 'backHome'],
    ['confirmed', '/en/', 'backHome'],
    ['already-confirmed', '/en/', 'backHome'],
  ] as const)('leads on from %s to %s', async (result, href, label) => {
    fetchMock.mockReturnValue(answer(200, { result }));
    const { copy, button, user } = renderConfirmPage('en');
    await user.click(button);

    const name = label === 'signUpAgain' ? copy.signUpAgain : messages.en.common.backToHome;
    expect(await screen.findByRole('link', { name })).toHaveAttribute('href', href);
  });

  it.each([
    ['a refused request', () => answer(400, { error: 'invalid_request' })],
    ['a token too long to be one', () => answer(413, { error: 'payload_too_large' })],
  ])('answers %s as a broken link', async (_case, reply) => {
    fetchMock.mockImplementation(reply);
    const { button, user } = renderConfirmPage('en');
    await user.click(button);

    expect(
      await within(screen.getByRole('alert')).findByRole('heading', { name: resultTitle('en', 'invalid') }),
    ).toHaveFocus();
  });

  it.each([
    ['a server fault', () => answer(503, { error: 'unavailable' })],
    ['an unexpected status', () => answer(500, {})],
    ['a rate limit', () => answer(429, { message: 'Too Many Requests' })],
    ['an answer that is no result', () => answer(200, { result: 'maybe' })],
    ['an answer that is not JSON', () => Promise.resolve(new Response('<html>', { status: 200 }))],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['no answer in time', () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'))],
  ])('after %s says to try again and keeps the button, which then works', async (_case, reply) => {
    fetchMock.mockImplementationOnce(reply);
    const { copy, button, user } = renderConfirmPage('en');
    await user.click(button);

    const alert = screen.getByRole('alert');
    expect(
      await within(alert).findByRole('heading', { level: 2, name: resultTitle('en', 'try-again') }),
    ).toHaveFocus();
    expect(alert).toHaveTextContent(copy.results['try-again'].body);
    expect(alert).toHaveTextContent(copy.results['try-again'].next);
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();
    const again = screen.getByRole('button', { name: copy.page.button });
    expect(again).toBeEnabled();

    fetchMock.mockReturnValue(answer(200, { result: 'confirmed' }));
    await user.click(again);
    expect(
      await within(screen.getByRole('status')).findByRole('heading', {
        name: resultTitle('en', 'confirmed'),
      }),
    ).toBeInTheDocument();
    expect(alert).toBeEmptyDOMElement();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('takes the token out of the address bar and keeps the rest of the link', () => {
    window.history.replaceState(null, '', `/api/confirm?lang=en&t=${TOKEN}`);
    renderConfirmPage('en');

    expect(window.location.pathname).toBe('/api/confirm');
    expect(window.location.search).toBe('?lang=en');
    expect(window.location.href).not.toContain(TOKEN);
    // The form still has it, for the button.
    expect(document.querySelector('input[name="token"]')).toHaveValue(TOKEN);
  });

  it('stays in its language when the browser’s history moves (its address names none)', () => {
    window.history.replaceState(null, '', '/api/confirm?lang=en');
    renderConfirmPage('en');
    window.dispatchEvent(new PopStateEvent('popstate'));

    expect(
      screen.getByRole('heading', { level: 1, name: messages.en.meta.confirmTitle }),
    ).toBeInTheDocument();
    expect(document.title).toBe(`${messages.en.meta.confirmTitle} · Mandje`);
  });

  /** Every address in the page's text and attributes, but the site's own contact address. */
  function addressesShown(): string[] {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.textContent ?? '');
    for (const element of document.body.querySelectorAll('*'))
      for (const attribute of element.attributes) texts.push(attribute.value);
    return texts
      .flatMap((text) => text.match(/[^\s@:]+@[^\s@]+\.[^\s@]+/g) ?? [])
      .filter((address) => address !== siteConfig.contactEmail);
  }

  it.each(CONFIRM_RESULTS)('shows no address, before or after %s', async (result) => {
    fetchMock.mockReturnValue(answer(200, { result }));
    const { button, user } = renderConfirmPage('en');
    expect(addressesShown()).toEqual([]);

    await user.click(button);
    await screen.findByRole('heading', { name: resultTitle('en', result) });
    expect(addressesShown()).toEqual([]);
  });
});

describe('tokenOfPage', () => {
  const pageWith = (value: string) => {
    const root = document.createElement('div');
    root.innerHTML = `<form><input type="hidden" name="token" value="${value}"></form>`;
    return root;
  };

  it('reads the token the API put in the form', () => {
    expect(tokenOfPage(pageWith(TOKEN), '?lang=nl&t=other')).toBe(TOKEN);
  });

  it('keeps an empty token the API left out of the form, rather than the link’s', () => {
    expect(tokenOfPage(pageWith(''), '?lang=nl&t=%3Cscript%3E')).toBe('');
  });

  it('reads the link where nobody replaced the placeholder, or there is no form', () => {
    expect(tokenOfPage(pageWith(TOKEN_PLACEHOLDER), `?lang=nl&t=${TOKEN}`)).toBe(TOKEN);
    expect(tokenOfPage(document.createElement('div'), `?t=${TOKEN}`)).toBe(TOKEN);
    expect(tokenOfPage(document.createElement('div'), '')).toBe('');
  });
});
