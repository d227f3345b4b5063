import type { Locale } from '#contract/locales';
import type { Messages } from './messages/en';

export type { Messages };

/** Where the page's copy comes from: one chunk per language in the browser, both at hand elsewhere. */
export interface MessageCatalog {
  get(locale: Locale): Messages | undefined;
  /** Loads the copy of `locale` (once) and gives it. */
  load(locale: Locale): Promise<Messages>;
}

// The entry (boot.ts) names the same chunks to fetch early.
const CHUNKS: Record<Locale, () => Promise<Messages>> = {
  nl: () => import('./messages/nl').then((module) => module.nl),
  en: () => import('./messages/en').then((module) => module.en),
};

const loaded: Partial<Record<Locale, Messages>> = {};
const loading: Partial<Record<Locale, Promise<Messages>>> = {};

export const lazyMessages: MessageCatalog = {
  get: (locale) => loaded[locale],
  load(locale) {
    loading[locale] ??= CHUNKS[locale]().then((copy) => {
      loaded[locale] = copy;
      return copy;
    });
    return loading[locale];
  },
};
