/**
 * A slow phone: the visitor types before the script has loaded, or comes back with the browser's Back
 * button to a form it refills. When the page becomes interactive, what they typed must still be there and
 * be what is sent.
 */
import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TryItFirstForm } from '../../frontend/src/features/demo/components/try-it-first-form';
import { SignupSection } from '../../frontend/src/features/waitlist/components/signup-form';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages, messages } from '../../frontend/src/i18n/messages';

const fetchMock = vi.fn<typeof fetch>();
let container: HTMLDivElement;

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(new Response('{"status":"joined"}', { status: 201 }));
  vi.stubGlobal('fetch', fetchMock);
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => container.remove());

/** The prerendered HTML, a value typed into `label`'s field, then the app hydrating over it. */
async function typeThenHydrate(ui: ReactNode, label: string, typed: string): Promise<HTMLInputElement> {
  const app = (
    <LanguageProvider page="home" initialLocale="en" catalog={allMessages}>
      {ui}
    </LanguageProvider>
  );
  container.innerHTML = renderToString(app);
  const field = [...container.querySelectorAll('input')].find(
    (input) => container.querySelector(`label[for="${input.id}"]`)?.textContent === label,
  ) as HTMLInputElement;
  field.value = typed;
  await act(async () => {
    hydrateRoot(container, app);
  });
  return field;
}

describe('a field typed in before the page became interactive', () => {
  it('keeps the address in the signup form, and sends it', async () => {
    const field = await typeThenHydrate(<SignupSection />, messages.en.signup.emailLabel, 'ann@example.nl');

    expect(field.value).toBe('ann@example.nl');
    await act(async () => {
      field.form?.requestSubmit();
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({ email: 'ann@example.nl' });
  });

  it('keeps the shopping list in the try-it-first form', async () => {
    const field = await typeThenHydrate(<TryItFirstForm />, messages.en.demo.tryFirst.label, 'milk, bread');

    expect(field.value).toBe('milk, bread');
  });
});
