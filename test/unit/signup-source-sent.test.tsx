/**
 * With its script, the signup form says where the visit came from: the landing URL's UTM values and the
 * referring site's host, read when the form is sent, each only if it may be kept.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignupSection } from '../../frontend/src/features/waitlist/components/signup-form';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(new Response(JSON.stringify({ status: 'joined' }), { status: 201 }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  window.history.replaceState(null, '', '/');
  setReferrer('');
});

function setReferrer(url: string) {
  Object.defineProperty(document, 'referrer', { value: url, configurable: true });
}

/** Lands on `path` from `referrer`, signs up, and returns the JSON the form sent. */
async function signUpFrom(path: string, referrer = ''): Promise<Record<string, unknown>> {
  window.history.replaceState(null, '', path);
  setReferrer(referrer);
  const copy = messages.en.signup;
  renderInLanguage(<SignupSection />, 'en');
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: copy.emailLabel }), 'ann@example.nl');
  await user.click(screen.getByRole('button', { name: copy.submit }));
  expect(fetchMock).toHaveBeenCalledTimes(1);
  return JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
}

describe('the source the signup form sends', () => {
  it('sends the landing URL’s UTM values, cleaned, and the referring site’s host only', async () => {
    const sent = await signUpFrom(
      '/en/?utm_source=Newsletter&utm_medium=email&utm_campaign=December&utm_term=ignored',
      'https://www.instagram.com/p/abc123?igsh=xyz',
    );

    expect(sent).toEqual({
      email: 'ann@example.nl',
      language: 'en',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'december',
      referrer: 'instagram.com',
    });
  });

  it('sends no referrer when the visitor came from a page of this site', async () => {
    const sent = await signUpFrom('/en/?utm_source=flyer', `${window.location.origin}/privacy`);

    expect(sent).toEqual({ email: 'ann@example.nl', language: 'en', utmSource: 'flyer' });
  });

  it('sends nothing more than the address and language for a direct visit', async () => {
    expect(await signUpFrom('/en/')).toEqual({ email: 'ann@example.nl', language: 'en' });
  });

  it('sends none of the values it may not keep', async () => {
    const hostile = new URLSearchParams({
      utm_source: '<script>alert(1)</script>',
      utm_medium: 'https://evil.example/x',
      utm_campaign: 'x'.repeat(100),
    });
    const sent = await signUpFrom(`/en/?${hostile}`, 'javascript:alert(1)');

    expect(sent).toEqual({ email: 'ann@example.nl', language: 'en' });
  });
});
