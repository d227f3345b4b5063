// The page's entry, imported once the first full frame has painted (frontend/build.ts).
import './styles.css';
import type { Locale } from '#contract/locales';
import { VISIT_LANGUAGE_PARAMETER, VISIT_PAGES, VISIT_PATH } from '#contract/visit-counting';

const language = document.documentElement.lang;

// The copy main.tsx loads, fetched alongside the app; the entry must not import the app.
void (language === 'en' ? import('./i18n/messages/en') : import('./i18n/messages/nl'));
void import('./main');

// A home page tells the server it was opened (contract/visit-counting.ts): no body, no cookie.
if (VISIT_PAGES[language as Locale] === location.pathname)
  navigator.sendBeacon(`${VISIT_PATH}?${VISIT_LANGUAGE_PARAMETER}=${language}`);
