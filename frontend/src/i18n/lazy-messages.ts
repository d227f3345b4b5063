import type { Locale } from '#contract/locales';
import type { MessageCatalog, Messages } from './message-catalog';

/** Each language's copy as a chunk of its own. The entry (boot.ts) names the same chunks to fetch early. */
export const MESSAGE_CHUNKS: Record<Locale, () => Promise<Messages>> = {
  nl: () => import('./messages/nl').then((module) => module.nl),
  en: () => import('./messages/en').then((module) => module.en),
};

const loaded: Partial<Record<Locale, Messages>> = {};
const loading: Partial<Record<Locale, Promise<Messages>>> = {};

/** The browser's catalog: one language at a time, the other when the visitor asks for it. */
export const lazyMessages: MessageCatalog = {
  get: (locale) => loaded[locale],
  load(locale) {
    loading[locale] ??= MESSAGE_CHUNKS[locale]().then((copy) => {
      loaded[locale] = copy;
      return copy;
    });
    return loading[locale];
  },
};
