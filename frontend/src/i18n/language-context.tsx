import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { DEFAULT_LOCALE, type Locale, localeOfPath } from '#contract/locales';
import { type Formatters, formattersFor } from './format';
import { saveLanguagePreference } from './language-preference';
import type { MessageCatalog, Messages } from './message-catalog';
import { applyPageMetadata, pageMetadata } from './page-metadata';
import { hasAddress, PAGE_PATH, type Page } from './page-paths';

export interface LanguageState {
  /** The page being shown, so links to "this page in another language" can be written. */
  page: Page;
  locale: Locale;
  messages: Messages;
  format: Formatters;
  /** An explicit choice by the visitor: shown at once, put in the URL and remembered for the next visit. */
  switchLocale(next: Locale): void;
  /** Fetches a language's copy ahead of a likely switch (a pointer or the focus on the switch). */
  prepareLocale(next: Locale): void;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function LanguageProvider({
  page,
  initialLocale,
  catalog,
  children,
}: {
  page: Page;
  /** The language to show first; `catalog` must have it loaded already. */
  initialLocale: Locale;
  catalog: MessageCatalog;
  children: ReactNode;
}) {
  const [locale, setLocale] = useState(initialLocale);
  /** Shows `next` once its copy is there: at once if it is loaded, else when it has been fetched. */
  const showLocale = useCallback(
    (next: Locale, then: () => void = () => {}) => {
      const show = () => {
        then();
        setLocale(next);
      };
      if (catalog.get(next)) show();
      else void catalog.load(next).then(show);
    },
    [catalog],
  );

  const switchLocale = useCallback(
    (next: Locale) => {
      saveLanguagePreference(next);
      if (next === locale) return;
      // Pages have an address per language; the not-found page keeps the address that was tried, and the
      // confirmation page the link that opened it.
      showLocale(next, () => {
        if (hasAddress(page)) window.history.pushState(null, '', PAGE_PATH[page][next]);
      });
    },
    [page, locale, showLocale],
  );

  const messages = loadedCopy(catalog, locale);

  useEffect(() => {
    applyPageMetadata(pageMetadata(page, locale, messages.meta));
  }, [page, locale, messages]);

  useEffect(() => {
    // The address of a page without one of its own (not found, confirmation) does not name its language.
    if (!hasAddress(page)) return;
    const followHistory = () => showLocale(localeOfPath(window.location.pathname) ?? DEFAULT_LOCALE);
    window.addEventListener('popstate', followHistory);
    return () => window.removeEventListener('popstate', followHistory);
  }, [page, showLocale]);

  const value = useMemo(
    () => ({
      page,
      locale,
      messages,
      format: formattersFor(locale),
      switchLocale,
      prepareLocale: (next: Locale) => void catalog.load(next),
    }),
    [page, locale, messages, switchLocale, catalog],
  );
  return <LanguageContext value={value}>{children}</LanguageContext>;
}

/** The copy of a language the provider shows: it is only ever shown once loaded. */
function loadedCopy(catalog: MessageCatalog, locale: Locale): Messages {
  const copy = catalog.get(locale);
  if (!copy) throw new Error(`The copy of ${locale} is shown before it is loaded`);
  return copy;
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage must be used inside <LanguageProvider>');
  return state;
}
