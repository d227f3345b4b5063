import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { type Formatters, formattersFor } from './format';
import { saveLanguagePreference } from './language-preference';
import { DEFAULT_LOCALE, HOME_PATH, type Locale, localeOfPath } from './locales';
import { type Messages, messages } from './messages';
import { applyPageMetadata, type Page, pageMetadata } from './page-metadata';

export interface LanguageState {
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
      // The home page has a URL per language; the not-found page keeps the address that was tried.
      if (page === 'home') window.history.pushState(null, '', HOME_PATH[next]);
      setLocale(next);
    },
    [page, locale],
  );

  useEffect(() => {
    applyPageMetadata(pageMetadata(page, locale));
  }, [page, locale]);

  useEffect(() => {
    if (page !== 'home') return;
    const followHistory = () => setLocale(localeOfPath(window.location.pathname) ?? DEFAULT_LOCALE);
    window.addEventListener('popstate', followHistory);
    return () => window.removeEventListener('popstate', followHistory);
  }, [page]);

  const value = useMemo(
    () => ({ locale, messages: messages[locale], format: formattersFor(locale), switchLocale }),
    [locale, switchLocale],
  );
  return <LanguageContext value={value}>{children}</LanguageContext>;
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage must be used inside <LanguageProvider>');
  return state;
}
