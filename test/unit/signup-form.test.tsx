import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '#contract/locales';
import { LanguageSwitch } from '../../frontend/src/components/language-switch';
import { SignupSection } from '../../frontend/src/features/waitlist/components/signup-form';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages, messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

function renderSignup(locale: Locale) {
  const copy = messages[locale].signup;
  renderInLanguage(<SignupSection />, locale);
  const input = screen.getByRole('textbox', { name: copy.emailLabel });
  return { copy, input, submit: screen.getByRole('button', { name: copy.submit }), user: userEvent.setup() };
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

const answer = (status: number, body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

describe('signup form', () => {
  it('is the #signup section, with an e-mail field the browser can fill', () => {
    const { input } = renderSignup('en');

    expect(document.getElementById('signup')).toContainElement(input);
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('autocomplete', 'email');
    expect(input.closest('form')).toHaveAttribute('novalidate');
    expect(screen.getByText(messages.en.signup.note)).toBeInTheDocument();
  });

  it.each(['nl', 'en'] as const)(
    'is prerendered as a plain form post to the API in its language, validated by the browser (%s)',
    (locale) => {
      const html = renderToString(
        <LanguageProvider page="home" initialLocale={locale} catalog={allMessages}>
          <SignupSection />
        </LanguageProvider>,
      );
      const form = new DOMParser().parseFromString(html, 'text/html').querySelector('form');

      expect(form?.getAttribute('method')).toBe('post');
      expect(form?.getAttribute('action')).toBe('/api/waitlist');
      // The browser's own check (type email, required) works until the script takes over.
      expect(form?.hasAttribute('novalidate')).toBe(false);
      expect(form?.querySelector('input[type="hidden"][name="language"]')?.getAttribute('value')).toBe(
        locale,
      );
      expect(form?.querySelector('input[type="email"][name="email"]')?.hasAttribute('required')).toBe(true);
      expect(form?.querySelector('input[name="website"]')).not.toBeNull();
    },
  );

  it('sends its language along and follows a language switch', async () => {
    renderInLanguage(
      <>
        <LanguageSwitch />
        <SignupSection />
      </>,
      'nl',
    );
    const input = screen.getByRole('textbox', { name: messages.nl.signup.emailLabel });
    const form = input.closest('form') as HTMLFormElement;

    expect(new FormData(form).get('language')).toBe('nl');
    await userEvent.setup().click(screen.getByRole('link', { name: /EN/ }));
    expect(new FormData(form).get('language')).toBe('en');
  });

  it.each(['nl', 'en'] as const)(
    'asks for an address when it is empty after trimming (%s)',
    async (locale) => {
      const { copy, input, submit, user } = renderSignup(locale);
      await user.type(input, '   ');
      await user.click(submit);

      expect(input).toHaveAccessibleDescription(expect.stringContaining(copy.errors.empty));
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveFocus();
    },
  );

  it.each(['nl', 'en'] as const)('explains the shape of a valid address (%s)', async (locale) => {
    const { copy, input, submit, user } = renderSignup(locale);
    await user.type(input, 'name@example');
    await user.click(submit);

    const message = screen.getByText(copy.errors.malformed(copy.exampleEmail));
    expect(message).toHaveAttribute('aria-live', 'polite');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message.textContent ?? '-'));
  });

  it('shows the exact English messages of the specification', async () => {
    const { input, submit, user } = renderSignup('en');
    await user.click(submit);
    expect(screen.getByText('Please enter an email address')).toBeInTheDocument();

    await user.type(input, 'ann@');
    await user.click(submit);
    expect(
      screen.getByText('Please enter a valid email address (e.g., name@example.com)'),
    ).toBeInTheDocument();
  });

  it('sends nothing while the address is not valid', async () => {
    const { input, submit, user } = renderSignup('en');
    await user.click(submit);
    await user.type(input, 'ann@example');
    await user.click(submit);

    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed address and the page language, and gives up after 10 seconds', async () => {
    fetchMock.mockReturnValue(answer(201, { status: 'joined' }));
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const { input, submit, user } = renderSignup('nl');
    await user.type(input, '  ann@example.nl ');
    await user.click(submit);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/waitlist');
    expect(init).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'ann@example.nl', language: 'nl' });
    expect(timeout).toHaveBeenCalledWith(10_000);
  });

  it('shows the sending state and sends only once, however often the button is pressed', async () => {
    let finish: (response: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { copy, input, submit, user } = renderSignup('en');
    await user.type(input, 'ann@example.nl');
    await user.click(submit);

    const sending = screen.getByRole('button', { name: copy.sending });
    expect(sending).toBeDisabled();
    await user.click(sending);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // A fault keeps the form (a signup gives way to "check your inbox"): the button works again.
    finish(new Response('{"error":"unavailable"}', { status: 503 }));
    expect(await screen.findByRole('button', { name: copy.submit })).toBeEnabled();
  });

  it.each(['nl', 'en'] as const)(
    "gives way to the step left after joining, confirming by mail, as its heading, with SPEC's notice and the address as typed (%s)",
    async (locale) => {
      fetchMock.mockReturnValue(answer(201, { status: 'joined' }));
      const { copy, input, submit, user } = renderSignup(locale);
      await user.type(input, '  Ann.de.Vries@Exampel.nl ');
      await user.click(submit);

      const status = await screen.findByRole('status');
      const heading = within(status).getByRole('heading', {
        name: messages[locale].meta.waitlistResultTitles['waitlist-joined'],
      });
      expect(heading).toHaveFocus();
      expect(heading).toHaveTextContent(
        locale === 'nl' ? 'Nog één stap: bevestig' : 'One more step: confirm',
      );
      // SPEC's notice, word for word, before the heading and in smaller type than it.
      const notice = within(status).getByText(`${copy.notices.successTitle} ${copy.notices.successBody}`);
      expect(notice.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(notice.className).toContain('text-sm');
      // Exactly as typed (trimmed), not masked, so a typo shows.
      expect(within(status).getByText('Ann.de.Vries@Exampel.nl')).toBeInTheDocument();
      expect(status).toHaveTextContent(copy.spamFolder);
      // The form has given way, and the field was cleared as SPEC says; so has the note before signing up.
      expect(screen.queryByRole('textbox', { name: copy.emailLabel })).not.toBeInTheDocument();
      expect(screen.queryByText(copy.note)).not.toBeInTheDocument();
      // Said once: no second line about the mail, no second notice.
      expect(screen.getAllByText(/Ann\.de\.Vries@Exampel\.nl/)).toHaveLength(1);
      expect(screen.getByRole('alert')).toBeEmptyDOMElement();
    },
  );

  it.each(['nl', 'en'] as const)(
    'puts the address back in the field, with the focus, to correct it (%s)',
    async (locale) => {
      fetchMock.mockReturnValue(answer(201, { status: 'joined' }));
      const { copy, input, submit, user } = renderSignup(locale);
      await user.type(input, 'ann@exampel.nl');
      await user.click(submit);
      await user.click(await screen.findByRole('button', { name: copy.changeAddress }));

      const field = screen.getByRole('textbox', { name: copy.emailLabel });
      expect(field).toHaveValue('ann@exampel.nl');
      expect(field).toHaveFocus();
      expect(screen.getByRole('status')).toBeEmptyDOMElement();

      await user.clear(field);
      await user.type(field, 'ann@example.nl');
      await user.click(screen.getByRole('button', { name: copy.submit }));
      expect(await within(screen.getByRole('status')).findByText('ann@example.nl')).toBeInTheDocument();
      expect(JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body))).toMatchObject({
        email: 'ann@example.nl',
      });
    },
  );

  it.each(['nl', 'en'] as const)(
    'says an address is already registered as neutral news, tells the unconfirmed to look for the mail, and keeps it (%s)',
    async (locale) => {
      fetchMock.mockReturnValue(answer(409, { error: 'already_registered' }));
      const { copy, input, submit, user } = renderSignup(locale);
      await user.type(input, 'ann@example.nl');
      await user.click(submit);

      const status = await screen.findByRole('status');
      await waitFor(() =>
        expect(status).toHaveTextContent(`${copy.notices.duplicateTitle}${copy.notices.duplicateBody}`),
      );
      expect(status).toHaveTextContent(copy.notConfirmedYet);
      expect(screen.getByRole('alert')).toBeEmptyDOMElement();
      expect(input).toHaveValue('ann@example.nl');
    },
  );

  it.each([
    ['a server fault', () => answer(503, { error: 'unavailable' })],
    ['a rate limit', () => answer(429, { message: 'Too Many Requests' })],
    ['a refused request', () => answer(400, { error: 'invalid_request' })],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['no answer in time', () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'))],
  ])('answers %s with the error notice and keeps the address', async (_case, reply) => {
    fetchMock.mockImplementation(reply);
    const { copy, input, submit, user } = renderSignup('en');
    await user.type(input, 'ann@example.nl');
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'ErrorSomething went wrong. Please try again.',
    );
    expect(input).toHaveValue('ann@example.nl');
    expect(screen.getByRole('button', { name: copy.submit })).toBeEnabled();
  });

  it.each([
    [409, { error: 'already_registered' }, 'status'],
    [503, { error: 'unavailable' }, 'alert'],
  ] as const)('lets the visitor dismiss a notice (%s)', async (status, body, role) => {
    fetchMock.mockReturnValue(answer(status, body));
    const { copy, input, submit, user } = renderSignup('en');
    await user.type(input, 'ann@example.nl');
    await user.click(submit);
    await user.click(await screen.findByRole('button', { name: copy.dismissNotice }));

    expect(screen.getByRole(role)).toBeEmptyDOMElement();
  });

  it('puts a field error right under the field, before the button, at every width', async () => {
    const { copy, input, submit, user } = renderSignup('en');
    await user.click(submit);

    const error = screen.getByText(copy.errors.empty);
    // In the DOM between field and button: under the field when they stack, and (sm:order-last) on a
    // line of its own under both when the button stands beside the field.
    expect(input.compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(error.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(error.parentElement).toBe(input.parentElement);
  });

  it('hides the honeypot from people and assistive technology, and sends it when a robot fills it', async () => {
    fetchMock.mockReturnValue(answer(201, { status: 'joined' }));
    const { input, submit, user } = renderSignup('en');
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]');
    expect(honeypot).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: messages.en.signup.honeypotLabel })).not.toBeInTheDocument();
    expect(honeypot).toHaveAttribute('tabindex', '-1');

    await user.type(honeypot as HTMLInputElement, 'https://spam.example');
    await user.type(input, 'bot@example.nl');
    await user.click(submit);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({
      website: 'https://spam.example',
    });
  });

  it.each(['nl', 'en'] as const)(
    'points out a mistyped domain when the field is left, and puts the likely address in on request (%s)',
    async (locale) => {
      const { copy, input, user } = renderSignup(locale);

      await user.type(input, 'Sanne.deVries@gmial.com');
      await user.tab();
      const likely = await screen.findByRole('button', { name: 'Sanne.deVries@gmail.com' });
      expect(likely.closest('p')).toHaveTextContent(
        copy.didYouMean.replace('{address}', 'Sanne.deVries@gmail.com'),
      );
      expect(input).toHaveAccessibleDescription(expect.stringContaining('Sanne.deVries@gmail.com'));

      await user.click(likely);
      expect(input).toHaveValue('Sanne.deVries@gmail.com');
      expect(input).toHaveFocus();
      expect(screen.queryByRole('button', { name: 'Sanne.deVries@gmail.com' })).not.toBeInTheDocument();
    },
  );

  it('holds the first press of the button to point out a mistyped domain, and sends the address as typed on the second', async () => {
    const { input, submit, user } = renderSignup('en');
    fetchMock.mockReturnValue(answer(201, { status: 'joined' }));

    await user.click(input);
    await waitFor(() => expect(screen.queryByText('Did you mean', { exact: false })).not.toBeInTheDocument());
    await user.type(input, 'sanne@hotmial.com{Enter}');
    expect(await screen.findByRole('button', { name: 'sanne@hotmail.com' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.click(submit);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({
      email: 'sanne@hotmial.com',
    });
  });

  it('says nothing of a domain it knows, or one it has no likelier spelling for', async () => {
    const { input, user } = renderSignup('en');

    for (const address of ['jan@ziggo.nl', 'jan@voorbeeld.nl']) {
      await user.clear(input);
      await user.type(input, address);
      await user.tab();
      await user.click(input);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Did you mean', { exact: false })).not.toBeInTheDocument();
    // The same steps with a slip do bring a suggestion: the silence above was the checker's.
    await user.clear(input);
    await user.type(input, 'jan@zigo.nl');
    await user.tab();
    expect(await screen.findByRole('button', { name: 'jan@ziggo.nl' })).toBeInTheDocument();
  });
});
