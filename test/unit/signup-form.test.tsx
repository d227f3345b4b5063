// What the browser tiers do not reach cheaply (the single send and its time limit, the honeypot, the held
// first press, the source); the journeys, each fault and the field's messages are test/e2e/signup.spec.ts's.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '#contract/locales';
import { SignupSection } from '../../frontend/src/features/waitlist/components/signup-form';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const fetchMock = vi.fn<typeof fetch>();
const answer = (status: number, body: unknown = {}) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));
const sent = (call = 0) => JSON.parse(String(fetchMock.mock.calls[call]?.[1]?.body));

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(() => answer(201, { status: 'joined' }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  Object.defineProperty(document, 'referrer', { value: '', configurable: true });
});

function renderSignup(locale: Locale = 'en') {
  const copy = messages[locale].signup;
  renderInLanguage(<SignupSection />, locale);
  const input = screen.getByRole('textbox', { name: copy.emailLabel });
  return { copy, input, submit: screen.getByRole('button', { name: copy.submit }), user: userEvent.setup() };
}

async function signUp(typed: string, locale: Locale = 'en') {
  const form = renderSignup(locale);
  await form.user.type(form.input, typed);
  await form.user.click(form.submit);
  return form;
}

describe('signup form', () => {
  it('says in the exact English of SPEC what is wrong with an address, under the field, and sends nothing', async () => {
    const { input, submit, user } = await signUp('   ');
    const empty = screen.getByText('Please enter an email address');
    // Between field and button in the DOM: under the field, whether they stack or stand side by side.
    expect(input.compareDocumentPosition(empty) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(empty.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await user.type(input, 'ann@');
    await user.click(submit);
    expect(screen.getByText('Please enter a valid email address (e.g., name@example.com)')).toHaveAttribute(
      'aria-live',
      'polite',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed address in its language once, however often pressed, waiting 10 s at most', async () => {
    let finish: (response: Response) => void = () => {};
    fetchMock.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const { copy, user } = await signUp('  ann@example.nl ', 'nl');

    const sending = screen.getByRole('button', { name: copy.sending });
    expect(sending).toBeDisabled();
    await user.click(sending);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sent()).toEqual({ email: 'ann@example.nl', language: 'nl' });
    expect(timeout).toHaveBeenCalledWith(10_000); // then it gives up: the error notice, as for no network
    finish(new Response('{"status":"joined"}', { status: 201 }));

    // SPEC's notice, then the step left as the heading, which takes the focus.
    const status = await screen.findByRole('status');
    const heading = within(status).getByRole('heading', {
      name: messages.nl.meta.waitlistResultTitles['waitlist-joined'],
    });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(status).toHaveTextContent(`${copy.notices.successTitle} ${copy.notices.successBody}`);
  });

  it('hides the honeypot from people and assistive technology, and sends it when a robot fills it', async () => {
    const { input, submit, user } = renderSignup();
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]');
    expect(screen.queryByRole('textbox', { name: messages.en.signup.honeypotLabel })).not.toBeInTheDocument();
    expect(honeypot).toHaveAttribute('tabindex', '-1');

    await user.type(honeypot as HTMLInputElement, 'https://spam.example');
    await user.type(input, 'bot@example.nl');
    await user.click(submit);
    expect(sent()).toMatchObject({ website: 'https://spam.example' });
  });

  it('holds the first press to point out a mistyped domain, and sends the address as typed on the second', async () => {
    const { input, submit, user } = renderSignup();
    await user.type(input, 'jan@ziggo.nl');
    await user.tab();
    await user.clear(input);
    await user.type(input, 'sanne@hotmial.com{Enter}');
    expect(await screen.findByRole('button', { name: 'sanne@hotmail.com' })).toBeInTheDocument();
    // A known domain brought no suggestion: only the slip did.
    expect(screen.getAllByText(/Did you mean/)).toHaveLength(1);
    expect(fetchMock).not.toHaveBeenCalled();

    await user.click(submit);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sent()).toMatchObject({ email: 'sanne@hotmial.com' });
  });

  // Another site's name and a campaign link's values, as a real browser sends them: test/e2e/signup.spec.ts.
  it('sends the landing URL’s UTM values, and no referrer for a visit from a page of this site', async () => {
    window.history.replaceState(null, '', '/en/?utm_source=Flyer&utm_term=ignored');
    Object.defineProperty(document, 'referrer', { value: `${location.origin}/privacy`, configurable: true });
    await signUp('ann@example.nl');

    expect(sent()).toEqual({ email: 'ann@example.nl', language: 'en', utmSource: 'flyer' });
  });
});
