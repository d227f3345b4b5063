import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '../../frontend/src/i18n/messages';
import { renderPage } from './render-page';

describe('not-found page', () => {
  it('says 404, that the page was not found, and links home in its language', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPage('en', 'not-found');

    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/en/');
    // The mascot keeps the visitor company; it only decorates, the heading says it all.
    expect(document.querySelector('main img[src="/mascot.svg"]')).toHaveAttribute('alt', '');
  });

  it('speaks Dutch in nl', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPage('nl', 'not-found');

    expect(screen.getByRole('heading', { name: messages.nl.notFound.title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.nl.notFound.homeLink })).toHaveAttribute('href', '/');
  });

  it('logs the path that was tried as an error', () => {
    const logError = vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/no-such-page');
    renderPage('nl', 'not-found');

    expect(logError).toHaveBeenCalledWith(expect.stringContaining('404'), '/no-such-page');
  });
});
