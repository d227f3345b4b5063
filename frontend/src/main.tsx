import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { initialLocale } from './i18n/initial-locale';
import { readLanguagePreference } from './i18n/language-preference';
import { HOME_PATH } from './i18n/locales';
import type { Page } from './i18n/page-metadata';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const page: Page = container.dataset.page === 'not-found' ? 'not-found' : 'home';
const locale = initialLocale(window.location.pathname, readLanguagePreference());
const app = (
  <StrictMode>
    <App page={page} initialLocale={locale} />
  </StrictMode>
);

// Hydrate the prerendered HTML when it is in the language to show; otherwise (a remembered choice, or the
// dev server, which has no prerendered HTML) render afresh.
if (container.firstElementChild && document.documentElement.lang === locale) {
  hydrateRoot(container, app);
} else {
  // A returning visitor who chose the other language: show their language at its own address.
  if (page === 'home') window.history.replaceState(null, '', HOME_PATH[locale] + window.location.hash);
  createRoot(container).render(app);
}
