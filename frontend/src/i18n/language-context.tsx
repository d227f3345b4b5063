import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { DEFAULT_LOCALE, isLocale, type Locale, localeOfPath } from '#contract/locales';
import { type Formatters, formattersFor } from './format';
import type { Messages } from './messages/en';
import { applyPageMetadata, pageMetadata } from './page-metadata';
import { hasAddress, PAGE_PATH, type Page } from './page-paths';

export type { Messages };

/** The one thing the site keeps in the browser (the privacy notice names it). */
export const LANGUAGE_STORAGE_KEY = 'mandje:language';

/** A path that names a language wins (a shared `/en/` link stays English), then the visitor's choice. */
export function initialLocale(pathname: string, preference: Locale | undefined): Locale {
  return localeOfPath(pathname) ?? preference ?? DEFAULT_LOCALE;
}

// Storage blocked by privacy settings: not remembering is acceptable; failing the switch is not.
export function readLanguagePreference(): Locale | undefined {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(stored) ? stored : undefined;
  } catch {}
}

/** Where the page's copy comes from: one chunk per language in the browser (main.tsx), both at hand elsewhere. */
export interface MessageCatalog {
  get(locale: Locale): Messages | undefined;
  load(locale: Locale): Promise<Messages>;
}

export interface LanguageState {
  page: Page;
  locale: Locale;
  messages: Messages;
  format: Formatters;
  /** The visitor's choice: shown, put in the URL and remembered. */
  switchLocale(next: Locale): void;
  /** Fetches a language's copy ahead of a likely switch. */
  prepareLocale(next: Locale): void;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function LanguageProvider(props: {
  page: Page;
  /** `catalog` must have it loaded already. */
  initialLocale: Locale;
  catalog: MessageCatalog;
  children: ReactNode;
}) {
  const { page, catalog } = props;
  const [locale, setLocale] = useState(props.initialLocale);
  const showLocale = (next: Locale, then?: () => void) => {
    const show = () => {
      then?.();
      setLocale(next);
    };
    if (catalog.get(next)) show();
    else void catalog.load(next).then(show);
  };
  const messages = catalog.get(locale);
  if (!messages) throw new Error(`The copy of ${locale} is shown before it is loaded`);

  useEffect(() => {
    applyPageMetadata(pageMetadata(page, locale, messages.meta));
  }, [page, locale, messages]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: showLocale reads only the page and the catalog.
  useEffect(() => {
    if (!hasAddress(page)) return;
    const followHistory = () => showLocale(localeOfPath(window.location.pathname) ?? DEFAULT_LOCALE);
    window.addEventListener('popstate', followHistory);
    return () => window.removeEventListener('popstate', followHistory);
  }, [page, catalog]);

  // Not memoized: the provider renders again only when the language changes, and with it the whole value.
  const value: LanguageState = {
    page,
    locale,
    messages,
    format: formattersFor(locale),
    switchLocale(next) {
      try {
        localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
      } catch {}
      if (next === locale) return;
      // The not-found page keeps the address that was tried, the confirmation page its link.
      showLocale(next, () => {
        if (hasAddress(page)) window.history.pushState(null, '', PAGE_PATH[page][next]);
      });
    },
    prepareLocale: (next) => void catalog.load(next),
  };
  return <LanguageContext value={value}>{props.children}</LanguageContext>;
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage must be used inside <LanguageProvider>');
  return state;
}
