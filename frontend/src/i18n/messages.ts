import type { Locale } from '#contract/locales';
import type { MessageCatalog, Messages } from './language-context';
import { en } from './messages/en';
import { nl } from './messages/nl';

export type { Messages };

/** Every language at once, for the prerender and the tests; the browser never imports this module. */
export const messages = { nl, en } satisfies Record<Locale, Messages>;

export const allMessages: MessageCatalog = {
  get: (locale) => messages[locale],
  load: async (locale) => messages[locale],
};
