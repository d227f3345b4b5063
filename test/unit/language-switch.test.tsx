import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { messages } from '../../frontend/src/i18n/messages';
import { renderPage } from './render-page';

describe('switching language', () => {
  it('shows a first visit in Dutch', () => {
    renderPage('nl');
    expect(screen.getByRole('heading', { level: 1, name: messages.nl.hero.title })).toBeInTheDocument();
  });

  it('changes every text on the page to the English page from the hero switch', async () => {
    const user = userEvent.setup();
    const englishPage = renderPage('en').container.textContent;
    document.body.innerHTML = '';
    const { container } = renderPage('nl');
    const dutchPage = container.textContent;
    expect(dutchPage).not.toBe(englishPage);

    const languages = screen.getByRole('navigation', { name: messages.nl.common.languageNavLabel });
    await user.click(within(languages).getByRole('link', { name: /EN/ }));

    expect(container.textContent).toBe(englishPage);
  });

  it('puts the choice in the URL, <html lang>, the title, and remembers it', async () => {
    const user = userEvent.setup();
    renderPage('nl');
    await user.click(screen.getByRole('link', { name: /EN/ }));

    expect(window.location.pathname).toBe('/en/');
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe(messages.en.meta.homeTitle);
    expect(window.localStorage.getItem('mandje:language')).toBe('en');
    expect(screen.getByRole('link', { name: /EN/ })).toHaveAttribute('aria-current', 'true');
  });

  it('switches back to Dutch, at /', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/en/');
    renderPage('en');
    await user.click(screen.getByRole('link', { name: /NL/ }));

    expect(window.location.pathname).toBe('/');
    expect(screen.getByRole('heading', { level: 1, name: messages.nl.hero.title })).toBeInTheDocument();
    expect(window.localStorage.getItem('mandje:language')).toBe('nl');
  });

  it('switches from the demo plus menu too', async () => {
    const user = userEvent.setup();
    renderPage('nl');
    await user.click(screen.getByRole('button', { name: messages.nl.demo.plusMenu.toggle }));
    // The menu's entries load when it is first wanted.
    await user.click(await screen.findByRole('button', { name: /English/ }));

    expect(screen.getByRole('heading', { level: 1, name: messages.en.hero.title })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/en/');
  });

  it('follows the browser back button to the language of the address', async () => {
    const user = userEvent.setup();
    renderPage('nl');
    await user.click(screen.getByRole('link', { name: /EN/ }));
    window.history.replaceState(null, '', '/');
    window.dispatchEvent(new PopStateEvent('popstate'));

    expect(
      await screen.findByRole('heading', { level: 1, name: messages.nl.hero.title }),
    ).toBeInTheDocument();
  });
});
