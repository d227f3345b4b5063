import type { Locale } from '#contract/locales';
import type { MessageCatalog, Messages } from './message-catalog';
import { en } from './messages/en';
import { nl } from './messages/nl';

export type { Messages };

/**
 * Every language's copy at once, for the prerender and the tests. The browser never imports this module:
 * it loads one language at a time (lazy-messages.ts).
 */
export const messages = { nl, en } satisfies Record<Locale, Messages>;

/** A catalog with every language loaded already. */
export const allMessages: MessageCatalog = {
  get: (locale) => messages[locale],
  load: async (locale) => messages[locale],
};
