import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLocale, type Locale } from '#contract/locales';
import { NotFoundPage } from './features/not-found/not-found-page';
import { setTypefaceOutOfSight } from './fonts/typeface-out-of-sight';
import * as language from './i18n/language-context';
import * as paths from './i18n/page-paths';
import { LandingPage } from './pages/landing-page';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// The build writes the page into data-page; the dev server leaves its placeholder there.
const page = paths.isPage(container.dataset.page)
  ? container.dataset.page
  : paths.pageOfPath(location.pathname);
// The pages a mail's link opens speak the language of that link.
const servedLocale = document.documentElement.lang;
const locale =
  (page === 'confirm' || page === 'leave') && isLocale(servedLocale)
    ? servedLocale
    : language.initialLocale(location.pathname, language.readLanguagePreference());

// The entry (boot.ts) names the same chunks to fetch early; a module is imported once however often asked.
const loaded: Partial<Record<Locale, language.Messages>> = {};
const lazyMessages: language.MessageCatalog = {
  get: (locale) => loaded[locale],
  async load(locale) {
    const copy =
      locale === 'nl' ? (await import('./i18n/messages/nl')).nl : (await import('./i18n/messages/en')).en;
    loaded[locale] = copy;
    return copy;
  },
};

/** Run once the app has committed, so the parts watched are the ones React shows. */
function TypefaceOutOfSight(): null {
  useEffect(setTypefaceOutOfSight, []);
  return null;
}

// Every page but home and not-found is in its feature's chunk, so the home page never downloads them. (No
// top-level await: the chunks import shared modules from this one.)
const content = async (): Promise<ReactNode> => {
  if (page === 'home') return <LandingPage />;
  if (page === 'privacy') return import('./features/privacy/privacy-page').then((m) => <m.PrivacyPage />);
  if (page === 'confirm' || paths.isConfirmResultPage(page)) {
    const m = await import('./features/confirm/components/confirm-page');
    if (page !== 'confirm') return <m.ConfirmationResultPage result={paths.resultOf(page)} />;
    return <m.ConfirmPage token={m.tokenOfPage(container, location.search)} />;
  }
  if (paths.isLeaveResultPage(page) && paths.resultOf(page) === 'requested')
    return import('./features/privacy/privacy-page').then((m) => <m.LeaveRequestedPage />);
  if (page === 'leave' || paths.isLeaveResultPage(page)) {
    const m = await import('./features/leave/components/leave-page');
    if (page !== 'leave')
      return <m.LeaveResultPage result={paths.resultOf(page) === 'done' ? 'done' : 'try-again'} />;
    return <m.LeavePage token={m.leaveTokenOfPage(container, location.search)} />;
  }
  if (!paths.isWaitlistResultPage(page)) return <NotFoundPage />;
  const { WaitlistResultPage } = await import('./features/waitlist/components/waitlist-result-page');
  return <WaitlistResultPage result={paths.resultOf(page)} />;
};

void Promise.all([content(), lazyMessages.load(locale)]).then(([shown]) => {
  const app = (
    <StrictMode>
      <language.LanguageProvider page={page} initialLocale={locale} catalog={lazyMessages}>
        {shown}
        <TypefaceOutOfSight />
      </language.LanguageProvider>
    </StrictMode>
  );
  // Hydrated when the prerendered HTML is in the language to show, as a transition, which yields to the
  // browser instead of holding the main thread in one long task.
  if (container.firstElementChild && document.documentElement.lang === locale) {
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    // A remembered choice of the other language (or the dev server): show it at its own address.
    if (paths.hasAddress(page)) history.replaceState(null, '', paths.PAGE_PATH[page][locale] + location.hash);
    createRoot(container).render(app);
  }
});
