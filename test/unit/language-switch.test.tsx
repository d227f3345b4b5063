import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { initialLocale } from '../../frontend/src/i18n/language-context';
import { messages } from '../../frontend/src/i18n/messages';
import { renderPage } from './render-page';

// The address, <html lang>, the title, the remembered choice and history are test/e2e/language.spec.ts's.
describe('switching language', () => {
  it('changes every text on the page to the English page’s, in place', async () => {
    const englishPage = renderPage('en').container.textContent;
    document.body.innerHTML = '';
    const { container } = renderPage('nl');
    expect(container.textContent).not.toBe(englishPage);

    const languages = screen.getByRole('navigation', { name: messages.nl.common.languageNavLabel });
    await userEvent.setup().click(within(languages).getByRole('link', { name: /EN/ }));

    expect(container.textContent).toBe(englishPage);
  });
});

it.each([
  ['/', undefined, 'nl', 'a first visit to / in Dutch'],
  ['/', 'en', 'en', 'a visitor who chose English back in English'],
  ['/en/', 'nl', 'en', 'an English address in English, whatever was chosen before'],
  ['/en/no-such-page', undefined, 'en', 'an unknown English address in English'],
  ['/no-such-page', 'en', 'en', 'an unknown Dutch-looking path in the remembered language'],
  ['/no-such-page', undefined, 'nl', 'an unknown Dutch-looking path in Dutch by default'],
] as const)('initialLocale(%j, %j) is %s: %s', (path, chosen, expected, _case) => {
  expect(initialLocale(path, chosen)).toBe(expected);
});
