import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLocale } from '#contract/locales';
import { NotFoundPage } from './features/not-found/not-found-page';
import { setTypefaceOutOfSight } from './fonts/typeface-out-of-sight';
import { initialLocale } from './i18n/initial-locale';
import { LanguageProvider } from './i18n/language-context';
import { readLanguagePreference } from './i18n/language-preference';
import { lazyMessages } from './i18n/lazy-messages';
import {
  confirmResultOf,
  hasAddress,
  isConfirmResultPage,
  isLeaveResultPage,
  isPage,
  isTokenPage,
  isWaitlistResultPage,
  leaveResultOf,
  PAGE_PATH,
  pageOfPath,
  waitlistResultOf,
} from './i18n/page-paths';
import { LandingPage } from './pages/landing-page';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// The build writes the page into data-page; the dev server leaves its placeholder there.
const page = isPage(container.dataset.page) ? container.dataset.page : pageOfPath(window.location.pathname);
// The confirmation and leave pages have no address per language: they speak the language of the link
// that opened them.
const servedLocale = document.documentElement.lang;
const locale =
  isTokenPage(page) && isLocale(servedLocale)
    ? servedLocale
    : initialLocale(window.location.pathname, readLanguagePreference());

/**
 * Sets the page in its typeface part by part once the app has committed (styles.css, at its @font-face):
 * the font is asked for only after the first paint, and the parts watched are the ones React shows.
 */
function TypefaceOutOfSight(): null {
  useEffect(setTypefaceOutOfSight, []);
  return null;
}

/**
 * Shows the page. The prerendered HTML is hydrated when it is in the language to show; otherwise (a
 * remembered choice, or the dev server, which has no prerendered HTML) the page is rendered afresh.
 */
function show(root: HTMLElement, content: ReactNode): void {
  const app = (
    <StrictMode>
      <LanguageProvider page={page} initialLocale={locale} catalog={lazyMessages}>
        {content}
        <TypefaceOutOfSight />
      </LanguageProvider>
    </StrictMode>
  );
  if (root.firstElementChild && document.documentElement.lang === locale) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding the main
    // thread in one long task for the whole page.
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    // A returning visitor who chose the other language: show their language at its own address.
    if (hasAddress(page))
      window.history.replaceState(null, '', PAGE_PATH[page][locale] + window.location.hash);
    createRoot(root).render(app);
  }
}

// The same pages as App (app.tsx) renders for the prerender, except that the privacy notice, text and all,
// the pages a mail's link opens and the result pages are chunks of their own, so the home page never downloads
// them; and the copy of the language shown is loaded first. (No top-level await here: the chunks import
// shared modules from this one, which must have finished loading.)
const copyLoaded = lazyMessages.load(locale);
if (page === 'privacy') {
  void Promise.all([import('./features/privacy/privacy-page'), copyLoaded]).then(([{ PrivacyPage }]) =>
    show(container, <PrivacyPage />),
  );
} else if (page === 'confirm') {
  void Promise.all([import('./features/confirm/components/confirm-page'), copyLoaded]).then(
    ([{ ConfirmPage, tokenOfPage }]) =>
      show(container, <ConfirmPage token={tokenOfPage(container, window.location.search)} />),
  );
} else if (isConfirmResultPage(page)) {
  const result = confirmResultOf(page);
  void Promise.all([import('./features/confirm/components/confirmation-result-page'), copyLoaded]).then(
    ([{ ConfirmationResultPage }]) => show(container, <ConfirmationResultPage result={result} />),
  );
} else if (page === 'leave') {
  void Promise.all([import('./features/leave/components/leave-page'), copyLoaded]).then(
    ([{ LeavePage, leaveTokenOfPage }]) =>
      show(container, <LeavePage token={leaveTokenOfPage(container, window.location.search)} />),
  );
} else if (isLeaveResultPage(page) && leaveResultOf(page) === 'requested') {
  void Promise.all([import('./features/privacy/components/leave-requested-page'), copyLoaded]).then(
    ([{ LeaveRequestedPage }]) => show(container, <LeaveRequestedPage />),
  );
} else if (isLeaveResultPage(page)) {
  const result = leaveResultOf(page) === 'done' ? 'done' : 'try-again';
  void Promise.all([import('./features/leave/components/leave-result-page'), copyLoaded]).then(
    ([{ LeaveResultPage }]) => show(container, <LeaveResultPage result={result} />),
  );
} else if (isWaitlistResultPage(page)) {
  const result = waitlistResultOf(page);
  void Promise.all([import('./features/waitlist/components/waitlist-result-page'), copyLoaded]).then(
    ([{ WaitlistResultPage }]) => show(container, <WaitlistResultPage result={result} />),
  );
} else {
  void copyLoaded.then(() => show(container, page === 'home' ? <LandingPage /> : <NotFoundPage />));
}
