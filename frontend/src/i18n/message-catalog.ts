import type { Locale } from '#contract/locales';
import type { Messages } from './messages/en';

export type { Messages };

/**
 * Where the page's copy comes from. In the browser each language is a chunk of its own, fetched when it
 * is needed (lazy-messages.ts): a visitor downloads one language, not both. The prerender and the tests
 * have both at hand (messages.ts).
 */
export interface MessageCatalog {
  /** The copy of `locale`, if it is loaded. */
  get(locale: Locale): Messages | undefined;
  /** Loads the copy of `locale` (once) and gives it. */
  load(locale: Locale): Promise<Messages>;
}
