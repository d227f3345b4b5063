import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { DEFAULT_LOCALE, type Locale, localeOfPath } from '#contract/locales';
import { type Formatters, formattersFor } from './format';
import { saveLanguagePreference } from './language-preference';
import { type Messages, messages } from './messages';
import { applyPageMetadata, pageMetadata } from './page-metadata';
import { PAGE_PATH, type Page } from './page-paths';

export interface LanguageState {
  /** The page being shown, so links to "this page in another language" can be written. */
  page: Page;
  locale: Locale;
  messages: Messages;
  format: Formatters;
  /** An explicit choice by the visitor: shown at once, put in the URL and remembered for the next visit. */
  switchLocale(next: Locale): void;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function LanguageProvider({
  page,
  initialLocale,
  children,
}: {
  page: Page;
  initialLocale: Locale;
  children: ReactNode;
}) {
  const [locale, setLocale] = useState(initialLocale);

  const switchLocale = useCallback(
    (next: Locale) => {
      saveLanguagePreference(next);
      if (next === locale) return;
      // Pages have an address per language; the not-found page keeps the address that was tried.
      if (page !== 'not-found') window.history.pushState(null, '', PAGE_PATH[page][next]);
      setLocale(next);
    },
    [page, locale],
  );

  useEffect(() => {
    applyPageMetadata(pageMetadata(page, locale));
  }, [page, locale]);

  useEffect(() => {
    if (page === 'not-found') return;
    const followHistory = () => setLocale(localeOfPath(window.location.pathname) ?? DEFAULT_LOCALE);
    window.addEventListener('popstate', followHistory);
    return () => window.removeEventListener('popstate', followHistory);
  }, [page]);

  const value = useMemo(
    () => ({ page, locale, messages: messages[locale], format: formattersFor(locale), switchLocale }),
    [page, locale, switchLocale],
  );
  return <LanguageContext value={value}>{children}</LanguageContext>;
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage must be used inside <LanguageProvider>');
  return state;
}
