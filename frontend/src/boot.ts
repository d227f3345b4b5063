/**
 * The page's entry. The text is prerendered and the stylesheet is inlined in the HTML, so the first paint
 * needs no script: the page imports this entry only once its first full frame has painted (an inline line
 * the build writes, frontend/build.ts), and this entry starts the app (React, to make the demo and the form
 * work) and the copy of the page's language. A slow connection spends itself on what the visitor sees first.
 */
import './styles.css';
import type { Locale } from '#contract/locales';
import { VISIT_LANGUAGE_PARAMETER, VISIT_PAGES, VISIT_PATH } from '#contract/visit-counting';

/**
 * The copy of the page's language, fetched alongside the app rather than after it: the same chunks
 * i18n/lazy-messages.ts loads, named here because the entry must not import the app's modules.
 */
const COPY: Record<string, () => Promise<unknown>> = {
  nl: () => import('./i18n/messages/nl'),
  en: () => import('./i18n/messages/en'),
};

/** The page's language, as the build wrote it into `<html lang>`. */
const language = document.documentElement.lang;

function startApp(): void {
  void COPY[language]?.();
  void import('./main');
}

/**
 * A home page tells the server it was opened, in its language (contract/visit-counting.ts): one small post
 * with no body and no cookie, its answer never read. The server counts each visitor once a day per language.
 */
function countVisit(): void {
  if (VISIT_PAGES[language as Locale] === location.pathname)
    navigator.sendBeacon(`${VISIT_PATH}?${VISIT_LANGUAGE_PARAMETER}=${language}`);
}

startApp();
countVisit();
