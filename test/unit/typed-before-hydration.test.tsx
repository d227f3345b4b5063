import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { expect, it, vi } from 'vitest';
import { TryItFirstForm } from '../../frontend/src/features/demo/components/chat-demo';
import { SignupSection } from '../../frontend/src/features/waitlist/components/signup-form';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages, messages } from '../../frontend/src/i18n/messages';

/**
 * A slow phone: the visitor types into the prerendered HTML before the script has loaded (or the browser
 * refills the form on Back); once the app hydrates over it, what they typed is still there.
 */
async function typeThenHydrate(ui: ReactNode, label: string, typed: string): Promise<HTMLInputElement> {
  const app = (
    <LanguageProvider page="home" initialLocale="en" catalog={allMessages}>
      {ui}
    </LanguageProvider>
  );
  const container = document.body.appendChild(document.createElement('div'));
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

it('keeps an address typed before hydration in the signup form, and sends it', async () => {
  const fetchMock = vi.fn<typeof fetch>(async () => new Response('{"status":"joined"}', { status: 201 }));
  vi.stubGlobal('fetch', fetchMock);
  const field = await typeThenHydrate(<SignupSection />, messages.en.signup.emailLabel, 'ann@example.nl');

  expect(field.value).toBe('ann@example.nl');
  await act(async () => {
    field.form?.requestSubmit();
  });
  expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({ email: 'ann@example.nl' });
  vi.unstubAllGlobals();
});

it('keeps a shopping list typed before hydration in the try-it-first form', async () => {
  const field = await typeThenHydrate(<TryItFirstForm />, messages.en.demo.tryFirst.label, 'milk, bread');
  expect(field.value).toBe('milk, bread');
});
