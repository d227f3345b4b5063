import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLocale, type Locale } from '#contract/locales';
import { NotFoundPage } from './features/not-found/not-found-page';
import { setTypefaceOutOfSight } from './fonts/typeface-out-of-sight';
import {
  initialLocale,
  LanguageProvider,
  type MessageCatalog,
  type Messages,
  readLanguagePreference,
} from './i18n/language-context';
import {
  hasAddress,
  isConfirmResultPage,
  isLeaveResultPage,
  isPage,
  isWaitlistResultPage,
  PAGE_PATH,
  pageOfPath,
  resultOf,
} from './i18n/page-paths';
import { LandingPage } from './pages/landing-page';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// The build writes the page into data-page; the dev server leaves its placeholder there.
const page = isPage(container.dataset.page) ? container.dataset.page : pageOfPath(window.location.pathname);
// The pages a mail's link opens speak the language of that link.
const servedLocale = document.documentElement.lang;
const locale =
  (page === 'confirm' || page === 'leave') && isLocale(servedLocale)
    ? servedLocale
    : initialLocale(window.location.pathname, readLanguagePreference());

// The entry (boot.ts) names the same chunks to fetch early.
const CHUNKS: Record<Locale, () => Promise<Messages>> = {
  nl: () => import('./i18n/messages/nl').then((module) => module.nl),
  en: () => import('./i18n/messages/en').then((module) => module.en),
};
const loaded: Partial<Record<Locale, Messages>> = {};
const loading: Partial<Record<Locale, Promise<Messages>>> = {};
const lazyMessages: MessageCatalog = {
  get: (locale) => loaded[locale],
  load(locale) {
    loading[locale] ??= CHUNKS[locale]().then((copy) => {
      loaded[locale] = copy;
      return copy;
    });
    return loading[locale];
  },
};

/** Run once the app has committed, so the parts watched are the ones React shows. */
function TypefaceOutOfSight(): null {
  useEffect(setTypefaceOutOfSight, []);
  return null;
}

// The copy of the language shown loads first; every page but home and not-found is in its feature's chunk, so
// the home page never downloads them. (No top-level await: the chunks import shared modules from this one.)
const copyLoaded = lazyMessages.load(locale);
const content = async (): Promise<ReactNode> => {
  if (page === 'home') return <LandingPage />;
  if (page === 'privacy') return import('./features/privacy/privacy-page').then((m) => <m.PrivacyPage />);
  if (page === 'confirm' || isConfirmResultPage(page)) {
    const m = await import('./features/confirm/components/confirm-page');
    if (page !== 'confirm') return <m.ConfirmationResultPage result={resultOf(page)} />;
    return <m.ConfirmPage token={m.tokenOfPage(container, window.location.search)} />;
  }
  if (isLeaveResultPage(page) && resultOf(page) === 'requested')
    return import('./features/privacy/privacy-page').then((m) => <m.LeaveRequestedPage />);
  if (page === 'leave' || isLeaveResultPage(page)) {
    const m = await import('./features/leave/components/leave-page');
    if (page !== 'leave')
      return <m.LeaveResultPage result={resultOf(page) === 'done' ? 'done' : 'try-again'} />;
    return <m.LeavePage token={m.leaveTokenOfPage(container, window.location.search)} />;
  }
  if (!isWaitlistResultPage(page)) return <NotFoundPage />;
  const { WaitlistResultPage } = await import('./features/waitlist/components/waitlist-result-page');
  return <WaitlistResultPage result={resultOf(page)} />;
};

void Promise.all([content(), copyLoaded]).then(([shown]) => {
  const app = (
    <StrictMode>
      <LanguageProvider page={page} initialLocale={locale} catalog={lazyMessages}>
        {shown}
        <TypefaceOutOfSight />
      </LanguageProvider>
    </StrictMode>
  );
  // The prerendered HTML is hydrated when it is in the language to show, as a transition, which yields to
  // the browser instead of holding the main thread in one long task.
  if (container.firstElementChild && document.documentElement.lang === locale) {
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    // A remembered choice of the other language (or the dev server): show it at its own address.
    if (hasAddress(page))
      window.history.replaceState(null, '', PAGE_PATH[page][locale] + window.location.hash);
    createRoot(container).render(app);
  }
});
