import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
