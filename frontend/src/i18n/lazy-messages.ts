import type { Locale } from '#contract/locales';
import type { Messages } from './messages/en';

export type { Messages };

// The entry (boot.ts) names the same chunks to fetch early.
const CHUNKS: Record<Locale, () => Promise<Messages>> = {
  nl: () => import('./messages/nl').then((module) => module.nl),
  en: () => import('./messages/en').then((module) => module.en),
};

const loaded: Partial<Record<Locale, Messages>> = {};
const loading: Partial<Record<Locale, Promise<Messages>>> = {};

/** Where the page's copy comes from: one chunk per language in the browser, both at hand elsewhere. */
export const lazyMessages = {
  get: (locale: Locale): Messages | undefined => loaded[locale],
  /** Loads the copy of `locale` (once) and gives it. */
  load(locale: Locale): Promise<Messages> {
    loading[locale] ??= CHUNKS[locale]().then((copy) => {
      loaded[locale] = copy;
      return copy;
    });
    return loading[locale];
  },
};

export type MessageCatalog = typeof lazyMessages;
